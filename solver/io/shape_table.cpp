#include "io/shape_table.h"

#include <fmt/format.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>

#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "io/grid_check.h"
#include "io/vtu_file.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

template <typename T>
void append_bits(std::string& key, const T& value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  key.append(bytes, sizeof(T));
}

}  // namespace

std::string shape_key(const Shape& s) {
  std::string key = s.name;
  key.push_back('\0');
  append_bits(key, static_cast<int>(s.kind));
  append_bits(key, s.radius);
  for (const Vec2 v : s.vertices) append_bits(key, v.x), append_bits(key, v.y);
  return key;
}

namespace {

int cell_type(SkeletonKind kind) {
  switch (kind) {
    case SkeletonKind::point:
      return VTK_VERTEX;
    case SkeletonKind::segment:
      return VTK_LINE;
    case SkeletonKind::polyline:
      return VTK_POLY_LINE;
    case SkeletonKind::polygon:
      return VTK_POLYGON;
  }
  return VTK_EMPTY_CELL;
}

// The kind a cell of the table holds, or throws naming its row.
SkeletonKind kind_of_cell(int type, vtkIdType points, const std::string& where) {
  if (type == VTK_VERTEX && points == 1) return SkeletonKind::point;
  if (type == VTK_LINE && points == 2) return SkeletonKind::segment;
  if (type == VTK_POLY_LINE && points >= 2) return points == 2 ? SkeletonKind::segment : SkeletonKind::polyline;
  if (type == VTK_POLYGON && points >= 3) return SkeletonKind::polygon;
  throw std::runtime_error(where +
                           ": a skeleton must be a vertex, a line, a poly-line or a polygon of 3 points or more");
}

}  // namespace

ShapeTable::ShapeTable(std::vector<ShapeRow> rows) : rows_(std::move(rows)) {
  // Rows keep their numbers as read, a repeated shape included.
  for (std::size_t k = 0; k < rows_.size(); ++k)
    row_of_key_.try_emplace(shape_key(rows_[k].shape), static_cast<int>(k));
}

int ShapeTable::add(ShapeRow row) {
  const auto [at, is_new] = row_of_key_.try_emplace(shape_key(row.shape), static_cast<int>(rows_.size()));
  if (is_new) rows_.push_back(std::move(row));
  return at->second;
}

int ShapeTable::row_of(const World& w, std::size_t body) { return row_of(body_shape(w, body)); }

int ShapeTable::row_of(Shape shape) {
  if (const int found = find(shape); found >= 0) return found;
  const MassProperties m = mass_properties(shape);
  return add({std::move(shape), m.area, m.polar_moment});
}

int ShapeTable::find(const Shape& shape) const {
  const auto found = row_of_key_.find(shape_key(shape));
  return found == row_of_key_.end() ? -1 : found->second;
}

void write_shape_table(const std::filesystem::path& path, const ShapeTable& table) {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();  // the skeletons exactly
  vtkNew<vtkStringArray> name;
  name->SetName("name");
  auto row = named_ints("row", 1);
  auto radius = named_doubles("sphero_radius", 1), area = named_doubles("area", 1),
       moment = named_doubles("polar_moment", 1);
  for (std::size_t k = 0; k < table.size(); ++k) {
    const ShapeRow& r = table.rows()[k];
    std::vector<vtkIdType> ids;
    for (const Vec2 v : r.shape.vertices) ids.push_back(points->InsertNextPoint(v.x, v.y, 0.0));
    grid->InsertNextCell(cell_type(r.shape.kind), static_cast<vtkIdType>(ids.size()), ids.data());
    name->InsertNextValue(r.shape.name);
    row->InsertNextValue(static_cast<int>(k));
    radius->InsertNextValue(r.shape.radius);
    area->InsertNextValue(r.area);
    moment->InsertNextValue(r.polar_moment);
  }
  grid->SetPoints(points);
  for (vtkAbstractArray* a : std::initializer_list<vtkAbstractArray*>{name, row, radius, area, moment})
    grid->GetCellData()->AddArray(a);
  auto format = named_ints("sphero_shape_table_format", 1);
  format->InsertNextValue(kShapeTableFormat);
  grid->GetFieldData()->AddArray(format);
  write_vtu_atomically(path, grid);
}

