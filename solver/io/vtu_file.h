// Shared pieces of every .vtu Sphero writes: named cell arrays, and the
// whole-or-nothing write of a grid (appended binary, LZ4: io/vtu_writer.h).
#pragma once

#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

#include <filesystem>
#include <initializer_list>

class vtkDataObject;
class vtkTypeInt32Array;
class vtkXMLWriter;

namespace sphero {

vtkNew<vtkDoubleArray> named_doubles(const char* name, int components);
vtkNew<vtkIntArray> named_ints(const char* name, int components);

// A named cell array of a known number of tuples, filled in place (a
// frame's arrays are sized once, not grown value by value).
class Column {
 public:
  vtkDataArray* array() const { return array_; }
  // Every value 0.
  void zero();

 protected:
  vtkSmartPointer<vtkDataArray> array_;
};

class DoubleColumn : public Column {
 public:
  DoubleColumn(const char* name, vtkIdType tuples, int components = 1);
  void set(vtkIdType k, double value) { values_[k] = value; }
  void set(vtkIdType k, std::initializer_list<double> tuple) {
    double* at = values_ + k * components_;
    for (const double v : tuple) *at++ = v;
  }

 private:
  double* values_;
  int components_;
};

class IntColumn : public Column {
 public:
  IntColumn(const char* name, vtkIdType tuples, int components = 1);
  // The k-th value (of tuple k / components, component k % components).
  void set(vtkIdType k, int value) { values_[k] = value; }

 private:
  int* values_;
};

// Adds the columns' arrays to `grid`'s cell data.
void add_columns(vtkUnstructuredGrid* grid, std::initializer_list<const Column*> columns);

// `cells` cells of one `type`, the k-th joining the `points_per_cell`
// points from k × points_per_cell on (connectivity in 32 bits).
void set_uniform_cells(vtkUnstructuredGrid* grid, int type, vtkIdType cells, int points_per_cell);
// Lines, the k-th from point ends[2k] to point ends[2k + 1].
void set_line_cells(vtkUnstructuredGrid* grid, vtkTypeInt32Array* ends);

// Writes `data` with `writer` (any VTK XML format) through a temporary file
// and a rename, as raw appended data compressed with LZ4. Throws
// std::runtime_error naming the file.
void write_vtk_xml_atomically(const std::filesystem::path& path, vtkXMLWriter& writer, vtkDataObject* data);
// Writes through a temporary file and a rename. Throws std::runtime_error
// naming the file.
void write_vtu_atomically(const std::filesystem::path& path, vtkUnstructuredGrid* grid);
// Reads a .vtu, or the pieces of a .pvtu as one grid (io/pvtu_file.h); throws std::runtime_error naming the file when
// it is missing, unreadable, or damaged (io/vtu_preflight.h, io/grid_check.h).
vtkSmartPointer<vtkUnstructuredGrid> read_vtu(const std::filesystem::path& path);
// The field array TimeValue, which ParaView reads as the data's time.
void add_time_value(vtkUnstructuredGrid* grid, double time);

}  // namespace sphero
