#include "io/vtu_preflight.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "io/vtu_appended_data.h"
#include "text/message_text.h"

namespace sphero {
namespace {

[[noreturn]] void refuse(const std::string& file, const std::string& what) {
  throw std::runtime_error(file + ": " + what);
}

// An attribute's value in an XML start tag, or "".
std::string attribute(std::string_view tag, std::string_view name) {
  std::string key(1, ' ');
  key.append(name).append("=\"");
  const auto at = tag.find(key);
  if (at == std::string_view::npos) return {};
  const auto end = tag.find('"', at + key.size());
  return end == std::string_view::npos ? std::string()
                                       : std::string(tag.substr(at + key.size(), end - at - key.size()));
}

std::optional<long long> whole_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long n = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE) return std::nullopt;
  return n;
}

bool starts_element(std::string_view tag, std::string_view name) {
  return tag.size() > name.size() + 1 && tag.substr(1, name.size()) == name &&
         (tag[name.size() + 1] == ' ' || tag[name.size() + 1] == '>' || tag[name.size() + 1] == '/');
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

std::size_t type_width(const std::string& type) {
  if (type == "Int8" || type == "UInt8" || type == "String") return 1;
  if (type == "Int16" || type == "UInt16") return 2;
  if (type == "Int32" || type == "UInt32" || type == "Float32") return 4;
  if (type == "Int64" || type == "UInt64" || type == "Float64") return 8;
  return 0;
}

// The file as read: its XML up to the appended data, and where the raw
// appended bytes begin.
struct VtuText {
  std::string bytes;
  std::string_view xml;
  std::optional<std::size_t> data_start;  // just after the '_' that opens the raw appended data
};

VtuText read_text(const std::filesystem::path& file) {
  VtuText text;
  if (std::filesystem::is_directory(file)) refuse(file.string(), "a folder, not a .vtu file");
  std::ifstream in(file, std::ios::binary);
  if (!in) refuse(file.string(), "cannot open the file");
  in.seekg(0, std::ios::end);
  text.bytes.resize(static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg())));
  in.seekg(0);
  in.read(text.bytes.data(), static_cast<std::streamsize>(text.bytes.size()));
  text.bytes.resize(static_cast<std::size_t>(in.gcount()));
  text.xml = text.bytes;
  if (const auto appended = text.bytes.find("<AppendedData"); appended != std::string::npos) {
    const auto tag_end = text.bytes.find('>', appended);
    if (tag_end == std::string::npos)
      refuse(file.string(), "the <AppendedData> tag is not closed; the file is damaged");
    if (attribute(std::string_view(text.bytes).substr(appended, tag_end - appended), "encoding") != "raw")
      refuse(file.string(),
             "appended data that is not raw; Sphero reads raw appended data (VTK's default for binary "
             "files)");
    // The raw data starts after '_', which only whitespace may precede.
    const auto underscore = text.bytes.find_first_not_of(" \t\r\n", tag_end + 1);
    if (underscore == std::string::npos || text.bytes[underscore] != '_')
      refuse(file.string(), "the appended data does not start with '_'; the file is damaged");
    text.data_start = underscore + 1;
    text.xml = std::string_view(text.bytes).substr(0, appended);
  }
  return text;
}

// The root element and the one piece: what VTK reads them as.
struct Root {
  bool wide_headers = false;
  std::string compressor;
  long long points = 0, cells = 0;
};

long long announced(std::string_view piece, const char* attribute_name, const char* what, long long limit,
                    const std::string& file) {
  const std::string text = attribute(piece, attribute_name);
  char* end = nullptr;
  const double n = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(n >= 0.0) || n > static_cast<double>(limit) || n != std::floor(n))
    refuse(file, fmt::format("announces {} {}; a Sphero file holds 0 to {} (damaged, or not one of Sphero's?)",
                             fit_for_message(text, 40), what, limit));
  return static_cast<long long>(n);
}

