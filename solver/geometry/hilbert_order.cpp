#include "geometry/hilbert_order.h"

#include <algorithm>
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
  for (std::size_t i = 0; i < points.size(); ++i)
    key[i] = hilbert_index(cell(points[i].x - low.x), cell(points[i].y - low.y));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
  return order;
}

}  // namespace sphero
