// RFC 4180 fields in the tables Sphero writes: a field holding a comma, a
// quote or a line break is quoted and reads back as one field.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "text/csv_row.h"

namespace sphero {
namespace {

TEST(CsvRow, FieldsThatNeedQuotesGetThemAndOthersDoNot) {
  EXPECT_EQ(csv_field("hexagon"), "hexagon");
  EXPECT_EQ(csv_field("1.5e-3"), "1.5e-3");
  EXPECT_EQ(csv_field("grain,big"), "\"grain,big\"");
  EXPECT_EQ(csv_field("a \"cow\""), "\"a \"\"cow\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_row({"0", "a,b", ""}), "0,\"a,b\",");
}

TEST(CsvRow, EveryFieldReadsBackAsItWasWritten) {
  const std::vector<std::string> fields{"", "plain", "with,comma", "with \"quotes\"", "\"", ",", "", "x y"};
  const auto back = split_csv_row(csv_row(fields));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, fields);
  EXPECT_EQ(*split_csv_row(""), std::vector<std::string>{""});
  EXPECT_EQ(*split_csv_row("a,"), (std::vector<std::string>{"a", ""}));
  EXPECT_EQ(*split_csv_row(",,"), (std::vector<std::string>{"", "", ""}));
}

TEST(CsvRow, BrokenQuotesAreRefused) {
  EXPECT_FALSE(split_csv_row("\"open,b"));       // never closed
  EXPECT_FALSE(split_csv_row("\"closed\"x,b"));  // text after the closing quote
  EXPECT_FALSE(split_csv_row("a\"b,c"));         // a quote inside a bare field
}

}  // namespace
}  // namespace sphero
