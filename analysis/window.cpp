#include "analysis/window.h"

#include <numbers>

namespace sphero::analysis {

bool Window::contains(Vec2 p) const {
  if (kind == Kind::circle) return norm(p - centre) <= radius;
  return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
}

double Window::area() const {
  return kind == Kind::circle ? std::numbers::pi * radius * radius : (x1 - x0) * (y1 - y0);
}

}  // namespace sphero::analysis