Root read_root(std::string_view xml, const std::string& file) {
  const auto root_at = xml.find("<VTKFile");
  if (root_at == std::string_view::npos) refuse(file, "not a readable .vtu file (no <VTKFile> header)");
  const auto root_end = xml.find('>', root_at);
  if (root_end == std::string_view::npos) refuse(file, "the <VTKFile> tag is not closed; the file is damaged");
  const std::string_view root = xml.substr(root_at, root_end - root_at + 1);
  if (attribute(root, "type") != "UnstructuredGrid")
    refuse(file, "not a readable .vtu file (not a VTK unstructured grid)");
  Root out;
  const std::string header_type = attribute(root, "header_type");
  if (!header_type.empty() && header_type != "UInt32" && header_type != "UInt64")
    refuse(file, "header_type '" + fit_for_message(header_type, 20) + "': VTK reads UInt32 or UInt64");
  out.wide_headers = header_type == "UInt64";
  out.compressor = attribute(root, "compressor");
  if (!out.compressor.empty() && out.compressor != "vtkZLibDataCompressor" &&
      out.compressor != "vtkLZ4DataCompressor" && out.compressor != "vtkLZMADataCompressor")
    refuse(file, "compressor '" + fit_for_message(out.compressor, 30) + "': not one VTK reads");
  if (const std::string order = attribute(root, "byte_order"); order != "LittleEndian")
    refuse(file, "byte_order '" + fit_for_message(order, 20) + "': Sphero reads LittleEndian files");
  const auto piece_at = xml.find("<Piece", root_end);
  if (piece_at == std::string_view::npos) refuse(file, "no <Piece> element; the file is damaged");
  if (xml.find("<Piece", piece_at + 1) != std::string_view::npos)
    refuse(file, "more than one <Piece>; Sphero reads one-piece files (as it and ParaView write them)");
  const std::string_view piece = xml.substr(piece_at, xml.find('>', piece_at) - piece_at);
  out.points = announced(piece, "NumberOfPoints", "points", kMaxGridPoints, file);
  out.cells = announced(piece, "NumberOfCells", "cells", kMaxGridCells, file);
  return out;
}

// One array as its tag declares it, and its values once decoded.
struct ArrayTag {
  std::string section, name, type, format;
  long long components = 1, tuples = -1, offset = -1;
  std::string_view ascii;  // the text between the tags of an ASCII array
};

ArrayTag array_tag(std::string_view tag, const std::string& section, const std::string& file) {
  ArrayTag a;
  a.section = section;
  a.name = attribute(tag, "Name");
  a.type = attribute(tag, "type");
  a.format = attribute(tag, "format");
  const std::string components = attribute(tag, "NumberOfComponents");
  a.components = components.empty() ? 1 : whole_number(components).value_or(-1);
  a.tuples = whole_number(attribute(tag, "NumberOfTuples")).value_or(-1);
  a.offset = whole_number(attribute(tag, "offset")).value_or(-1);
  if (type_width(a.type) == 0 || a.components < 1 || a.components > 64 ||
      (a.format != "ascii" && a.format != "binary" && a.format != "appended"))
    refuse(file, fmt::format("an array with type '{}', {} components, format '{}': not one VTK reads; the file is "
                             "damaged",
                             fit_for_message(a.type, 20), a.components, fit_for_message(a.format, 20)));
  if (a.format == "binary") refuse(file, "inline binary (base64) arrays; Sphero reads ASCII or raw appended data");
  return a;
}

// The text of an ASCII array without the elements nested in it (ParaView
// writes an InformationKey there).
std::string_view without_nested_elements(std::string_view text, std::string& scratch) {
  const auto first = text.find('<');
  if (first == std::string_view::npos) return text;
  scratch.assign(text.substr(0, first)).append(" ").append(text.substr(text.rfind('>') + 1));
  return scratch;
}

// Every array tag, in the section it lies in. VTK's reader takes every
// element inside a data section for an array, whatever its name, so any
// other element there is refused.
std::vector<ArrayTag> array_tags(std::string_view xml, std::deque<std::string>& ascii_texts, const std::string& file) {
  static const std::array<std::string_view, 5> sections{"Points", "Cells", "CellData", "PointData", "FieldData"};
  std::vector<ArrayTag> out;
  std::string section;
  for (std::size_t at = xml.find('<'); at != std::string_view::npos; at = xml.find('<', at + 1)) {
    const auto close = xml.find('>', at);
    if (close == std::string_view::npos) refuse(file, "a tag is not closed; the file is damaged");
    const std::string_view tag = xml.substr(at, close - at + 1);
    if (tag.starts_with("<!") || tag.starts_with("<?")) continue;
    if (tag.starts_with("</")) {
      for (std::string_view s : sections)
        if (tag.substr(2, s.size()) == s && tag.size() == s.size() + 3) section.clear();
      continue;
    }
    if (const auto s =
            std::find_if(sections.begin(), sections.end(), [&](auto name) { return starts_element(tag, name); });
        s != sections.end() && section.empty()) {
      section = tag.ends_with("/>") ? std::string() : std::string(*s);
      continue;
    }
    const bool data_array = starts_element(tag, "DataArray");
    if (!data_array && !starts_element(tag, "Array")) {
      if (!section.empty())
        refuse(file, fmt::format("an element '{}' among the {} arrays; the file is damaged",
                                 fit_for_message(tag.substr(0, tag.find(' ')), 30), section));
      continue;
    }
    if (section.empty())
      refuse(file, "an array outside Points, Cells, CellData, PointData or FieldData; the file is damaged");
    ArrayTag a = array_tag(tag, section, file);
    // VTK finds a data section's arrays by name: one name, one array.
    if (section == "CellData" || section == "PointData" || section == "FieldData") {
      if (a.name.empty()) refuse(file, fmt::format("an unnamed {} array; the file is damaged", section));
      for (const ArrayTag& earlier : out)
        if (earlier.section == section && earlier.name == a.name)
          refuse(
              file, fmt::format("two {} arrays named '{}'; the file is damaged", section, fit_for_message(a.name, 30)));
    }
    if (!tag.ends_with("/>")) {
      const auto end = xml.find(data_array ? "</DataArray>" : "</Array>", close);
      if (end == std::string_view::npos) refuse(file, "a DataArray is not closed; the file is damaged");
      if (a.format == "ascii")
        a.ascii = without_nested_elements(xml.substr(close + 1, end - close - 1), ascii_texts.emplace_back());
      at = end;
    }
    out.push_back(a);
  }
  return out;
}

