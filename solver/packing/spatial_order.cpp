#include "packing/spatial_order.h"

#include <algorithm>
#include <cmath>

namespace sphero {

double median_listing_step(const std::vector<Vec2>& centres, std::vector<double> sizes) {
  const auto median = [](std::vector<double>& v) {
    const auto middle = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), middle, v.end());
    return *middle;
  };
  if (centres.size() < 2 || sizes.empty()) return 0.0;
  const double size = median(sizes);
  if (!(size > 0.0)) return 0.0;
  std::vector<double> steps(centres.size() - 1);
  for (std::size_t i = 0; i + 1 < centres.size(); ++i) steps[i] = norm(centres[i + 1] - centres[i]) / size;
  return median(steps);
}

void list_grains_along_curve(std::vector<BodySpec>& bodies) {
  std::vector<std::size_t> slots;
  std::vector<Vec2> centres;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (!bodies[i].is_wall) slots.push_back(i), centres.push_back(bodies[i].position);
  const std::vector<std::size_t> order = hilbert_order(centres);
  std::vector<BodySpec> grains;
  grains.reserve(slots.size());
  for (std::size_t k : order) grains.push_back(std::move(bodies[slots[k]]));
  for (std::size_t k = 0; k < slots.size(); ++k) bodies[slots[k]] = std::move(grains[k]);
}

}  // namespace sphero
