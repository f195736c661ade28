// Voronoi–Minkowski packings (Galindo-Torres, Alonso-Marroquín et al.): each
// Voronoi cell of random sites is eroded by r + Δ and the eroded polygon
// becomes the skeleton of a spheropolygon of sphero-radius r. Δ = 0 gives
// neighbours that touch along whole faces; Δ > 0 opens gaps of 2Δ; r sets
// how round the grains are.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "packing/progress.h"
#include "packing/voronoi.h"
#include "shapes/shape.h"

namespace sphero {

struct VoronoiMinkowskiOptions {
  Box box;
  bool periodic = false;
  int count = 0;            // random sites (uniform, seeded) ...
  std::vector<Vec2> sites;  // ... or these, when given
  std::uint64_t seed = 1;
  int lloyd_steps = 0;  // relaxation towards more regular cells
  // Size distribution: 0 gives Voronoi cells; s > 0 gives power cells with
  // weights ρ², ρ uniform in ρ̄ [1 − s, 1 + s] (ρ̄ half the mean site
  // spacing): a wider spread of cell sizes. s in [0, 1).
  double size_spread = 0.0;
  double radius = 0.0;                     // r
  double gap = 0.0;                        // Δ >= 0
  std::optional<double> roundness;         // target mean r / R_eq instead of r
  std::optional<double> packing_fraction;  // target φ instead of Δ
  Progress progress;                       // how far it is, for a progress line
};

struct Grain {
  Shape shape;   // skeleton in world coordinates
  int cell = 0;  // the Voronoi cell it came from
};

struct VoronoiMinkowskiPacking {
  std::vector<Grain> grains;
  std::vector<std::vector<Vec2>> cells;  // the Voronoi cells, for checks and figures
  std::vector<int> dropped;              // cells that vanished under erosion
  double radius = 0.0, gap = 0.0;        // what was used (after solving targets)
  double packing_fraction = 0.0;         // Σ exact grain areas / box area
  double void_ratio = 0.0;
  double mean_roundness = 0.0;  // mean of r / sqrt(A / π)
  int min_vertices = 0, max_vertices = 0;
  double mean_vertices = 0.0;
};

// Throws std::invalid_argument with what is wrong and what to do (no sites,
// a negative gap, a target that cannot be reached, ...).
VoronoiMinkowskiPacking voronoi_minkowski(const VoronoiMinkowskiOptions& options);

}  // namespace sphero
