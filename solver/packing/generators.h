// The other ways to make a sample: lattices for tests, and a dilute random
// gas at a target packing fraction with size polydispersity.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/world.h"
#include "packing/voronoi.h"

namespace sphero {

struct LatticeOptions {
  Shape shape;
  int columns = 0, rows = 0;
  double spacing = 0.0;    // centre to centre
  bool hexagonal = false;  // every other row shifted by half a spacing
  Vec2 origin;             // centre of the first grain
};
// Throws std::invalid_argument when the spacing lets neighbours overlap.
std::vector<BodySpec> lattice_packing(const LatticeOptions& options);

struct GasOptions {
  Box box;
  std::vector<Shape> shapes;      // drawn with these relative frequencies
  std::vector<double> fractions;  // (normalised; empty = equal)
  int count = 0;
  double packing_fraction = 0.0;  // Σ exact areas / box area
  // Areas uniform in [Ā(1 − s), Ā(1 + s)], s = (A_max − A_min)/(A_max + A_min).
  double spread = 0.0;
  double speed = 0.0;  // each grain's speed, random direction
  std::uint64_t seed = 1;
};
struct GasPacking {
  std::vector<BodySpec> bodies;
  double packing_fraction = 0.0;
};
// Random positions and orientations without overlap (exact skeleton
// distances). Throws std::invalid_argument when random placement cannot
// reach the target, with how far it got.
GasPacking gas_packing(const GasOptions& options);

// Distance between two skeletons in world coordinates (0 when they cross or
// one closed skeleton holds the other). Two grains overlap when it is below
// the sum of their radii.
double skeleton_distance(const Shape& a, const Shape& b);

}  // namespace sphero
