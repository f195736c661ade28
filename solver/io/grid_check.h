// What a .vtu read from disk must satisfy before anything indexes into it:
// counts within stated limits (docs/FILE-FORMATS.md), connectivity within
// the points, one tuple per cell or point in every array, finite
// coordinates; and the arrays a reader needs, with the width it needs.
// Every failure names the file and what is wrong.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <vtkType.h>

#include "geometry/vec2.h"
#include "io/vtu_preflight.h"

class vtkDataArray;
class vtkUnstructuredGrid;

namespace sphero {

// Connectivity, array lengths and finite coordinates.
void check_grid_structure(vtkUnstructuredGrid* grid, const std::string& source);
// Every cell has from `fewest` to `most` points.
void check_cell_sizes(vtkUnstructuredGrid* grid, vtkIdType fewest, vtkIdType most, const std::string& source,
                      const char* what);
// Cell c's first value of `array` as an int (ids, counts, flags): −1 where
// a damaged file holds a value no int can (not finite, beyond ±2³¹).
int cell_int(vtkDataArray* array, vtkIdType c);
// The cell array `name` with `components` components; null when absent and
// not `required`.
vtkDataArray* cell_array(vtkUnstructuredGrid* grid, const char* name, int components, bool required,
                         const std::string& source);
// Cell c's points, x and y, in order (a grid checked by
// check_grid_structure).
std::vector<Vec2> cell_points(vtkUnstructuredGrid* grid, vtkIdType c);

}  // namespace sphero
