// Packing fraction φ = A_p / A and void ratio e = (A − A_p) / A_p of a
// region (docs/MODEL.md §6), from the exact areas of the particles in it.
#pragma once

#include <span>

#include "shapes/shape.h"

namespace sphero::analysis {

struct PackingMeasure {
  double solid_area = 0.0;   // A_p: summed exact particle areas
  double region_area = 0.0;  // A

  double packing_fraction() const { return solid_area / region_area; }
  double void_ratio() const { return (region_area - solid_area) / solid_area; }
};

// Particles wholly inside a region of area `region_area`. Throws
// std::invalid_argument when the region has no area or the particles fill
// more than it (they would have to overlap).
PackingMeasure measure_packing(std::span<const Shape> particles, double region_area);

}  // namespace sphero::analysis
