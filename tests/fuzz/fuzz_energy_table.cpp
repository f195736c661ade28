// libFuzzer target: any bytes as a run's energy.csv.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/frame_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path run = [] {
    const auto dir = std::filesystem::temp_directory_path() / ("sphero-fuzz-run-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return dir;
  }();
  std::ofstream(run / "energy.csv", std::ios::binary)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    (void)sphero::read_energy_table(run);
  } catch (const std::exception&) {
  }
  return 0;
}
