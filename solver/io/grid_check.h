// What a .vtu read from disk must satisfy before anything indexes into it:
// counts within stated limits (docs/FILE-FORMATS.md), connectivity within
// the points, one tuple per cell or point in every array, finite
// coordinates; and the arrays a reader needs, with the width it needs.
// Every failure names the file and what is wrong.
#pragma once

#include <filesystem>
#include <string>

#include <vtkType.h>

class vtkDataArray;
class vtkUnstructuredGrid;

namespace sphero {

inline constexpr vtkIdType kMaxGridPoints = 100'000'000;
inline constexpr vtkIdType kMaxGridCells = 100'000'000;

// A VTK XML unstructured grid by its header, whose announced counts are
// within the limits (refused before VTK allocates for them), and whose
// inline ASCII arrays hold as many values as their places need.
void check_vtu_header(const std::filesystem::path& file);
// Connectivity, array lengths and finite coordinates.
void check_grid_structure(vtkUnstructuredGrid* grid, const std::string& source);
// Every cell has from `fewest` to `most` points.
void check_cell_sizes(vtkUnstructuredGrid* grid, vtkIdType fewest, vtkIdType most, const std::string& source,
                      const char* what);
// The cell array `name` with `components` components; null when absent and
// not `required`.
vtkDataArray* cell_array(vtkUnstructuredGrid* grid, const char* name, int components, bool required,
                         const std::string& source);

}  // namespace sphero
