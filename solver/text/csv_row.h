// The rows of the CSV tables Sphero writes and reads, as RFC 4180 has them:
// a field holding a comma, a quote or a line break is quoted, its quotes
// doubled, so that a shape named "a,b" stays one column.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sphero {

// The field as a row holds it: quoted where it must be, as it is otherwise.
std::string csv_field(std::string_view text);

// Fields joined into a row (without its line break).
std::string csv_row(const std::vector<std::string>& fields);

// The fields of one line, quoted ones unquoted; nothing where a quote is
// left open or stray text follows a closing quote (a table Sphero wrote
// has neither: its fields hold no line breaks).
std::optional<std::vector<std::string>> split_csv_row(std::string_view line);

}  // namespace sphero
