#include "packing/spatial_order.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace sphero {
namespace {

constexpr int kOrder = 16;  // grid of 2^16 cells a side

// Position along the Hilbert curve of grid cell (x, y) (the classic
// rotate-and-reflect walk from the largest quadrant down).
std::uint64_t hilbert_index(std::uint32_t x, std::uint32_t y) {
  constexpr std::uint32_t n = 1u << kOrder;
  std::uint64_t d = 0;
  for (std::uint32_t s = n / 2; s > 0; s /= 2) {
    const std::uint32_t rx = (x & s) ? 1 : 0, ry = (y & s) ? 1 : 0;
    d += static_cast<std::uint64_t>(s) * s * ((3 * rx) ^ ry);
    if (ry == 0) {
      if (rx == 1) x = n - 1 - x, y = n - 1 - y;
      std::swap(x, y);
    }
  }
  return d;
}

}  // namespace

std::vector<std::size_t> hilbert_order(const std::vector<Vec2>& points) {
  std::vector<std::size_t> order(points.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (points.size() < 2) return order;
  Vec2 low = points[0], high = points[0];
  for (Vec2 p : points) {
    low = {std::min(low.x, p.x), std::min(low.y, p.y)};
    high = {std::max(high.x, p.x), std::max(high.y, p.y)};
  }
  // One scale for both axes, so that the curve's cells are square.
  const double extent = std::max(high.x - low.x, high.y - low.y);
  const double cells = static_cast<double>((1u << kOrder) - 1);
  const auto cell = [&](double offset) {
    return extent > 0.0 ? static_cast<std::uint32_t>(std::clamp(offset / extent * cells, 0.0, cells)) : 0u;
  };
  std::vector<std::uint64_t> key(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) key[i] = hilbert_index(cell(points[i].x - low.x), cell(points[i].y - low.y));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
  return order;
}

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
