#include "packing/random_placement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "geometry/uniform.h"

namespace sphero {

Vec2 random_centre(std::mt19937_64& g, const Box& box, double R) {
  const double x = box.low.x + R + (box.high.x - box.low.x - 2 * R) * unit_uniform(g);
  const double y = box.low.y + R + (box.high.y - box.low.y - 2 * R) * unit_uniform(g);
  return {x, y};
}

Vec2 random_heading_velocity(std::mt19937_64& g, double speed) {
  const double heading = 2.0 * std::numbers::pi * unit_uniform(g);
  return speed * Vec2{std::cos(heading), std::sin(heading)};
}

std::vector<Vec2> lattice_centres(const Box& region, double R, int count, const std::string& shape_name) {
  const double spacing = 2.0 * R * 1.05;
  const int columns = static_cast<int>(std::floor((region.high.x - region.low.x) / spacing));
  const int rows = static_cast<int>(std::floor((region.high.y - region.low.y) / spacing));
  if (static_cast<long>(columns) * rows < count)
    throw std::invalid_argument(fmt::format(
        "the region holds {} x {} = {} grains of '{}' at lattice spacing {:g}, not {}; enlarge the region or lower "
        "the count",
        std::max(columns, 0), std::max(rows, 0), std::max(columns, 0) * std::max(rows, 0), shape_name, spacing, count));
  std::vector<Vec2> centres;
  for (int k = 0; k < count; ++k)
    centres.push_back({region.low.x + spacing * (k % columns + 0.5), region.low.y + spacing * (k / columns + 0.5)});
  return centres;
}

std::vector<Vec2> random_centres(std::mt19937_64& g, const Box& region, double R, int count,
                                 const std::vector<Circle>& occupied, const std::string& shape_name) {
  std::vector<Vec2> centres;
  long attempts = 0;
  while (static_cast<int>(centres.size()) < count) {
    if (++attempts > 1000L * count)
      throw std::invalid_argument(fmt::format(
          "random placement found room for only {} of {} grains of '{}' in the region; enlarge it, lower the count, "
          "or use generator=lattice",
          centres.size(), count, shape_name));
    const Vec2 c = random_centre(g, region, R);
    bool free = true;
    for (const Circle& p : occupied) free &= norm(p.centre - c) > p.radius + R;
    for (Vec2 other : centres) free &= norm(other - c) > 2 * R;
    if (free) centres.push_back(c);
  }
  return centres;
}

}  // namespace sphero
