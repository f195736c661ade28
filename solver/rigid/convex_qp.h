// A sparse convex quadratic program with linear inequalities made
// compliant,
//
//   minimise  ½ xᵀ H x − cᵀ x   subject to   G x − E z ≤ h,
//
// H symmetric positive definite, G sparse, E = diag(compliance) ≥ 0 and z
// the multipliers of the rows: the program of a rigid-body collision
// (docs/MODEL.md, "Rigid bodies"), whose multipliers are the contact
// percussions. A row k may be violated by compliance_k z_k: the program
// is then that of ½ xᵀHx − cᵀx + Σ (Gx − h)₊² / (2 compliance_k), whose
// multipliers are unique even where the rows are linearly dependent.
// Solved by a primal-dual interior-point method (Mehrotra's
// predictor–corrector) on the normal equations H + Gᵀ (S/Z + E)⁻¹ G, one
// sparse Cholesky factorisation (CHOLMOD) per iteration with the pattern
// analysed once; the compliance bounds their weights by 1/compliance.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace sphero {

struct ConvexQp {
  Eigen::SparseMatrix<double> H;  // n × n, both triangles stored
  Eigen::VectorXd c;              // n
  Eigen::SparseMatrix<double> G;  // m × n
  Eigen::VectorXd h;              // m
  Eigen::VectorXd compliance;     // m entries ≥ 0, or empty: every row exact
};

struct QpSettings {
  // On the scaled KKT residual (QpSolution::kkt_residual). The normal
  // equations' conditioning grows as the iterates near the boundary: on
  // degenerate programs (every constraint of a chain active) progress
  // stalls near 1e-10.
  double tolerance = 1e-9;
  int max_iterations = 100;
  // Read between iterations (and Gauss–Seidel sweeps): nonzero gives the
  // program up with Interrupted (rigid/interruption.h).
  const volatile int* interrupt = nullptr;
};

struct QpSolution {
  Eigen::VectorXd x;  // the minimiser
  Eigen::VectorXd z;  // ≥ 0, one per row of G: its multiplier (zero where the row is slack)
  int iterations = 0;
  // The largest of: the stationarity residual ‖Hx − c + Gᵀz‖∞ over
  // 1 + ‖c‖∞, the feasibility violation max(Gx − h)⁺ over 1 + ‖h‖∞, and
  // the complementarity sᵀz over 1 + |½xᵀHx − cᵀx|, with the slacks
  // s = h − Gx + E z: the work of percussions on rows that are not tight,
  // summed (a mean over the rows would let a large group's programs stop
  // with some rows pushing hard on pairs already parting).
  double kkt_residual = 0.0;
  bool converged = false;  // kkt_residual ≤ tolerance within max_iterations
  // Frictional Gauss–Seidel sweeps taken at the best residual they reached:
  // within kStalledAcceptance tolerances when they no longer approached the
  // tolerance, or within kLastResortResidual when their sweeps were spent
  // (gauss_seidel.h); converged is then true too.
  bool stalled = false;
};

// A program of one row and at most 12 unknowns (a binary collision) is
// solved in closed form instead, exactly to rounding (iterations 0) and
// without its compliance: its answer is unique.
// Never throws on a hard program: an infeasible or ill-conditioned one
// returns converged = false with the residual it reached. Throws
// std::invalid_argument when the sizes disagree.
QpSolution solve_convex_qp(const ConvexQp& qp, const QpSettings& settings = {});

}  // namespace sphero
