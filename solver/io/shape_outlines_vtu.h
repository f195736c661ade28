// Shapes as a VTK unstructured grid (.vtu), so that a shape library can be
// looked at in ParaView: for each shape, its rounded outline (skeleton ⊕ disk,
// arcs cut into chords) as a polygon cell, any holes of the outline as closed
// poly-lines, and the skeleton itself as a vertex, poly-line or polygon cell.
#pragma once

#include <vtkSmartPointer.h>

#include <filesystem>
#include <vector>

#include "shapes/shape.h"

class vtkUnstructuredGrid;

namespace sphero {

// The `part` cell array says what a cell is.
enum class OutlinePart { outline = 0, hole = 1, skeleton = 2 };

// Lays the shapes out in a row, left to right, each moved so that its
// centroid sits on the x axis; arcs get `segments_per_circle` chords per
// full turn. Cell arrays: shape_id, part, area, inertia_per_density,
// bounding_radius; field array shape_names.
vtkSmartPointer<vtkUnstructuredGrid> make_shape_outlines_grid(const std::vector<Shape>& shapes,
                                                              int segments_per_circle);

// The grid above as a compressed, appended-binary .vtu file. Throws
// std::runtime_error when the file cannot be written; never leaves a
// partial file.
void write_shape_outlines_vtu(const std::filesystem::path& path, const std::vector<Shape>& shapes,
                              int segments_per_circle);

}  // namespace sphero
