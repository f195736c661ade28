#include "io/image_vti.h"

#include <fmt/format.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkXMLImageDataWriter.h>

#include <stdexcept>

#include "io/vtu_file.h"

namespace sphero {

vtkSmartPointer<vtkImageData> image_grid(const ImageData2D& image, const std::string& source) {
  auto grid = vtkSmartPointer<vtkImageData>::New();
  grid->SetOrigin(image.origin.x, image.origin.y, 0.0);
  grid->SetSpacing(image.spacing.x, image.spacing.y, 1.0);
  grid->SetDimensions(image.nx, image.ny, 1);
  const auto nodes = static_cast<std::size_t>(image.nx) * static_cast<std::size_t>(image.ny);
  for (const ImageArray& a : image.arrays) {
    if (a.components < 1 || a.values.size() != nodes * static_cast<std::size_t>(a.components))
      throw std::runtime_error(fmt::format("{}: the field {} has {} values for {} nodes of {} components", source,
                                           a.name, a.values.size(), nodes, a.components));
    vtkNew<vtkDoubleArray> array;
    array->SetName(a.name.c_str());
    array->SetNumberOfComponents(a.components);
    array->SetNumberOfTuples(static_cast<vtkIdType>(nodes));
    std::copy(a.values.begin(), a.values.end(), array->GetPointer(0));
    grid->GetPointData()->AddArray(array);
  }
  vtkNew<vtkDoubleArray> time;
  time->SetName("TimeValue");
  time->InsertNextValue(image.time);
  grid->GetFieldData()->AddArray(time);
  return grid;
}

void write_image_vti(const std::filesystem::path& path, const ImageData2D& image) {
  const vtkSmartPointer<vtkImageData> grid = image_grid(image, path.string());
  vtkNew<vtkXMLImageDataWriter> writer;
  write_vtk_xml_atomically(path, *writer, grid);
}

}  // namespace sphero
