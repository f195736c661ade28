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

std::vector<SubdomainBox> subdomain_boxes(const World& w, const std::vector<int>& owner, int ranks) {
  std::vector<SubdomainBox> boxes(static_cast<std::size_t>(ranks));
  for (std::size_t i = 0; i < w.size(); ++i)
    if (owner[i] >= 0) boxes[static_cast<std::size_t>(owner[i])].add(w.position[i], w.bounding_radius[i]);
  return boxes;
}

std::vector<int> bodies_held_by(const World& w, const std::vector<int>& owner, const std::vector<SubdomainBox>& boxes,
                                int r, double margin) {
  const SubdomainBox& box = boxes[static_cast<std::size_t>(r)];
  std::vector<int> held;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (owner[i] < 0 || owner[i] == r || box.gap_to(w.position[i], w.bounding_radius[i]) <= margin)
      held.push_back(static_cast<int>(i));
  return held;
}

}  // namespace sphero
