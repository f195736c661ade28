// How a collision instant is solved (docs/MODEL.md §7, "The solvers").
#pragma once

#include <string_view>

#include "rigid/convex_qp.h"

namespace sphero {

enum class RigidSolver {
  // The quadratic A-CD² program by a primal-dual interior point
  // (convex_qp.h): exact to its tolerance, no Coulomb friction.
  interior_point,
  // Nonlinear Gauss–Seidel over the contacts, each contact's law solved
  // exactly in turn (rigid/gauss_seidel.h): Coulomb friction too.
  gauss_seidel,
};

std::string_view to_string(RigidSolver solver);  // "interior_point", "gauss_seidel"

struct CollisionSettings {
  RigidSolver solver = RigidSolver::interior_point;
  // The interior point's tolerance and iterations; the Gauss–Seidel sweeps
  // stop at the same tolerance on their own residual.
  QpSettings program;
  int max_sweeps = 20000;
};

}  // namespace sphero