// An array's values, decoded: appended bytes, or ASCII words.
struct Values {
  const ArrayTag* tag = nullptr;
  std::vector<unsigned char> bytes;     // appended
  std::vector<std::string_view> words;  // ascii

  std::uint64_t count() const {
    if (tag->format == "ascii") return words.size();
    if (tag->type == "String") return static_cast<std::uint64_t>(std::count(bytes.begin(), bytes.end(), 0));
    return bytes.size() / type_width(tag->type);
  }
  // The k-th value as a whole number; nullopt when it is not one.
  std::optional<long long> whole(std::uint64_t k) const {
    if (tag->format == "ascii") return whole_number(std::string(words[k]));
    const unsigned char* p = bytes.data() + k * type_width(tag->type);
    const auto as = [p]<typename T>(T) {
      T v;
      std::memcpy(&v, p, sizeof v);
      return v;
    };
    const std::string& t = tag->type;
    if (t == "Int8") return as(std::int8_t{});
    if (t == "UInt8") return as(std::uint8_t{});
    if (t == "Int16") return as(std::int16_t{});
    if (t == "UInt16") return as(std::uint16_t{});
    if (t == "Int32") return as(std::int32_t{});
    if (t == "UInt32") return as(std::uint32_t{});
    if (t == "Int64") return as(std::int64_t{});
    if (t == "UInt64") {
      const std::uint64_t v = as(std::uint64_t{});
      if (v > static_cast<std::uint64_t>(std::numeric_limits<long long>::max())) return std::nullopt;
      return static_cast<long long>(v);
    }
    return std::nullopt;  // floating point: not an index
  }
};

// A string array holds one '\0' after each string; VTK reads on past the
// last one it finds.
void check_strings(const Values& v, std::uint64_t expected, const std::string& file) {
  const bool terminated =
      v.tag->format == "ascii" ? (v.words.empty() || v.words.back() == "0") : (v.bytes.empty() || v.bytes.back() == 0);
  std::uint64_t strings = 0;
  if (v.tag->format == "ascii") {
    for (std::string_view w : v.words) {
      const auto c = whole_number(std::string(w));
      if (!c || *c < 0 || *c > 255)
        refuse(file, fmt::format("the string array '{}' holds '{}', not a character code; the file is damaged",
                                 fit_for_message(v.tag->name, 30), fit_for_message(std::string(w), 30)));
      strings += *c == 0;
    }
  } else {
    strings = v.count();
  }
  if (strings != expected || !terminated)
    refuse(file, fmt::format("the {} string array '{}' holds {} strings, not the {} its place needs; the file is "
                             "damaged",
                             v.tag->section, fit_for_message(v.tag->name, 30), strings, expected));
}

// How many values an array's place needs; -1 when the offsets decide it.
long long expected_values(const ArrayTag& a, const Root& root, const std::string& file) {
  if (a.section == "Points") {
    if (a.components != 3)
      refuse(file, fmt::format("the points have {} components; VTK's points have 3", a.components));
    return root.points * 3;
  }
  if (a.section == "PointData") return root.points * a.components;
  if (a.section == "CellData") return root.cells * a.components;
  if (a.section == "FieldData") {
    if (a.tuples < 0 || a.tuples > kMaxGridCells)
      refuse(file, fmt::format("the field array '{}' has no valid NumberOfTuples; the file is damaged",
                               fit_for_message(a.name, 30)));
    return a.tuples * a.components;
  }
  if (a.components != 1)
    refuse(file, fmt::format("the cells' '{}' has {} components; it has 1", fit_for_message(a.name, 30), a.components));
  if (a.name == "offsets" || a.name == "types") return root.cells;
  if (a.name == "connectivity") return -1;
  refuse(file, fmt::format("a Cells array named '{}'; Sphero reads connectivity, offsets and types (no polyhedra)",
                           fit_for_message(a.name, 30)));
}

