#include "parallel/subdomains.h"

#include <algorithm>
#include <cmath>

namespace sphero {

void SubdomainBox::add(Vec2 centre, double radius) {
  low.x = std::min(low.x, centre.x - radius);
  low.y = std::min(low.y, centre.y - radius);
  high.x = std::max(high.x, centre.x + radius);
  high.y = std::max(high.y, centre.y + radius);
}

double SubdomainBox::gap_to(Vec2 centre, double radius) const {
  const double dx = std::max({low.x - centre.x, 0.0, centre.x - high.x});
  const double dy = std::max({low.y - centre.y, 0.0, centre.y - high.y});
  return std::hypot(dx, dy) - radius;
}

double periodic_gap(const World& w, const SubdomainBox& box, Vec2 centre, double radius) {
  double gap = box.gap_to(centre, radius);
  for (int ix = -1; ix <= 1; ++ix) {
    if (ix != 0 && !w.cell.periodic[0]) continue;
    for (int iy = -1; iy <= 1; ++iy) {
      if ((iy != 0 && !w.cell.periodic[1]) || (ix == 0 && iy == 0)) continue;
      gap = std::min(gap, box.gap_to(centre + Vec2{ix * w.cell.size.x, iy * w.cell.size.y}, radius));
    }
  }
  return gap;
}

Vec2 periodic_displacement(const World& w, Vec2 from, Vec2 to) {
  Vec2 d = to - from;
  if (w.cell.periodic[0]) d.x -= w.cell.size.x * std::round(d.x / w.cell.size.x);
  if (w.cell.periodic[1]) d.y -= w.cell.size.y * std::round(d.y / w.cell.size.y);
  return d;
}

}  // namespace sphero