ShapeTable read_shape_table(const std::filesystem::path& path) {
  const std::string source = path.string();
  if (!std::filesystem::exists(path))
    throw std::runtime_error(source + ": missing; the run's state frames name their shapes in it (copy it with them)");
  const vtkSmartPointer<vtkUnstructuredGrid> grid = read_vtu(path);
  vtkDataArray* format = grid->GetFieldData()->GetArray("sphero_shape_table_format");
  if (format == nullptr || format->GetNumberOfTuples() != 1 ||
      !(format->GetTuple1(0) >= 1 && format->GetTuple1(0) <= kShapeTableFormat))
    throw std::runtime_error(
        fmt::format("{}: not a shape table of format 1 to {} (no sphero_shape_table_format); a newer Sphero wrote it?",
                    source, kShapeTableFormat));
  check_cell_sizes(grid, 1, static_cast<vtkIdType>(kMaxSkeletonVertices), source, "skeleton");
  auto* name = vtkStringArray::SafeDownCast(grid->GetCellData()->GetAbstractArray("name"));
  if (name == nullptr || name->GetNumberOfValues() != grid->GetNumberOfCells())
    throw std::runtime_error(source + ": no cell array 'name' with one name per shape; the file is damaged");
  vtkDataArray *row = cell_array(grid, "row", 1, true, source),
               *radius = cell_array(grid, "sphero_radius", 1, true, source),
               *area = cell_array(grid, "area", 1, true, source),
               *moment = cell_array(grid, "polar_moment", 1, true, source);
  std::vector<ShapeRow> rows;
  for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
    const std::string where = fmt::format("{}: shape row {}", source, c);
    if (cell_int(row, c) != c)
      throw std::runtime_error(where + ": holds row number " + std::to_string(cell_int(row, c)) +
                               "; rows must be numbered 0, 1, 2, ... in order; the file is damaged");
    std::vector<Vec2> skeleton = cell_points(grid, c);
    const SkeletonKind kind = kind_of_cell(grid->GetCellType(c), static_cast<vtkIdType>(skeleton.size()), where);
    ShapeRow r;
    try {
      r.shape = make_shape(name->GetValue(c), kind, std::move(skeleton), radius->GetTuple1(c));
    } catch (const ShapeError& e) {
      throw std::runtime_error(fmt::format("{}: {}", where, e.what()));
    }
    r.area = area->GetTuple1(c);
    r.polar_moment = moment->GetTuple1(c);
    if (!(r.area > 0.0 && std::isfinite(r.area) && r.polar_moment > 0.0 && std::isfinite(r.polar_moment)))
      throw std::runtime_error(fmt::format(
          "{}: area {:g} and polar moment {:g} must be positive and finite", where, r.area, r.polar_moment));
    rows.push_back(std::move(r));
  }
  return ShapeTable(std::move(rows));
}

std::shared_ptr<const ShapeTable> shared_shape_table(const std::filesystem::path& path) {
  static std::mutex mutex;
  using Stamp = std::tuple<std::uintmax_t, std::filesystem::file_time_type>;
  static std::map<std::string, std::pair<Stamp, std::shared_ptr<const ShapeTable>>> known;
  std::error_code error;
  const Stamp stamp{std::filesystem::file_size(path, error), std::filesystem::last_write_time(path, error)};
  const std::string key = std::filesystem::absolute(path).lexically_normal().string();
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto found = known.find(key); !error && found != known.end() && found->second.first == stamp)
      return found->second.second;
  }
  auto table = std::make_shared<const ShapeTable>(read_shape_table(path));
  const std::lock_guard<std::mutex> lock(mutex);
  if (!error) known[key] = {stamp, table};
  return table;
}

}  // namespace sphero
