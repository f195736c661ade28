// A sparse convex quadratic program with linear inequalities,
//
//   minimise  ½ xᵀ H x − cᵀ x   subject to   G x ≤ h,
//
// H symmetric positive definite, G sparse: the program of a rigid-body
// collision (docs/MODEL.md, "Rigid bodies"), whose multipliers z of G x ≤ h
// are the contact percussions. Solved by a primal-dual interior-point
// method (Mehrotra's predictor–corrector) on the normal equations
// H + Gᵀ (Z/S) G, one sparse Cholesky factorisation (CHOLMOD) per
// iteration with the pattern analysed once.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace sphero {

struct ConvexQp {
  Eigen::SparseMatrix<double> H;  // n × n, both triangles stored
  Eigen::VectorXd c;              // n
  Eigen::SparseMatrix<double> G;  // m × n
  Eigen::VectorXd h;              // m
};

struct QpSettings {
  // On the scaled KKT residual (QpSolution::kkt_residual). The normal
  // equations' conditioning grows as the iterates near the boundary: on
  // degenerate programs (every constraint of a chain active) progress
  // stalls near 1e-10.
  double tolerance = 1e-9;
  int max_iterations = 100;
};

struct QpSolution {
  Eigen::VectorXd x;  // the minimiser
  Eigen::VectorXd z;  // ≥ 0, one per row of G: its multiplier (zero where the row is slack)
  int iterations = 0;
  // The largest of: the stationarity residual ‖Hx − c + Gᵀz‖∞ over
  // 1 + ‖c‖∞, the feasibility violation max(Gx − h)⁺ over 1 + ‖h‖∞, and
  // the complementarity sᵀz/m over 1 + |½xᵀHx − cᵀx|.
  double kkt_residual = 0.0;
  bool converged = false;  // kkt_residual ≤ tolerance within max_iterations
};

// A program of one row and at most 12 unknowns (a binary collision) is
// solved in closed form instead, exactly to rounding (iterations 0).
// Never throws on a hard program: an infeasible or ill-conditioned one
// returns converged = false with the residual it reached. Throws
// std::invalid_argument when the sizes disagree.
QpSolution solve_convex_qp(const ConvexQp& qp, const QpSettings& settings = {});

}  // namespace sphero
