// Quasi-random Monte Carlo mass properties: the independent check of the
// analytic and exact methods (docs/MODEL.md §1). Slow; for tests and validation.
#pragma once

#include <cstdint>

#include "shapes/mass_properties.h"
#include "shapes/shape.h"

namespace sphero {

// Is p inside skeleton ⊕ D(r)? Distance to an edge (or to the single
// point) at most r, or inside the closed polygon.
bool contains(const Shape& shape, Vec2 p);

struct MonteCarloEstimate {
  MassProperties value;  // mean over replicas
  // One standard error of the mean over the replicas.
  double area_error = 0.0;
  double centroid_error = 0.0;  // of each coordinate, the larger of the two
  double polar_moment_error = 0.0;
};

// A 2D Halton sequence (bases 2 and 3) over the shape's bounding box, in
// `replicas` independent randomly shifted copies (Cranley-Patterson
// rotations, seeded), `points_per_replica` points each. The spread of the
// replicas gives an honest error bar, which a single low-discrepancy
// sequence would not.
MonteCarloEstimate monte_carlo_mass_properties(const Shape& shape, int points_per_replica, int replicas,
                                               std::uint64_t seed = 1);

}  // namespace sphero
