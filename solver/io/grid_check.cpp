#include "io/grid_check.h"

#include <fmt/format.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <iterator>
#include <string_view>
#include <vector>
#include <fstream>
#include <regex>
#include <stdexcept>

namespace sphero {
namespace {

void check_lengths(vtkFieldData* arrays, vtkIdType expected, const char* per, const std::string& source) {
  for (int k = 0; k < arrays->GetNumberOfArrays(); ++k) {
    vtkAbstractArray* a = arrays->GetAbstractArray(k);
    if (a != nullptr && a->GetNumberOfTuples() != expected)
      throw std::runtime_error(fmt::format("{}: array '{}' has {} values for {} {}s; the file is damaged", source,
                                           a->GetName() ? a->GetName() : "(unnamed)", a->GetNumberOfTuples(), expected,
                                           per));
  }
}

// An attribute's value in an XML start tag, or "".
std::string attribute(std::string_view tag, std::string_view name) {
  const std::string key = " " + std::string(name) + "=\"";
  const auto at = tag.find(key);
  if (at == std::string_view::npos) return {};
  const auto end = tag.find('"', at + key.size());
  return end == std::string_view::npos ? std::string() : std::string(tag.substr(at + key.size(), end - at - key.size()));
}

long long whole(const std::string& text, long long otherwise) {
  char* end = nullptr;
  const long long n = std::strtoll(text.c_str(), &end, 10);
  return text.empty() || *end != '\0' ? otherwise : n;
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

// VTK's XML reader reads past an inline ASCII array that holds fewer numbers
// than its place needs (and crashes): count them first. Sphero writes
// appended binary, whose sizes VTK checks; ASCII comes from other tools.
struct AsciiArray {
  std::string section, name;
  long long components = 1, tuples_attribute = -1, values = 0, last = -1;
};

std::vector<AsciiArray> ascii_arrays(const std::string& xml, long long& points, long long& cells,
                                     const std::string& file) {
  std::vector<AsciiArray> arrays;
  std::string section;
  for (std::size_t at = xml.find('<'); at != std::string::npos; at = xml.find('<', at + 1)) {
    const auto close = xml.find('>', at);
    if (close == std::string::npos) break;
    const std::string_view tag(xml.data() + at, close - at + 1);
    if (tag.starts_with("<Piece"))
      points = whole(attribute(tag, "NumberOfPoints"), -1), cells = whole(attribute(tag, "NumberOfCells"), -1);
    for (const char* s : {"Points", "Cells", "CellData", "PointData", "FieldData"})
      if (tag.starts_with(std::string("<") + s) && (tag.size() == std::strlen(s) + 2 || tag[std::strlen(s) + 1] == ' '))
        section = s;
    if (!tag.starts_with("<DataArray") || attribute(tag, "format") != "ascii" || attribute(tag, "type") == "String")
      continue;
    const auto end = xml.find("</DataArray>", close);
    if (end == std::string::npos) throw std::runtime_error(file + ": a DataArray is not closed; the file is damaged");
    const auto values = words(std::string_view(xml).substr(close + 1, end - close - 1));
    arrays.push_back({section, attribute(tag, "Name"), whole(attribute(tag, "NumberOfComponents"), 1),
                      whole(attribute(tag, "NumberOfTuples"), -1), static_cast<long long>(values.size()),
                      values.empty() ? -1 : whole(std::string(values.back()), -1)});
  }
  return arrays;
}

void check_ascii_arrays(const std::string& xml, const std::string& file) {
  long long points = -1, cells = -1;
  const std::vector<AsciiArray> arrays = ascii_arrays(xml, points, cells, file);
  long long connectivity = -1;  // the last offset: how many point ids the cells hold
  for (const AsciiArray& a : arrays)
    if (a.section == "Cells" && a.name == "offsets") connectivity = a.last;
  for (const AsciiArray& a : arrays) {
    const bool per_point = a.section == "Points" || a.section == "PointData";
    long long expected = per_point ? points * a.components : cells * a.components;
    if (a.section == "FieldData") expected = a.tuples_attribute * a.components;
    if (a.section == "Cells" && a.name == "connectivity") expected = connectivity;
    if (expected >= 0 && a.values != expected)
      throw std::runtime_error(fmt::format("{}: the {} array '{}' holds {} values, not the {} its {} need; the file is "
                                           "damaged",
                                           file, a.section, a.name, a.values, expected,
                                           per_point ? "points" : "cells"));
  }
}

// VTK's reader makes no array for a type it does not know and then uses it:
// every array's type, width and format must be one it reads.
void check_array_tags(const std::string& xml, const std::string& file) {
  static const std::vector<std::string> types{"Int8",  "UInt8",  "Int16",   "UInt16",  "Int32", "UInt32",
                                              "Int64", "UInt64", "Float32", "Float64", "String"};
  for (std::size_t at = std::min(xml.find("<DataArray"), xml.find("<Array")); at != std::string::npos;) {
    const auto close = xml.find('>', at);
    if (close == std::string::npos) throw std::runtime_error(file + ": an array tag is not closed; the file is damaged");
    const std::string_view tag(xml.data() + at, close - at + 1);
    const std::string type = attribute(tag, "type"), format = attribute(tag, "format");
    const long long components = whole(attribute(tag, "NumberOfComponents"), attribute(tag, "NumberOfComponents").empty() ? 1 : -1);
    if (std::find(types.begin(), types.end(), type) == types.end() || components < 1 || components > 64 ||
        (format != "ascii" && format != "binary" && format != "appended"))
      throw std::runtime_error(fmt::format("{}: an array with type '{}', {} components, format '{}': not one VTK "
                                           "reads; the file is damaged",
                                           file, type.substr(0, 20), components, format.substr(0, 20)));
    const auto next_data = xml.find("<DataArray", close), next_array = xml.find("<Array", close);
    at = std::min(next_data, next_array);
  }
}

// VTK's reader trusts the block headers of appended binary data: a damaged
// count allocates gigabytes, a damaged size reads past the file. Check each
// array's header against the bytes the file holds first.
void check_appended_blocks(const std::filesystem::path& file, const std::string& xml, std::size_t data_start) {
  const auto root_at = xml.find("<VTKFile");
  const auto root_end = root_at == std::string::npos ? root_at : xml.find('>', root_at);
  if (root_end == std::string::npos)
    throw std::runtime_error(file.string() + ": no <VTKFile ...> element before the data; the file is damaged");
  const std::string_view root(xml.data() + root_at, root_end - root_at + 1);
  const std::string header_type = attribute(root, "header_type"), compressor = attribute(root, "compressor");
  if (!header_type.empty() && header_type != "UInt32" && header_type != "UInt64")
    throw std::runtime_error(file.string() + ": header_type '" + header_type.substr(0, 20) + "': VTK reads UInt32 or UInt64");
  if (!compressor.empty() && compressor != "vtkZLibDataCompressor" && compressor != "vtkLZ4DataCompressor" &&
      compressor != "vtkLZMADataCompressor")
    throw std::runtime_error(file.string() + ": compressor '" + compressor.substr(0, 30) + "': not one VTK reads");
  if (const std::string order = attribute(root, "byte_order"); order != "LittleEndian")
    throw std::runtime_error(file.string() + ": byte_order '" + order.substr(0, 20) + "': Sphero reads LittleEndian files");
  const bool wide = header_type == "UInt64";
  const bool compressed = !compressor.empty();
  const std::uint64_t word = wide ? 8 : 4;
  std::ifstream in(file, std::ios::binary);
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::uint64_t>(in.tellg());
  const auto read_word = [&](std::uint64_t at) -> std::uint64_t {
    if (at + word > size) throw std::runtime_error(file.string() + ": an appended array's header lies past the end of the file; the file is damaged");
    in.seekg(static_cast<std::streamoff>(at));
    std::uint64_t v = 0;
    in.read(reinterpret_cast<char*>(&v), static_cast<std::streamsize>(word));
    return v;
  };
  constexpr std::uint64_t kLargestArray = std::uint64_t{1} << 33;  // 8 GiB: 10^8 points' coordinates and more
  for (std::size_t at = xml.find("format=\"appended\""); at != std::string::npos; at = xml.find("format=\"appended\"", at + 1)) {
    const auto open = xml.rfind('<', at), close = xml.find('>', at);
    const std::string_view tag(xml.data() + open, close - open + 1);
    const long long offset = whole(attribute(tag, "offset"), -1);
    if (offset < 0) throw std::runtime_error(file.string() + ": an appended array without a valid offset; the file is damaged");
    const std::uint64_t start = data_start + static_cast<std::uint64_t>(offset);
    std::uint64_t stored = 0, header = word, decoded = 0;
    if (compressed) {
      const std::uint64_t blocks = read_word(start), block = read_word(start + word), last = read_word(start + 2 * word);
      if (blocks > (size - std::min(size, start)) / word || block > kLargestArray || last > block ||
          (blocks > 0 && block == 0) ||
          (blocks > 0 && (blocks - 1) * block + last > kLargestArray))
        throw std::runtime_error(file.string() + ": an appended array's block header is impossible; the file is damaged");
      header = (3 + blocks) * word;
      for (std::uint64_t b = 0; b < blocks; ++b) stored += read_word(start + (3 + b) * word);
      decoded = blocks == 0 ? 0 : (blocks - 1) * block + last;
    } else {
      stored = decoded = read_word(start);
    }
    if (decoded > kLargestArray || start + header + stored > size)
      throw std::runtime_error(fmt::format("{}: an appended array claims {} bytes past its place; the file is damaged",
                                           file.string(), stored));
  }
}

}  // namespace

void check_vtu_header(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.find("<VTKFile") == std::string::npos)
    throw std::runtime_error(file.string() + ": not a readable .vtu file (no <VTKFile> header)");
  if (head.find("type=\"UnstructuredGrid\"") == std::string::npos)
    throw std::runtime_error(file.string() + ": not a readable .vtu file (not a VTK unstructured grid)");
  static const std::regex count(R"(Number(OfPoints|OfCells)\s*=\s*"([^"]*)\")");
  for (auto m = std::sregex_iterator(head.begin(), head.end(), count); m != std::sregex_iterator(); ++m) {
    const std::string what = (*m)[1] == "OfPoints" ? "points" : "cells";
    const std::string text = (*m)[2];
    const vtkIdType limit = what == "points" ? kMaxGridPoints : kMaxGridCells;
    char* end = nullptr;
    const double n = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !(n >= 0.0) || n > static_cast<double>(limit))
      throw std::runtime_error(fmt::format("{}: announces {} {}; a Sphero file holds 0 to {} (damaged, or not one "
                                           "of Sphero's?)",
                                           file.string(), text.size() > 40 ? text.substr(0, 40) + "..." : text, what,
                                           limit));
  }
  // The XML up to the appended binary data (all of a file without any).
  std::ifstream again(file, std::ios::binary);
  std::string xml;
  std::optional<std::size_t> data_start;  // just after the '_' that opens the raw appended data
  for (std::string chunk(1 << 16, '\0'); again.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) ||
                                           again.gcount() > 0;) {
    xml.append(chunk.data(), static_cast<std::size_t>(again.gcount()));
    if (const auto appended = xml.find("<AppendedData"); appended != std::string::npos) {
      // The raw data starts after '_', which only whitespace may precede.
      const auto tag_end = xml.find('>', appended);
      const auto underscore = tag_end == std::string::npos ? tag_end : xml.find_first_not_of(" \t\r\n", tag_end + 1);
      if (underscore == std::string::npos && again) continue;  // read on to the marker
      if (underscore != std::string::npos && xml[underscore] != '_')
        throw std::runtime_error(file.string() + ": the appended data does not start with '_'; the file is damaged");
      if (attribute(std::string_view(xml).substr(appended, xml.find('>', appended) - appended), "encoding") != "raw")
        throw std::runtime_error(file.string() + ": appended data that is not raw; Sphero reads raw appended data "
                                                 "(VTK's default for binary files)");
      if (underscore != std::string::npos) data_start = underscore + 1;
      xml.resize(appended);
      break;
    }
  }
  check_array_tags(xml, file.string());
  if (xml.find("format=\"ascii\"") != std::string::npos) check_ascii_arrays(xml, file.string());
  if (xml.find("format=\"binary\"") != std::string::npos)
    throw std::runtime_error(file.string() + ": inline binary (base64) arrays; Sphero reads ASCII or raw appended data");
  if (xml.find("format=\"appended\"") != std::string::npos) {
    if (!data_start) throw std::runtime_error(file.string() + ": appended arrays without appended data; the file is damaged");
    check_appended_blocks(file, xml, *data_start);
  }
}

void check_grid_structure(vtkUnstructuredGrid* grid, const std::string& source) {
  const vtkIdType points = grid->GetNumberOfPoints(), cells = grid->GetNumberOfCells();
  if (points > kMaxGridPoints || cells > kMaxGridCells)
    throw std::runtime_error(fmt::format("{}: {} points and {} cells; the limits are {} and {}", source, points, cells,
                                         kMaxGridPoints, kMaxGridCells));
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < cells; ++c) {
    grid->GetCellPoints(c, ids);
    for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k)
      if (ids->GetId(k) < 0 || ids->GetId(k) >= points)
        throw std::runtime_error(fmt::format("{}: cell {} refers to point {}, but there are {} points; the file is "
                                             "damaged",
                                             source, c, ids->GetId(k), points));
  }
  for (vtkIdType p = 0; p < points; ++p) {
    double x[3];
    grid->GetPoint(p, x);
    if (!std::isfinite(x[0]) || !std::isfinite(x[1]) || !std::isfinite(x[2]))
      throw std::runtime_error(fmt::format("{}: point {} is not finite; the file is damaged", source, p));
  }
  check_lengths(grid->GetCellData(), cells, "cell", source);
  check_lengths(grid->GetPointData(), points, "point", source);
}

