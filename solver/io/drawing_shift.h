// Where the output draws a body: grains where they are, walls in a periodic
// cell brought back over the grains by whole periods.
#pragma once

#include "engine/world.h"

namespace sphero {

// Whole periods that bring a wall's centre back into the periodic cell: a
// shear plate that travelled along x is drawn (with its contacts) over the
// grains it shears, not periods away. Drawing only: the physics finds the
// images itself. Zero for grains.
inline Vec2 drawing_shift(const World& w, std::size_t i) {
  if (!w.is_wall[i]) return {};
  const auto [px, py] = periods_into_cell(w, i);
  return {px * w.cell.size.x, py * w.cell.size.y};
}

}  // namespace sphero
