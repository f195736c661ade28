// libFuzzer target: any bytes as a .vtu, read the way a run's frames, state
// files and contact points are read (through a temporary file: VTK's
// readers read files).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "read_grid_every_way.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string file = "/tmp/sphero-fuzz-" + std::to_string(getpid()) + ".vtu";
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  read_grid_every_way(file);
  return 0;
}
