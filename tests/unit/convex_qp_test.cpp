// The interior-point solver of convex QPs: exact where the answer is known
// by hand, equal to a brute-force search over active sets on random
// programs, and honest (converged = false) where no answer exists.
#include <gtest/gtest.h>

#include <omp.h>
#include <Eigen/Dense>

#include <random>
#include <stdexcept>
#include <vector>

#include "rigid/convex_qp.h"

namespace sphero {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

Eigen::SparseMatrix<double> sparse(const MatrixXd& dense) { return dense.sparseView(); }

ConvexQp program(const MatrixXd& H, const VectorXd& c, const MatrixXd& G, const VectorXd& h) {
  return {sparse(H), c, sparse(G), h, VectorXd()};
}

TEST(ConvexQp, WithoutConstraintsItIsTheLinearSolve) {
  MatrixXd H(3, 3);
  H << 4, 1, 0, 1, 3, 1, 0, 1, 2;
  const VectorXd c = VectorXd::LinSpaced(3, 1, 3);
  const QpSolution s = solve_convex_qp(program(H, c, MatrixXd(0, 3), VectorXd(0)));
  ASSERT_TRUE(s.converged);
  EXPECT_LT((s.x - H.ldlt().solve(c)).lpNorm<Eigen::Infinity>(), 1e-14);
}

// min ½|x − p|² subject to a·x ≤ b: the projection of p on the half-plane,
// with multiplier (a·p − b)/|a|² when p lies outside it.
TEST(ConvexQp, ProjectionOnAHalfPlane) {
  const Eigen::Vector2d a(1.0, 2.0), p(3.0, 1.0);
  for (double b : {1.0, 10.0}) {
    MatrixXd G(1, 2);
    G.row(0) = a.transpose();
    const QpSolution s = solve_convex_qp(program(MatrixXd::Identity(2, 2), p, G, VectorXd::Constant(1, b)));
    ASSERT_TRUE(s.converged) << s.kkt_residual;
    const double excess = std::max(0.0, a.dot(p) - b) / a.squaredNorm();
    EXPECT_LT((s.x - (p - excess * a)).norm(), 1e-9) << "b = " << b;
    EXPECT_NEAR(s.z[0], excess, 1e-9);
  }
}

// The optimum by enumeration: the active set whose equality-constrained
// minimiser is feasible with non-negative multipliers.
std::pair<VectorXd, VectorXd> by_active_sets(const MatrixXd& H, const VectorXd& c, const MatrixXd& G,
                                             const VectorXd& h) {
  const int n = static_cast<int>(H.rows()), m = static_cast<int>(G.rows());
  for (int mask = 0; mask < (1 << m); ++mask) {
    std::vector<int> active;
    for (int k = 0; k < m; ++k)
      if (mask & (1 << k)) active.push_back(k);
    const int a = static_cast<int>(active.size());
    if (a > n) continue;
    MatrixXd K = MatrixXd::Zero(n + a, n + a);
    VectorXd rhs(n + a);
    K.topLeftCorner(n, n) = H;
    rhs.head(n) = c;
    for (int i = 0; i < a; ++i) {
      K.block(n + i, 0, 1, n) = G.row(active[i]);
      K.block(0, n + i, n, 1) = G.row(active[i]).transpose();
      rhs[n + i] = h[active[i]];
    }
    Eigen::FullPivLU<MatrixXd> lu(K);
    if (!lu.isInvertible()) continue;
    const VectorXd solution = lu.solve(rhs);
    VectorXd z = VectorXd::Zero(m);
    for (int i = 0; i < a; ++i) z[active[i]] = solution[n + i];
    const VectorXd x = solution.head(n);
    if (z.minCoeff() >= -1e-12 && (G * x - h).maxCoeff() <= 1e-12) return {x, z};
  }
  ADD_FAILURE() << "no active set is optimal";
  return {};
}

TEST(ConvexQp, EqualsTheActiveSetSearchOnRandomPrograms) {
  std::mt19937_64 generator(7);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 2 + trial % 5, m = 1 + trial % 9;
    MatrixXd L = MatrixXd::NullaryExpr(n, n, [&] { return normal(generator); });
    const MatrixXd H = L * L.transpose() + 0.1 * MatrixXd::Identity(n, n);
    const VectorXd c = VectorXd::NullaryExpr(n, [&] { return 3.0 * normal(generator); });
    const MatrixXd G = MatrixXd::NullaryExpr(m, n, [&] { return normal(generator); });
    const VectorXd feasible = VectorXd::NullaryExpr(n, [&] { return normal(generator); });
    const VectorXd h = G * feasible + VectorXd::NullaryExpr(m, [&] { return std::abs(normal(generator)); });
    const auto [x, z] = by_active_sets(H, c, G, h);
    const QpSolution s = solve_convex_qp(program(H, c, G, h));
    ASSERT_TRUE(s.converged) << "trial " << trial << ": residual " << s.kkt_residual;
    // Exact to round-off: the active set's KKT system polishes the iterate.
    EXPECT_LT((s.x - x).lpNorm<Eigen::Infinity>(), 1e-10 * (1.0 + x.lpNorm<Eigen::Infinity>())) << "trial " << trial;
    EXPECT_LT((s.z - z).lpNorm<Eigen::Infinity>(), 1e-9 * (1.0 + z.lpNorm<Eigen::Infinity>())) << "trial " << trial;
    EXPECT_LT(s.iterations, 40) << "trial " << trial;
  }
}

