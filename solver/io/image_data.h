// A 2D regular grid of values as plain data: what the coarse-grained
// fields hand to the .vti writer and to ParaView's filter. No VTK.
#pragma once

#include <string>
#include <vector>

#include "geometry/vec2.h"

namespace sphero {

struct ImageArray {
  std::string name;
  int components = 1;
  std::vector<double> values;  // node-major, x fastest
};

struct ImageData2D {
  Vec2 origin, spacing;
  int nx = 0, ny = 0;
  double time = 0.0;  // written as the field array TimeValue
  std::vector<ImageArray> arrays;
};

}  // namespace sphero
