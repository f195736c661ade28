// libFuzzer target: any bytes as a .vtu, read the way a run's frames, state
// files and contact points are read (through a temporary file: VTK's
// readers read files).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "io/contact_points_vtu.h"
#include "io/frame_reader.h"
#include "io/state_vtu.h"
#include "io/vtu_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string file = "/tmp/sphero-fuzz-" + std::to_string(getpid()) + ".vtu";
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    const auto grid = sphero::read_vtu(file);
    try {
      (void)sphero::frame_from_grids(grid, grid, grid, grid);
    } catch (const std::exception&) {
    }
    try {
      (void)sphero::vertex_contacts_from_grid(grid);
    } catch (const std::exception&) {
    }
    (void)sphero::bodies_from_state_grid(grid, file);
  } catch (const std::exception&) {
  }
  return 0;
}
