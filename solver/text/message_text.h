// Text that reaches a message or a number: what every reader of user files
// shares, so that they quote and parse alike.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sphero {

// The text fit for a one-line message: bytes that are not printable ASCII
// or valid UTF-8 written as \xNN, and text past `longest` characters cut,
// with the full length said (a value pasted by mistake can be megabytes).
std::string fit_for_message(std::string_view text, std::size_t longest = 300);

// Where a text holds a control character no text file of Sphero's may
// (NUL and the rest of ASCII's control bytes and DEL, but tab, line feed
// and carriage return): such a byte would cut a path or a name short
// wherever C strings meet it, and nobody types one on purpose.
struct ControlByte {
  int line = 1;    // from 1
  int column = 1;  // from 1, in bytes
  unsigned char byte = 0;
};
std::optional<ControlByte> first_control_byte(std::string_view text);
// "a control character (byte 0x00) at column 7": for a reader's message.
std::string describe(const ControlByte& c);

// The whole text as a number in the C locale (std::from_chars: no leading
// '+', no spaces, no trailing characters); "inf" and "nan" parse, so that
// callers can say why they refuse them.
std::optional<double> parse_number(std::string_view text);
// As parse_number, refusing infinities and NaN.
std::optional<double> parse_finite(std::string_view text);

}  // namespace sphero
