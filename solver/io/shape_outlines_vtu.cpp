#include "io/shape_outlines_vtu.h"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>

#include <algorithm>
#include <stdexcept>

#include "io/vtu_file.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

class GridBuilder {
 public:
  GridBuilder() {
    grid_->SetPoints(points_);
    shape_id_->SetName("shape_id");
    part_->SetName("part");
    area_->SetName("area");
    inertia_->SetName("inertia_per_density");
    bounding_radius_->SetName("bounding_radius");
  }

  void add_cell(int vtk_type, const std::vector<Vec2>& points, Vec2 offset, int shape_id, OutlinePart part,
                const MassProperties& props) {
    std::vector<vtkIdType> ids;
    for (Vec2 p : points) ids.push_back(points_->InsertNextPoint(p.x + offset.x, p.y + offset.y, 0.0));
    if (vtk_type == VTK_POLY_LINE && part == OutlinePart::hole) ids.push_back(ids.front());
    grid_->InsertNextCell(vtk_type, static_cast<vtkIdType>(ids.size()), ids.data());
    shape_id_->InsertNextValue(shape_id);
    part_->InsertNextValue(static_cast<int>(part));
    area_->InsertNextValue(props.area);
    inertia_->InsertNextValue(props.polar_moment);
    bounding_radius_->InsertNextValue(props.bounding_radius);
  }

  vtkSmartPointer<vtkUnstructuredGrid> finish(const std::vector<Shape>& shapes) {
    for (vtkDataArray* array : {static_cast<vtkDataArray*>(shape_id_.Get()), static_cast<vtkDataArray*>(part_.Get()),
                                static_cast<vtkDataArray*>(area_.Get()), static_cast<vtkDataArray*>(inertia_.Get()),
                                static_cast<vtkDataArray*>(bounding_radius_.Get())})
      grid_->GetCellData()->AddArray(array);
    vtkNew<vtkStringArray> names;
    names->SetName("shape_names");
    for (const Shape& shape : shapes) names->InsertNextValue(shape.name);
    grid_->GetFieldData()->AddArray(names);
    return grid_;
  }

 private:
  vtkSmartPointer<vtkUnstructuredGrid> grid_ = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points_;
  vtkNew<vtkIntArray> shape_id_, part_;
  vtkNew<vtkDoubleArray> area_, inertia_, bounding_radius_;
};

int skeleton_cell_type(const Shape& shape) {
  if (shape.vertices.size() == 1) return VTK_VERTEX;
  return shape.is_closed() ? VTK_POLYGON : VTK_POLY_LINE;
}

}  // namespace

vtkSmartPointer<vtkUnstructuredGrid> make_shape_outlines_grid(const std::vector<Shape>& shapes,
                                                              int segments_per_circle) {
  if (segments_per_circle < 3) throw std::invalid_argument("the arc resolution must be at least 3 segments per circle");
  GridBuilder builder;
  double next_left = 0.0;
  for (int id = 0; id < static_cast<int>(shapes.size()); ++id) {
    const Shape& shape = shapes[id];
    const MassProperties props = mass_properties(shape);
    const double gap = 0.25 * props.bounding_radius;
    const Vec2 offset{next_left + props.bounding_radius - props.centroid.x, -props.centroid.y};
    next_left += 2.0 * props.bounding_radius + gap;
    for (const Region& region : swept_region(shape)) {
      builder.add_cell(
          VTK_POLYGON, discretise(region.outer, segments_per_circle), offset, id, OutlinePart::outline, props);
      for (const BoundaryLoop& hole : region.holes)
        builder.add_cell(VTK_POLY_LINE, discretise(hole, segments_per_circle), offset, id, OutlinePart::hole, props);
    }
    builder.add_cell(skeleton_cell_type(shape), shape.vertices, offset, id, OutlinePart::skeleton, props);
  }
  return builder.finish(shapes);
}

void write_shape_outlines_vtu(const std::filesystem::path& path, const std::vector<Shape>& shapes,
                              int segments_per_circle) {
  const vtkSmartPointer<vtkUnstructuredGrid> grid = make_shape_outlines_grid(shapes, segments_per_circle);
  write_vtu_atomically(path, grid);
}

}  // namespace sphero
