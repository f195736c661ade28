// libFuzzer target: any bytes as a checkpoint (whole or in parts), then an
// engine stepped from it. The checksum that closes a checkpoint is put
// right first, so that mutations reach the reader's checks of the content
// (the checks a file made to pass the checksum meets), not only the sum.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

#include "io/checkpoint.h"

namespace {

// The file's FNV-1a sum (io/checkpoint.cpp) over all but its last 8 bytes,
// into those.
void put_checksum_right(std::string& bytes) {
  if (bytes.size() < 16) return;
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t k = 0; k + 8 < bytes.size(); ++k) h = (h ^ static_cast<unsigned char>(bytes[k])) * 1099511628211ull;
  std::memcpy(bytes.data() + bytes.size() - 8, &h, 8);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  put_checksum_right(bytes);
  std::istringstream in(bytes);
  try {
    sphero::Engine engine(sphero::read_checkpoint(in, "fuzz.ckpt"));
    engine.step();
  } catch (const std::exception&) {
  }
  return 0;
}
