#include "io/single_precision.h"

#include <fmt/format.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace sphero {
namespace {

vtkNew<vtkFloatArray> as_floats(vtkDataArray* doubles) {
  vtkNew<vtkFloatArray> floats;
  floats->SetName(doubles->GetName());
  floats->SetNumberOfComponents(doubles->GetNumberOfComponents());
  floats->SetNumberOfTuples(doubles->GetNumberOfTuples());
  const vtkIdType values = doubles->GetNumberOfValues();
  auto* from = vtkDoubleArray::SafeDownCast(doubles);
  for (vtkIdType k = 0; k < values; ++k) floats->SetValue(k, static_cast<float>(from->GetValue(k)));
  return floats;
}

}  // namespace

void to_single_precision(vtkUnstructuredGrid* grid, bool keep_placement) {
  vtkCellData* cells = grid->GetCellData();
  std::vector<std::string> names;
  for (int k = 0; k < cells->GetNumberOfArrays(); ++k)
    if (vtkDoubleArray::SafeDownCast(cells->GetAbstractArray(k))) names.emplace_back(cells->GetArrayName(k));
  for (const std::string& name : names) {
    if (keep_placement && (name == "angle" || name == "density" || name == "held" || name == "imposed_velocity" ||
                           name == "imposed_force" || name == "vibration" || name == "plate"))
      continue;
    vtkNew<vtkFloatArray> floats = as_floats(cells->GetArray(name.c_str()));
    cells->RemoveArray(name.c_str());
    cells->AddArray(floats);
  }
  if (keep_placement || grid->GetPoints() == nullptr || grid->GetPoints()->GetDataType() != VTK_DOUBLE) return;
  vtkNew<vtkPoints> points;
  points->SetData(as_floats(grid->GetPoints()->GetData()));
  grid->SetPoints(points);
}

void check_single_precision(const World& w, const std::string& where) {
  double largest = 0.0, smallest = INFINITY;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const Vec2 p = w.position[i];
    largest = std::max({largest, std::abs(p.x) + w.bounding_radius[i], std::abs(p.y) + w.bounding_radius[i]});
    if (!w.is_wall[i]) smallest = std::min(smallest, w.bounding_radius[i]);
  }
  if (w.cell.periodic[0] || w.cell.periodic[1])
    largest = std::max({largest, std::abs(w.cell.low.x) + w.cell.size.x, std::abs(w.cell.low.y) + w.cell.size.y});
  const double rounding = std::ldexp(largest, -24);
  if (std::isfinite(smallest) && rounding > 1e-4 * smallest)
    throw std::invalid_argument(fmt::format(
        "{}: precision = single rounds a point {:.3g} away (2^-24 of the largest coordinate, {:.6g}), more than "
        "1e-4 of the smallest grain's size ({:.6g}): its contact points and branch vectors would lose their meaning; "
        "keep precision = double, or move the scene nearer the origin",
        where, rounding, largest, smallest));
}

}  // namespace sphero
