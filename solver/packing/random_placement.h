// Grains placed in a rectangular region the way a scene's `grains` line asks
// (docs/SCENES.md): on a square lattice, or at random without overlap of
// their bounding circles; and the random draws every generator of random
// grains shares. Each draw's order is part of the output: a seed gives the
// same sample on every machine.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "geometry/vec2.h"
#include "packing/progress.h"
#include "packing/voronoi.h"

namespace sphero {

// A centre uniform in `box` inset by `R` (one draw for x, then one for y).
Vec2 random_centre(std::mt19937_64& generator, const Box& box, double R);
// A velocity of `speed` in a uniform random direction (one draw).
Vec2 random_heading_velocity(std::mt19937_64& generator, double speed);

struct Circle {
  Vec2 centre;
  double radius = 0.0;
};

// `count` centres on a square lattice of spacing 2.1 R filling `region` row
// by row from its lower left. Throws std::invalid_argument, naming
// `shape_name`, when the region holds fewer.
std::vector<Vec2> lattice_centres(const Box& region, double R, int count, const std::string& shape_name);

// Circles a new circle of radius R must not overlap, hashed by the cells
// (of side 2R) that each one's reach r + R covers, so that a query looks at
// its own cell only: placing N grains costs O(N), not O(N²). Circles
// reaching over many cells (a wall's bounding circle) are checked one by
// one.
class PlacedCircles {
 public:
  explicit PlacedCircles(double R) : R_(R), cell_(2.0 * R) {}
  void add(Vec2 centre, double radius);
  // The first added circle (by order of adding) that the circle of radius
  // R at `c` overlaps — or touches, when `touching_overlaps`.
  std::optional<int> first_overlap(Vec2 c, bool touching_overlaps) const;

 private:
  static constexpr long long kMostCellsAcross = 64;
  std::pair<long long, long long> cell_of(Vec2 p) const;
  static long long key(long long x, long long y) { return x * 2'147'483'647LL + y; }
  double R_, cell_;
  std::vector<Circle> circles_;
  std::vector<int> large_;
  std::unordered_map<long long, std::vector<int>> cells_;
};

// `count` centres drawn by random_centre whose circles of radius R overlap
// neither `occupied` nor each other. Throws std::invalid_argument when
// 1000 × count draws, or 10^5 draws in a row, found room for fewer.
std::vector<Vec2> random_centres(std::mt19937_64& generator, const Box& region, double R, int count,
                                 const std::vector<Circle>& occupied, const std::string& shape_name,
                                 const Progress& progress = {});

}  // namespace sphero