// Rows repeated and constraints active at the optimum all together (the
// degenerate programs of many contacts on one body).
TEST(ConvexQp, RedundantConstraintsConverge) {
  MatrixXd G(4, 2);
  G << 1, 0, 1, 0, 0, 1, 2, 0;
  const VectorXd h(Eigen::Vector4d(1, 1, 1, 2));
  const QpSolution s = solve_convex_qp(program(MatrixXd::Identity(2, 2), Eigen::Vector2d(5, 5), G, h));
  ASSERT_TRUE(s.converged) << s.kkt_residual;
  EXPECT_LT((s.x - Eigen::Vector2d(1, 1)).norm(), 1e-8);
  // The multipliers of the three copies of x ≤ 1 share the one force 4.
  EXPECT_NEAR(s.z[0] + s.z[1] + 2.0 * s.z[3], 4.0, 1e-7);
  EXPECT_NEAR(s.z[2], 4.0, 1e-7);
}

// The same program with compliant rows: the multipliers become unique,
// nearly those of least Σ ε z² among the rigid ones. With equal
// compliances the force on x is shared in proportion to the rows'
// coefficients (1, 1, 2): x = 1 + ε z₀, z₃ = 2 z₀, and x − 5 + 6 z₀ = 0
// give z₀ = 4/(6 + ε); y = 1 + ε z₂ = 5 − z₂ gives z₂ = 4/(1 + ε).
TEST(ConvexQp, CompliantRowsMakeRedundantMultipliersUnique) {
  MatrixXd G(4, 2);
  G << 1, 0, 1, 0, 0, 1, 2, 0;
  ConvexQp qp = program(MatrixXd::Identity(2, 2), Eigen::Vector2d(5, 5), G, Eigen::Vector4d(1, 1, 1, 2));
  const double epsilon = 1e-9;
  qp.compliance = VectorXd::Constant(4, epsilon);
  const QpSolution s = solve_convex_qp(qp);
  ASSERT_TRUE(s.converged) << s.kkt_residual;
  const double z0 = 4.0 / (6.0 + epsilon);
  // Along the rows' dependence the program is as flat as ε: the shares
  // hold to about the tolerance over ε's scale.
  EXPECT_NEAR(s.z[0], z0, 1e-8);
  EXPECT_NEAR(s.z[1], z0, 1e-8);
  EXPECT_NEAR(s.z[3], 2.0 * z0, 1e-8);
  EXPECT_NEAR(s.z[2], 4.0 / (1.0 + epsilon), 1e-12);
  EXPECT_NEAR(s.x[0], 1.0 + epsilon * z0, 1e-15);
  qp.compliance = VectorXd::Constant(3, epsilon);
  EXPECT_THROW(solve_convex_qp(qp), std::invalid_argument);
  qp.compliance = VectorXd::Constant(4, -epsilon);
  EXPECT_THROW(solve_convex_qp(qp), std::invalid_argument);
}

