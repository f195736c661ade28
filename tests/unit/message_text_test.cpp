// What every reader quotes and parses alike.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "text/message_text.h"

namespace sphero {
namespace {

TEST(MessageText, KeepsPrintableTextAndUtf8) {
  EXPECT_EQ(fit_for_message("duration = 1"), "duration = 1");
  EXPECT_EQ(fit_for_message("m/s² and é"), "m/s² and é");
}

TEST(MessageText, EscapesControlBytesAndBrokenUtf8) {
  EXPECT_EQ(fit_for_message(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(fit_for_message("tab\there"), "tab\\x09here");
  EXPECT_EQ(fit_for_message("\xff\xfe"), "\\xFF\\xFE");
  EXPECT_EQ(fit_for_message("\xc3"), "\\xC3");           // a lead byte cut short
  EXPECT_EQ(fit_for_message("\xe2\x82"), "\\xE2\\x82");  // a three-byte sequence cut short
  EXPECT_EQ(fit_for_message("\xc0\xaf"), "\\xC0\\xAF");  // an overlong encoding of '/'
}

TEST(MessageText, CutsLongTextAndSaysItsLength) {
  const std::string long_value(10000, '9');
  const std::string fitted = fit_for_message(long_value, 300);
  EXPECT_EQ(fitted, std::string(300, '9') + "... (10000 characters in all)");
  EXPECT_EQ(fit_for_message(std::string(300, 'x'), 300), std::string(300, 'x'));
}

TEST(MessageText, ParsesWholeNumbersOnly) {
  EXPECT_EQ(parse_number("1.5"), 1.5);
  EXPECT_EQ(parse_number("-2e-3"), -2e-3);
  EXPECT_FALSE(parse_number(""));
  EXPECT_FALSE(parse_number("1.5mm"));
  EXPECT_FALSE(parse_number(" 1"));
  EXPECT_FALSE(parse_number("+1"));  // std::from_chars: no leading '+'
  EXPECT_FALSE(parse_number("0x10"));
  EXPECT_FALSE(parse_number("0,5"));
  EXPECT_FALSE(parse_number("1e999"));  // out of range
  EXPECT_TRUE(std::isinf(*parse_number("inf")));
  EXPECT_TRUE(std::isnan(*parse_number("nan")));
}

TEST(MessageText, AControlCharacterIsFoundWithItsLineAndColumn) {
  EXPECT_FALSE(first_control_byte("a = 1\r\n\tb = 2\n"));  // tab, CR and LF are text
  EXPECT_FALSE(first_control_byte("grain = é\n"));         // so is UTF-8
  const auto nul = first_control_byte(std::string_view("a = 1\nshape=x\0y\n", 16));
  ASSERT_TRUE(nul);
  EXPECT_EQ(nul->line, 2);
  EXPECT_EQ(nul->column, 8);
  EXPECT_EQ(nul->byte, 0);
  EXPECT_EQ(describe(*nul), "a control character (byte 0x00) at column 8");
  EXPECT_EQ(first_control_byte("x\x7F")->byte, 0x7F);
  EXPECT_EQ(first_control_byte("\x1B[0m")->column, 1);
}

TEST(MessageText, FiniteRefusesInfinitiesAndNan) {
  EXPECT_EQ(parse_finite("3"), 3.0);
  EXPECT_FALSE(parse_finite("inf"));
  EXPECT_FALSE(parse_finite("-inf"));
  EXPECT_FALSE(parse_finite("nan"));
}

}  // namespace
}  // namespace sphero
