// libFuzzer target: any bytes as a checkpoint, then an engine stepped from it.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "io/checkpoint.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    sphero::Engine engine(sphero::read_checkpoint(in, "fuzz.ckpt"));
    engine.step();
  } catch (const std::exception&) {
  }
  return 0;
}