TEST(ConvexQp, AnInfeasibleProgramIsReportedNotHidden) {
  MatrixXd G(2, 1);
  G << 1, -1;  // x ≤ 0 and x ≥ 1
  const QpSolution s =
      solve_convex_qp(program(MatrixXd::Identity(1, 1), VectorXd::Zero(1), G, Eigen::Vector2d(0, -1)), {1e-9, 60});
  EXPECT_FALSE(s.converged);
  EXPECT_GT(s.kkt_residual, 1e-3);
  EXPECT_LE(s.iterations, 60);
}

TEST(ConvexQp, MismatchedSizesAreRefused) {
  EXPECT_THROW(solve_convex_qp(program(MatrixXd::Identity(2, 2), VectorXd::Zero(3), MatrixXd(0, 2), VectorXd(0))),
               std::invalid_argument);
}

// A chain of 3000 unknowns, each pair of neighbours held apart (the
// structure of a row of touching bodies): sparse, and as fast to converge.
TEST(ConvexQp, ALongSparseChainConverges) {
  const int n = 3000;
  std::vector<Eigen::Triplet<double>> h_entries, g_entries;
  for (int i = 0; i < n; ++i) h_entries.emplace_back(i, i, 2.0);
  for (int k = 0; k + 1 < n; ++k) {  // x_k+1 − x_k ≥ 0: −x_k+1 + x_k ≤ 0
    g_entries.emplace_back(k, k, 1.0);
    g_entries.emplace_back(k, k + 1, -1.0);
  }
  ConvexQp qp;
  qp.H.resize(n, n);
  qp.H.setFromTriplets(h_entries.begin(), h_entries.end());
  qp.G.resize(n - 1, n);
  qp.G.setFromTriplets(g_entries.begin(), g_entries.end());
  qp.c = VectorXd::LinSpaced(n, 1.0, -1.0);  // wants a decreasing x: the constraints make it constant
  qp.h = VectorXd::Zero(n - 1);
  const QpSolution s = solve_convex_qp(qp);
  ASSERT_TRUE(s.converged) << s.kkt_residual << " after " << s.iterations;
  EXPECT_LT((s.x - VectorXd::Constant(n, qp.c.mean() / 2.0)).lpNorm<Eigen::Infinity>(), 1e-7);
  EXPECT_LT(s.iterations, 40);
}

