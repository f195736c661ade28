// A 2D regular grid of values as VTK image data (.vti): point arrays on
// nx × ny nodes, one z-slice, for fields ParaView shows as images, contours
// and glyphs. Written whole or not at all.
#pragma once

#include <filesystem>
#include <string>

#include <vtkSmartPointer.h>

#include "io/image_data.h"

class vtkImageData;

namespace sphero {

// The image in memory (what ParaView's Sphero filter outputs). Throws
// std::runtime_error naming `source` when an array's size does not match
// the grid.
vtkSmartPointer<vtkImageData> image_grid(const ImageData2D& image, const std::string& source);
// Throws std::runtime_error naming the file when an array's size does not
// match the grid or VTK cannot write it.
void write_image_vti(const std::filesystem::path& path, const ImageData2D& image);

}  // namespace sphero
