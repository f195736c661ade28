// Shared pieces of every .vtu Sphero writes: named cell arrays, and the
// whole-or-nothing write of a grid (appended binary, zlib).
#pragma once

#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

#include <filesystem>

class vtkDataObject;
class vtkXMLWriter;

namespace sphero {

vtkNew<vtkDoubleArray> named_doubles(const char* name, int components);
vtkNew<vtkIntArray> named_ints(const char* name, int components);

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