// A 100 × 100 grid of unknowns, each held within 0.01 of its four
// neighbours and pulled towards random targets: a 2D network like a heap's,
// large enough for CHOLMOD's supernodal factorisation. The KKT conditions
// are checked here, independently of the solver's own residual.
TEST(ConvexQp, AGridNetworkMeetsTheKktConditions) {
  const int side = 100, n = side * side;
  std::vector<Eigen::Triplet<double>> h_entries, g_entries;
  for (int i = 0; i < n; ++i) h_entries.emplace_back(i, i, 2.0);
  int rows = 0;
  const auto hold = [&](int a, int b) {  // x_a − x_b ≤ 0.01 and x_b − x_a ≤ 0.01
    for (const double sign : {1.0, -1.0}) {
      g_entries.emplace_back(rows, a, sign);
      g_entries.emplace_back(rows++, b, -sign);
    }
  };
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      if (x + 1 < side) hold(y * side + x, y * side + x + 1);
      if (y + 1 < side) hold(y * side + x, (y + 1) * side + x);
    }
  ConvexQp qp;
  qp.H.resize(n, n);
  qp.H.setFromTriplets(h_entries.begin(), h_entries.end());
  qp.G.resize(rows, n);
  qp.G.setFromTriplets(g_entries.begin(), g_entries.end());
  std::mt19937 random(7);
  std::uniform_real_distribution<double> target(-1.0, 1.0);
  qp.c = VectorXd::NullaryExpr(n, [&] { return target(random); });
  qp.h = VectorXd::Constant(rows, 0.01);
  const QpSolution s = solve_convex_qp(qp);
  ASSERT_TRUE(s.converged) << s.kkt_residual << " after " << s.iterations;
  const VectorXd slack = qp.h - qp.G * s.x;
  EXPECT_LT((qp.H * s.x - qp.c + qp.G.transpose() * s.z).lpNorm<Eigen::Infinity>(), 1e-8);
  EXPECT_GT(slack.minCoeff(), -1e-9);
  EXPECT_GE(s.z.minCoeff(), 0.0);
  // The tolerance bounds the products' sum relative to the objective
  // (about 10³ here); no single row strays far from it.
  EXPECT_LT(slack.cwiseProduct(s.z).lpNorm<Eigen::Infinity>(), 1e-6);
  EXPECT_GT((s.z.array() > 1e-6).count(), rows / 10);  // the constraints bind: not the free minimiser
}

// The work of percussions on rows that are not tight, sᵀz, summed over
// the rows and taken relative to the objective, is what the tolerance
// bounds: at the loosest tolerance a 7000-row network stops within 1e-4 of
// its energy, not within 1e-4 of it per row (a mean that let a large
// group's programs push hard on parting pairs, leaking overlaps).
TEST(ConvexQp, TheLoosestToleranceBoundsTheSummedComplementarity) {
  const int side = 60, n = side * side;
  std::vector<Eigen::Triplet<double>> h_entries, g_entries;
  for (int i = 0; i < n; ++i) h_entries.emplace_back(i, i, 2.0);
  int rows = 0;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x + 1 < side; ++x)
      for (const int other : {y * side + x + 1, ((y + 1) % side) * side + x}) {
        g_entries.emplace_back(rows, y * side + x, 1.0);  // x_a − x_b ≤ 0.01
        g_entries.emplace_back(rows++, other, -1.0);
      }
  ConvexQp qp;
  qp.H.resize(n, n);
  qp.H.setFromTriplets(h_entries.begin(), h_entries.end());
  qp.G.resize(rows, n);
  qp.G.setFromTriplets(g_entries.begin(), g_entries.end());
  std::mt19937 random(11);
  std::uniform_real_distribution<double> target(-1.0, 1.0);
  qp.c = VectorXd::NullaryExpr(n, [&] { return target(random); });
  qp.h = VectorXd::Constant(rows, 0.01);
  QpSettings loose;
  loose.tolerance = 1e-4;
  const QpSolution s = solve_convex_qp(qp, loose);
  ASSERT_TRUE(s.converged) << s.kkt_residual;
  const VectorXd slack = qp.h - qp.G * s.x;
  const double objective = 0.5 * s.x.dot(qp.H * s.x) - qp.c.dot(s.x);
  EXPECT_LE(slack.cwiseMax(0.0).dot(s.z), 1e-4 * (1.0 + std::abs(objective)));
  const QpSolution exact = solve_convex_qp(qp);
  ASSERT_TRUE(exact.converged);
  EXPECT_LT((s.x - exact.x).lpNorm<Eigen::Infinity>(), 1e-3);
}

// CHOLMOD's OpenMP regions run on the calling thread during a solve; the
// caller's own OpenMP setting comes back unchanged.
TEST(ConvexQp, TheCallersOpenMpSettingIsRestored) {
  omp_set_max_active_levels(3);
  MatrixXd G(1, 2);
  G << 1.0, 1.0;
  solve_convex_qp(program(MatrixXd::Identity(2, 2), VectorXd::Ones(2), G, VectorXd::Zero(1)));
  EXPECT_EQ(omp_get_max_active_levels(), 3);
}

}  // namespace
}  // namespace sphero
