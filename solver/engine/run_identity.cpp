#include "engine/run_identity.h"

#include <fmt/format.h>

#include <random>

namespace sphero {

std::string RunIdentity::text() const {
  if (!known()) return "unknown";
  return fmt::format("{:016x}{:016x}", bits[0], bits[1]);
}

RunIdentity RunIdentity::fresh() {
  std::random_device source;
  RunIdentity id;
  while (!id.known())
    for (std::uint64_t& word : id.bits)
      word = (static_cast<std::uint64_t>(source()) << 32) ^ static_cast<std::uint64_t>(source());
  return id;
}

std::optional<RunIdentity> RunIdentity::parse(const std::string& text) {
  if (text.size() != 32 || text.find_first_not_of("0123456789abcdef") != std::string::npos) return std::nullopt;
  RunIdentity id;
  for (std::size_t k = 0; k < 2; ++k) id.bits[k] = std::stoull(text.substr(16 * k, 16), nullptr, 16);
  if (!id.known()) return std::nullopt;
  return id;
}

}  // namespace sphero
