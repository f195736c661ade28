// libFuzzer target: any bytes as a .shape file, then its mass properties.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const sphero::Shape shape = sphero::parse_shape(in, "fuzz.shape", "fuzz");
    (void)sphero::mass_properties(shape);
  } catch (const std::exception&) {
  }
  return 0;
}
