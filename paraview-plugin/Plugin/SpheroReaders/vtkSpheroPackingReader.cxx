#include "vtkSpheroPackingReader.h"

#include "SpheroDisplay.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkDoubleArray.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPoints.h"
#include "vtkUnstructuredGrid.h"

#include "io/packing_frame.h"
#include "io/state_vtu.h"

#include <exception>
#include <fstream>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkSpheroPackingReader);

namespace {
// One polygon cell per outline, with the body's number, part and area.
void add_outline(vtkUnstructuredGrid* grid, vtkPoints* points, const std::vector<sphero::Vec2>& outline, int id,
                 int part, double area, vtkIntArray* ids, vtkIntArray* parts, vtkDoubleArray* areas) {
  std::vector<vtkIdType> corners;
  for (const sphero::Vec2 p : outline) {
    corners.push_back(points->InsertNextPoint(p.x, p.y, 0.0));
  }
  grid->InsertNextCell(VTK_POLYGON, static_cast<vtkIdType>(corners.size()), corners.data());
  ids->InsertNextValue(id);
  parts->InsertNextValue(part);
  areas->InsertNextValue(area);
}
}  // namespace

vtkSpheroPackingReader::vtkSpheroPackingReader() {
  this->SetNumberOfInputPorts(0);
  sphero::plugin::warn_without_display();
}

int vtkSpheroPackingReader::CanReadFile(const char* fileName) {
  // The XML header, before any appended data, names the cell arrays.
  std::ifstream in(fileName ? fileName : "", std::ios::binary);
  std::string head(65536, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.find("<VTKFile") != std::string::npos && head.find("Name=\"sphero_radius\"") != std::string::npos &&
                 head.find("Name=\"centre_of_mass\"") != std::string::npos
             ? 1
             : 0;
}

int vtkSpheroPackingReader::RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector) {
  vtkUnstructuredGrid* output = vtkUnstructuredGrid::GetData(outputVector);
  try {
    const sphero::FrameData frame = sphero::packing_frame(sphero::read_state_vtu(this->FileName), this->ArcResolution);
    vtkNew<vtkPoints> points;
    points->SetDataTypeToDouble();
    vtkNew<vtkIntArray> ids, parts;
    ids->SetName("id");
    parts->SetName("part");
    vtkNew<vtkDoubleArray> areas;
    areas->SetName("area");
    output->Initialize();
    output->Allocate();
    for (std::size_t k = 0; k < frame.particles.size(); ++k) {
      add_outline(
          output, points, frame.outlines[k], frame.particles[k].id, 0, frame.particles[k].area, ids, parts, areas);
    }
    for (std::size_t k = 0; k < frame.walls.size(); ++k) {
      add_outline(output, points, frame.wall_outlines[k], frame.walls[k].id, 1, 0.0, ids, parts, areas);
    }
    output->SetPoints(points);
    output->GetCellData()->AddArray(ids);
    output->GetCellData()->AddArray(parts);
    output->GetCellData()->AddArray(areas);
  } catch (const std::exception& e) {
    vtkErrorMacro(<< e.what());
    return 0;
  }
  return 1;
}

void vtkSpheroPackingReader::PrintSelf(ostream& os, vtkIndent indent) {
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FileName: " << this->FileName << "\n";
  os << indent << "ArcResolution: " << this->ArcResolution << "\n";
}
