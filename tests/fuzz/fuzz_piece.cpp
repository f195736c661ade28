// libFuzzer target: any bytes as the second piece of a frame written on two
// ranks, beside the real first piece, its .pvtu and the run's run.sphero
// (corpus/piece_frame), read as a run's frames are: what a piece says of
// itself (its run, frame, time, index and count) is checked before it
// is trusted.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "read_grid_every_way.h"
#include "scratch_folder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path dir = scratch_folder_with("piece", SPHERO_FUZZ_FRAME_DIR);
  std::ofstream(dir / "state_00001_1.vtu", std::ios::binary)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  read_grid_every_way((dir / "state_00001.pvtu").string());
  return 0;
}
