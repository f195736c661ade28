// `sphero bench --scene rigid`: the rigid model's heap (docs/VALIDATION.md,
// "The heap"): N hexagons at rest at random places in a square drawn
// together by a central field, with a viscous tangential dissipation or
// Coulomb friction, timed from the start over the collapse, or gathered
// first (untimed, at the loosest tolerance) and timed once compact.
// Its records differ from the soft scenes': time per step and per contact,
// the solver's iterations (interior-point iterations or Gauss–Seidel
// sweeps) and residual, and its shares (of the wall time) of
// detection, the collision programs and the position corrections.
#pragma once

#include <string>
#include <vector>

#include "rigid/collision_settings.h"

namespace sphero::app {

// The loosest rigid_tolerance: a heap gathered at it is as compact as one
// gathered at the timed tolerance, in a fraction of the sweeps.
inline constexpr double kSettleTolerance = 1e-4;

struct RigidBenchOptions {
  std::vector<int> sizes;
  long steps = 0;  // 0: the whole collapse (1000 steps)
  // Steps gathering the heap before the timed ones, not timed, by
  // Gauss–Seidel at kSettleTolerance, once for every solver and tolerance
  // timed after; 0: timed from the start.
  long settle_steps = 0;
  std::vector<double> tolerances{1e-9};                           // rigid_tolerance: each timed in turn
  std::vector<RigidSolver> solvers{RigidSolver::interior_point};  // each timed in turn
  // The heaps' Coulomb friction, each gathered and timed in turn; 0: the
  // viscous tangential dissipation ξ_t = 0.5 instead.
  std::vector<double> frictions{0.0};
  // Thread counts, each timed in turn from the same state; their results
  // must be identical.
  std::vector<int> threads{1};
  bool csv = false;
  std::string data;  // the data directory (shapes/hexagon.shape)
};

// One record per size, solver and tolerance, JSON lines or CSV (a header of
// its own).
void run_rigid_bench(const RigidBenchOptions& options);

}  // namespace sphero::app