void check_count(const Values& v, long long expected, const std::string& file) {
  if (v.tag->type == "String") return check_strings(v, static_cast<std::uint64_t>(expected), file);
  const bool whole_bytes = v.tag->format == "ascii" || v.bytes.size() % type_width(v.tag->type) == 0;
  if (!whole_bytes || v.count() != static_cast<std::uint64_t>(expected)) {
    const bool per_point = v.tag->section == "Points" || v.tag->section == "PointData";
    refuse(file, fmt::format("the {} array '{}' holds {} values, not the {} its {} need; the file is damaged",
                             v.tag->section, v.tag->name, v.count(), expected, per_point ? "points" : "cells"));
  }
}

// Offsets that never fall back and end at the connectivity's length,
// connectivity within the points, and cell types VTK reads without more.
void check_cells(const Values* offsets, const Values* connectivity, const Values* types, const Root& root,
                 const std::string& file) {
  if (root.cells == 0) return;
  if (offsets == nullptr || connectivity == nullptr || types == nullptr)
    refuse(file, "cells without their connectivity, offsets and types; the file is damaged");
  check_count(*offsets, root.cells, file);
  check_count(*types, root.cells, file);
  long long previous = 0;
  for (long long c = 0; c < root.cells; ++c) {
    const auto end = offsets->whole(static_cast<std::uint64_t>(c));
    if (!end) refuse(file, fmt::format("cell {}'s offset is not a whole number; the file is damaged", c));
    if (*end < previous)
      refuse(file, fmt::format("cell {}'s offset is {}, before the previous cell's end {}; the file is damaged", c,
                               *end, previous));
    previous = *end;
  }
  check_count(*connectivity, previous, file);
  for (long long k = 0; k < previous; ++k) {
    const auto point = connectivity->whole(static_cast<std::uint64_t>(k));
    if (!point || *point < 0 || *point >= root.points) {
      long long cell = 0;  // the first whose end lies past k
      while (cell + 1 < root.cells && *offsets->whole(static_cast<std::uint64_t>(cell)) <= k) ++cell;
      refuse(file, fmt::format("cell {} refers to point {}, but there are {} points; the file is damaged", cell,
                               point ? fmt::to_string(*point) : std::string("(not a whole number)"), root.points));
    }
  }
  for (long long c = 0; c < root.cells; ++c) {
    const auto type = types->whole(static_cast<std::uint64_t>(c));
    if (!type || *type < 0 || *type > 16)  // VTK's linear cells, from the empty cell to the pentagonal prism
      refuse(file, fmt::format("cell {} has type {}; Sphero reads VTK's linear cells (types 0 to 16)", c,
                               type ? fmt::to_string(*type) : std::string("(not a whole number)")));
  }
}

}  // namespace

void check_vtu_before_reading(const std::filesystem::path& path) {
  const std::string file = path.string();
  const VtuText text = read_text(path);
  const Root root = read_root(text.xml, file);
  std::deque<std::string> ascii_texts;  // stable storage for the ASCII arrays' texts
  const std::vector<ArrayTag> tags = array_tags(text.xml, ascii_texts, file);
  const AppendedData appended(text.bytes, text.data_start, root.wide_headers, root.compressor, file);
  std::vector<Values> cells_arrays;
  cells_arrays.reserve(3);
  bool have_points = false;
  for (const ArrayTag& a : tags) {
    Values v{&a, {}, {}};
    if (a.format == "appended") v.bytes = appended.decode(a.offset, a.name);
    else v.words = words(a.ascii);
    const long long expected = expected_values(a, root, file);
    have_points = have_points || a.section == "Points";
    if (a.section == "Cells") cells_arrays.push_back(std::move(v));
    else check_count(v, expected, file);
  }
  if (root.points > 0 && !have_points) refuse(file, "points without a Points array; the file is damaged");
  const auto named = [&](const char* name) -> const Values* {
    for (const Values& v : cells_arrays)
      if (v.tag->name == name) return &v;
    return nullptr;
  };
  check_cells(named("offsets"), named("connectivity"), named("types"), root, file);
}

}  // namespace sphero
