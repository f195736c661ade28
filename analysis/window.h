// The part of a frame an average is taken over: a rectangle, a circle, or
// the box around the particles' outlines.
#pragma once

#include "geometry/vec2.h"

namespace sphero::analysis {

struct Window {
  enum class Kind { bounding_box, rectangle, circle } kind = Kind::bounding_box;
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // rectangle
  Vec2 centre;                            // circle
  double radius = 0.0;
  bool contains(Vec2 p) const;  // closed: the boundary counts as inside
  double area() const;
  Vec2 middle() const { return kind == Kind::circle ? centre : Vec2{0.5 * (x0 + x1), 0.5 * (y0 + y1)}; }
};

}  // namespace sphero::analysis
