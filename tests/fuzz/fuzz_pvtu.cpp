// libFuzzer target: any bytes as a .pvtu naming pieces, read the way a run
// on ranks' frames are read (read_vtu appends the pieces in a whole
// frame's order), and through every grid reader. The summary lies in a scratch folder beside copies of
// the vtu corpus's files, which it may name as pieces (the seeds do).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "read_grid_every_way.h"
#include "scratch_folder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path dir = scratch_folder_with("pvtu", SPHERO_FUZZ_PIECES_DIR);
  const std::filesystem::path file = dir / "frame.pvtu";
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  read_grid_every_way(file.string());
  return 0;
}
