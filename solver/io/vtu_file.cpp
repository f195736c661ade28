#include "io/vtu_file.h"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkFieldData.h>
#include <vtkTypeInt32Array.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>
#include <vtkXMLWriter.h>

#include <fstream>
#include <stdexcept>

#include "io/atomic_file.h"
#include "io/grid_check.h"
#include "io/pvtu_file.h"
#include "io/vtu_preflight.h"
#include "io/vtu_writer.h"

namespace sphero {

vtkNew<vtkDoubleArray> named_doubles(const char* name, int components) {
  vtkNew<vtkDoubleArray> a;
  a->SetName(name);
  a->SetNumberOfComponents(components);
  return a;
}

vtkNew<vtkIntArray> named_ints(const char* name, int components) {
  vtkNew<vtkIntArray> a;
  a->SetName(name);
  a->SetNumberOfComponents(components);
  return a;
}

void Column::zero() { array_->Fill(0.0); }

DoubleColumn::DoubleColumn(const char* name, vtkIdType tuples, int components) : components_(components) {
  auto a = vtkSmartPointer<vtkDoubleArray>::New();
  a->SetName(name);
  a->SetNumberOfComponents(components);
  a->SetNumberOfTuples(tuples);
  values_ = a->GetPointer(0);
  array_ = a;
}

IntColumn::IntColumn(const char* name, vtkIdType tuples, int components) {
  auto a = vtkSmartPointer<vtkIntArray>::New();
  a->SetName(name);
  a->SetNumberOfComponents(components);
  a->SetNumberOfTuples(tuples);
  values_ = a->GetPointer(0);
  array_ = a;
}

void add_columns(vtkUnstructuredGrid* grid, std::initializer_list<const Column*> columns) {
  for (const Column* c : columns) grid->GetCellData()->AddArray(c->array());
}

void set_uniform_cells(vtkUnstructuredGrid* grid, int type, vtkIdType cells, int points_per_cell) {
  vtkNew<vtkTypeInt32Array> offsets, connectivity;
  offsets->SetNumberOfValues(cells + 1);
  connectivity->SetNumberOfValues(cells * points_per_cell);
  for (vtkIdType k = 0; k <= cells; ++k) offsets->SetValue(k, static_cast<std::int32_t>(k * points_per_cell));
  for (vtkIdType k = 0; k < cells * points_per_cell; ++k) connectivity->SetValue(k, static_cast<std::int32_t>(k));
  vtkNew<vtkCellArray> array;
  array->SetData(offsets, connectivity);
  grid->SetCells(type, array);
}

void set_line_cells(vtkUnstructuredGrid* grid, vtkTypeInt32Array* ends) {
  const vtkIdType lines = ends->GetNumberOfValues() / 2;
  vtkNew<vtkTypeInt32Array> offsets;
  offsets->SetNumberOfValues(lines + 1);
  for (vtkIdType k = 0; k <= lines; ++k) offsets->SetValue(k, static_cast<std::int32_t>(2 * k));
  vtkNew<vtkCellArray> array;
  array->SetData(offsets, ends);
  grid->SetCells(VTK_LINE, array);
}

void add_time_value(vtkUnstructuredGrid* grid, double time) {
  vtkNew<vtkDoubleArray> value;
  value->SetName("TimeValue");
  value->InsertNextValue(time);
  grid->GetFieldData()->AddArray(value);
}

void write_vtk_xml_atomically(const std::filesystem::path& path, vtkXMLWriter& writer, vtkDataObject* data) {
  write_atomically(path, [&](const std::filesystem::path& temporary) {
    writer.SetFileName(temporary.c_str());
    writer.SetInputData(data);
    // Raw appended data compressed with LZ4: VTK, ParaView and pvpython
    // read it like zlib, and it writes several times faster than base64
    // and zlib for about the same size.
    writer.SetDataModeToAppended();
    writer.EncodeAppendedDataOff();
    writer.SetCompressorTypeToLZ4();
    if (writer.Write() != 1)
      throw std::runtime_error(path.string() +
                               ": VTK could not write the file (is the directory writable, the disk full?)");
  });
}

void write_vtu_atomically(const std::filesystem::path& path, vtkUnstructuredGrid* grid) {
  VtuParts bytes;
  try {
    bytes = vtu_parts(grid);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
  write_atomically(path, [&](const std::filesystem::path& temporary) {
    std::ofstream out(temporary, std::ios::binary);
    out.write(bytes.head.data(), static_cast<std::streamsize>(bytes.head.size()));
    out.write(bytes.payload.data(), static_cast<std::streamsize>(bytes.payload.size()));
    out.write(bytes.tail.data(), static_cast<std::streamsize>(bytes.tail.size()));
    out.close();
    if (!out) throw std::runtime_error(path.string() + ": cannot write (is the directory writable, the disk full?)");
  });
}

vtkSmartPointer<vtkUnstructuredGrid> read_vtu(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) throw std::runtime_error(file.string() + ": missing");
  if (file.extension() == ".pvtu") return read_pvtu(file);
  check_vtu_before_reading(file);
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  vtkSmartPointer<vtkUnstructuredGrid> grid = reader->GetOutput();
  if (reader->GetErrorCode() != 0 || grid == nullptr)
    throw std::runtime_error(file.string() + ": not a readable .vtu file");
  check_grid_structure(grid, file.string());
  return grid;
}

}  // namespace sphero
