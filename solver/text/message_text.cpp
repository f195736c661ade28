#include "text/message_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace sphero {
namespace {

// The length of the valid UTF-8 sequence of two to four bytes at `at`, or 0.
std::size_t utf8_sequence(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(at);
  const std::size_t length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0;
  if (length == 0 || at + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k)
    if ((byte(at + k) & 0xC0) != 0x80) return 0;
  return length;
}

}  // namespace

std::string fit_for_message(std::string_view text, std::size_t longest) {
  const std::string_view kept = text.substr(0, longest);
  std::string out;
  out.reserve(kept.size());
  for (std::size_t at = 0; at < kept.size();) {
    const auto c = static_cast<unsigned char>(kept[at]);
    if (c >= 0x20 && c < 0x7F) {
      out += kept[at++];
    } else if (const std::size_t n = utf8_sequence(kept, at); n > 0) {
      out.append(kept.substr(at, n));
      at += n;
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", c);
      out += escaped;
      ++at;
    }
  }
  if (text.size() > longest) out += "... (" + std::to_string(text.size()) + " characters in all)";
  return out;
}

std::optional<ControlByte> first_control_byte(std::string_view text) {
  ControlByte at;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      ++at.line, at.column = 1;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7F) {
      at.byte = c;
      return at;
    }
    ++at.column;
  }
  return std::nullopt;
}

std::string describe(const ControlByte& c) {
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", c.byte);
  return std::string("a control character (byte ") + byte + ") at column " + std::to_string(c.column);
}

std::optional<double> parse_number(std::string_view text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<double> parse_finite(std::string_view text) {
  const auto value = parse_number(text);
  return value && std::isfinite(*value) ? value : std::nullopt;
}

}  // namespace sphero
