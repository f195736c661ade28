// libFuzzer target: any bytes as a run's energy.csv.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "io/frame_reader.h"
#include "scratch_folder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path run = scratch_folder("run");
  std::ofstream(run / "energy.csv", std::ios::binary)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    (void)sphero::read_energy_table(run);
  } catch (const std::exception&) {
  }
  return 0;
}
