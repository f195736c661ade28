#include "text/csv_row.h"

namespace sphero {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string row;
  for (std::size_t k = 0; k < fields.size(); ++k) row += (k > 0 ? "," : "") + csv_field(fields[k]);
  return row;
}

std::optional<std::vector<std::string>> split_csv_row(std::string_view line) {
  std::vector<std::string> fields(1);
  std::size_t at = 0;
  while (at <= line.size()) {
    std::string& field = fields.back();
    if (at < line.size() && line[at] == '"' && field.empty()) {
      // A quoted field: up to the quote that is not doubled.
      for (++at;; ++at) {
        if (at >= line.size()) return std::nullopt;
        if (line[at] != '"') {
          field += line[at];
        } else if (at + 1 < line.size() && line[at + 1] == '"') {
          field += '"', ++at;
        } else {
          ++at;
          break;
        }
      }
      if (at < line.size() && line[at] != ',') return std::nullopt;
    } else {
      const std::size_t comma = line.find(',', at);
      const std::string_view bare = line.substr(at, comma == std::string_view::npos ? line.size() - at : comma - at);
      if (bare.find('"') != std::string_view::npos) return std::nullopt;
      field += bare;
      at += bare.size();
    }
    if (at >= line.size()) break;
    ++at;  // the comma
    fields.emplace_back();
    if (at == line.size()) break;  // a last, empty field
  }
  return fields;
}

}  // namespace sphero
