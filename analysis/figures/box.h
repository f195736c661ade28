// A rectangle of a figure, in output units with y down: where a layout puts
// a drawing or a piece of text, so that tests can check that none overlaps.
#pragma once

namespace sphero::analysis {

struct Box {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  bool contains(double x, double y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
};

}  // namespace sphero::analysis
