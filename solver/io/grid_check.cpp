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

#include <cmath>
#include <stdexcept>
#include <string>

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

}  // namespace

void check_grid_structure(vtkUnstructuredGrid* grid, const std::string& source) {
  const vtkIdType points = grid->GetNumberOfPoints(), cells = grid->GetNumberOfCells();
  if (points > kMaxGridPoints || cells > kMaxGridCells)
    throw std::runtime_error(fmt::format(
        "{}: {} points and {} cells; the limits are {} and {}", source, points, cells, kMaxGridPoints, kMaxGridCells));
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < cells; ++c) {
    grid->GetCellPoints(c, ids);
    for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k)
      if (ids->GetId(k) < 0 || ids->GetId(k) >= points)
        throw std::runtime_error(
            fmt::format("{}: cell {} refers to point {}, but there are {} points; the file is "
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
    throw std::runtime_error(fmt::format(
        "{}: cell array '{}' has {} components, expected {}", source, name, a->GetNumberOfComponents(), components));
  return a;
}

int cell_int(vtkDataArray* array, vtkIdType c) {
  const double x = array->GetComponent(c, 0);
  return x > -2147483648.0 && x < 2147483648.0 ? static_cast<int>(x) : -1;
}

std::vector<Vec2> cell_points(vtkUnstructuredGrid* grid, vtkIdType c) {
  vtkNew<vtkIdList> ids;
  grid->GetCellPoints(c, ids);
  std::vector<Vec2> points;
  for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k) {
    double p[3];
    grid->GetPoint(ids->GetId(k), p);
    points.push_back({p[0], p[1]});
  }
  return points;
}

}  // namespace sphero
