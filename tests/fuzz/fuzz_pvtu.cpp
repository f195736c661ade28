// libFuzzer target: any bytes as a .pvtu naming pieces, read the way a run
// on ranks' frames are read (read_vtu appends the pieces in a whole
// frame's order), and through every grid reader. The summary lies in a scratch folder beside copies of
// the vtu corpus's files, which it may name as pieces (the seeds do).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "read_grid_every_way.h"

namespace {

// The scratch folder, with the vtu corpus's files copied in once.
std::filesystem::path scratch() {
  static const std::filesystem::path dir = [] {
    const std::filesystem::path d = "/tmp/sphero-fuzz-pvtu-" + std::to_string(getpid());
    std::filesystem::create_directories(d);
    for (const auto& entry : std::filesystem::directory_iterator(SPHERO_FUZZ_PIECES_DIR))
      std::filesystem::copy_file(
          entry.path(), d / entry.path().filename(), std::filesystem::copy_options::overwrite_existing);
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path file = scratch() / "frame.pvtu";
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  read_grid_every_way(file.string());
  return 0;
}