void check_cell_sizes(vtkUnstructuredGrid* grid, vtkIdType fewest, vtkIdType most, const std::string& source,
                      const char* what) {
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
    grid->GetCellPoints(c, ids);
    if (ids->GetNumberOfIds() < fewest || ids->GetNumberOfIds() > most)
      throw std::runtime_error(fmt::format("{}: {} {} has {} points, expected {} to {}; the file is damaged", source,
                                           what, c, ids->GetNumberOfIds(), fewest, most));
  }
}

vtkDataArray* cell_array(vtkUnstructuredGrid* grid, const char* name, int components, bool required,
                         const std::string& source) {
  vtkDataArray* a = grid->GetCellData()->GetArray(name);
  if (a == nullptr && grid->GetCellData()->GetAbstractArray(name) != nullptr)
    throw std::runtime_error(fmt::format("{}: cell array '{}' is not numeric", source, name));
  if (a == nullptr) {
    if (required) throw std::runtime_error(fmt::format("{}: no cell array '{}'", source, name));
    return nullptr;
  }
  if (a->GetNumberOfComponents() != components)
    throw std::runtime_error(fmt::format("{}: cell array '{}' has {} components, expected {}", source, name,
                                         a->GetNumberOfComponents(), components));
  return a;
}

}  // namespace sphero
