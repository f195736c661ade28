#include "packing/random_placement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

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

void PlacedCircles::add(Vec2 centre, double radius) {
  const auto index = static_cast<int>(circles_.size());
  circles_.push_back({centre, radius});
  const double reach = radius + R_;
  const auto [x0, y0] = cell_of(centre - Vec2{reach, reach});
  const auto [x1, y1] = cell_of(centre + Vec2{reach, reach});
  if (!(reach < kMostCellsAcross * cell_) || (x1 - x0 + 1) * (y1 - y0 + 1) > kMostCellsAcross * kMostCellsAcross) {
    large_.push_back(index);
    return;
  }
  for (long long x = x0; x <= x1; ++x)
    for (long long y = y0; y <= y1; ++y) cells_[key(x, y)].push_back(index);
}

std::optional<int> PlacedCircles::first_overlap(Vec2 c, bool touching_overlaps) const {
  std::optional<int> first;
  const auto consider = [&](int i) {
    const Circle& p = circles_[static_cast<std::size_t>(i)];
    const double d = norm(p.centre - c), reach = p.radius + R_;
    if ((touching_overlaps ? !(d > reach) : d < reach) && (!first || i < *first)) first = i;
  };
  for (int i : large_) consider(i);
  const auto [x, y] = cell_of(c);
  if (const auto found = cells_.find(key(x, y)); found != cells_.end())
    for (int i : found->second) consider(i);
  return first;
}

std::pair<long long, long long> PlacedCircles::cell_of(Vec2 p) const {
  const auto index = [&](double v) { return static_cast<long long>(std::clamp(std::floor(v / cell_), -1e15, 1e15)); };
  return {index(p.x), index(p.y)};
}

std::vector<Vec2> random_centres(std::mt19937_64& g, const Box& region, double R, int count,
                                 const std::vector<Circle>& occupied, const std::string& shape_name,
                                 const Progress& progress) {
  std::vector<Vec2> centres;
  PlacedCircles placed(R);
  for (const Circle& p : occupied) placed.add(p.centre, p.radius);
  // Near jamming a success takes ever more draws: give up when 10^5 in a
  // row fail (room for one more in 10^5 of the region) or after 1000 a grain.
  constexpr long kMostMissesInARow = 100'000;
  long attempts = 0, misses_in_a_row = 0;
  while (static_cast<int>(centres.size()) < count) {
    if (++attempts > 1000L * count || misses_in_a_row > kMostMissesInARow)
      throw std::invalid_argument(fmt::format(
          "random placement found room for only {} of {} grains of '{}' in the region; enlarge it, lower the count, "
          "or use generator=lattice",
          centres.size(), count, shape_name));
    const Vec2 c = random_centre(g, region, R);
    if (placed.first_overlap(c, true)) {
      ++misses_in_a_row;
      continue;
    }
    misses_in_a_row = 0;
    centres.push_back(c);
    placed.add(c, R);
    report(progress, "random placement", centres.size(), static_cast<std::size_t>(count));
  }
  return centres;
}

}  // namespace sphero
