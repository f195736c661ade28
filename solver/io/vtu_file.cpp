#include "io/vtu_file.h"

#include <vtkCellArray.h>
#include <vtkFieldData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <stdexcept>

#include "io/atomic_file.h"
#include "io/grid_check.h"
#include "io/pvtu_file.h"
#include "io/vtu_preflight.h"

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
  // Connectivity and offsets in 32 bits: a file holds far fewer than 2³¹
  // points (readers refuse over 10⁸), and they are a light frame's main
  // cost after the state itself.
  if (vtkCellArray* cells = grid->GetCells();
      cells != nullptr && cells->IsStorage64Bit() && cells->GetNumberOfConnectivityIds() < (vtkIdType{1} << 31))
    cells->ConvertTo32BitStorage();
  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  write_vtk_xml_atomically(path, *writer, grid);
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
