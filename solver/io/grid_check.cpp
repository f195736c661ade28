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

#include <cctype>
#include <cmath>
#include <cstring>
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
  for (std::string chunk(1 << 16, '\0'); again.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) ||
                                           again.gcount() > 0;) {
    xml.append(chunk.data(), static_cast<std::size_t>(again.gcount()));
    if (const auto appended = xml.find("<AppendedData"); appended != std::string::npos) {
      xml.resize(appended);
      break;
    }
  }
  if (xml.find("format=\"ascii\"") != std::string::npos) check_ascii_arrays(xml, file.string());
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
