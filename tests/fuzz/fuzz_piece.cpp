// libFuzzer target: any bytes as the second piece of a frame written on two
// ranks, beside the real first piece, its .pvtu and the run's run.sphero
// (corpus/piece_frame), read as a run's frames are: what a piece says of
// itself (its run, frame, time, index and count) is checked before it
// is trusted.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "read_grid_every_way.h"

namespace {

// The scratch folder, holding the frame's other files.
std::filesystem::path scratch() {
  static const std::filesystem::path dir = [] {
    const std::filesystem::path d = "/tmp/sphero-fuzz-piece-" + std::to_string(getpid());
    std::filesystem::create_directories(d);
    for (const auto& entry : std::filesystem::directory_iterator(SPHERO_FUZZ_FRAME_DIR))
      std::filesystem::copy_file(
          entry.path(), d / entry.path().filename(), std::filesystem::copy_options::overwrite_existing);
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path dir = scratch();
  std::ofstream(dir / "state_00001_1.vtu", std::ios::binary)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  read_grid_every_way((dir / "state_00001.pvtu").string());
  return 0;
}
