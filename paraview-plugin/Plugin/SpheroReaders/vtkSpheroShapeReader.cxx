#include "vtkSpheroShapeReader.h"

#include "SpheroDisplay.h"

#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"
#include "vtkUnstructuredGrid.h"

#include "io/shape_outlines_vtu.h"
#include "shapes/shape_file.h"

#include <exception>
#include <fstream>
#include <sstream>
#include <string>

vtkStandardNewMacro(vtkSpheroShapeReader);

vtkSpheroShapeReader::vtkSpheroShapeReader() {
  this->SetNumberOfInputPorts(0);
  sphero::plugin::warn_without_display();
}

int vtkSpheroShapeReader::CanReadFile(const char* fileName) {
  // The first word that is not in a comment must be the format's name.
  std::ifstream in(fileName ? fileName : "");
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line.substr(0, line.find('#')));
    std::string first;
    if (words >> first) {
      return first == "sphero-shape" ? 1 : 0;
    }
  }
  return 0;
}

int vtkSpheroShapeReader::RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector) {
  vtkUnstructuredGrid* output = vtkUnstructuredGrid::GetData(outputVector);
  try {
    const sphero::Shape shape = sphero::read_shape_file(this->FileName);
    output->ShallowCopy(sphero::make_shape_outlines_grid({shape}, this->ArcResolution));
  } catch (const std::exception& e) {
    vtkErrorMacro(<< e.what());
    return 0;
  }
  return 1;
}

void vtkSpheroShapeReader::PrintSelf(ostream& os, vtkIndent indent) {
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FileName: " << this->FileName << "\n";
  os << indent << "ArcResolution: " << this->ArcResolution << "\n";
}
