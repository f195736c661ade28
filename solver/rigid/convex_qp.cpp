#include "rigid/convex_qp.h"

#include <omp.h>
#include <Eigen/CholmodSupport>
#include <Eigen/Dense>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "rigid/interruption.h"

namespace sphero {
namespace {

using Vector = Eigen::VectorXd;
using Sparse = Eigen::SparseMatrix<double>;

// The largest α ≤ 1 keeping v + α dv > 0, stepped back to `fraction` of it.
double step_to_boundary(const Vector& v, const Vector& dv, double fraction) {
  double alpha = 1.0;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (dv[i] < 0.0) alpha = std::min(alpha, -fraction * v[i] / dv[i]);
  return alpha;
}

// CHOLMOD's supernodal factorisation opens an OpenMP region of a fixed
// four threads for each supernode's assembly. On the many small supernodes
// of a contact network that doubles the factorisation's time, and takes
// cores that the engine's own threads may hold; with the regions made
// inactive every one runs on the calling thread. The setting is the
// process's, and programs may be solved on several threads at once: the
// first program in sets it, the last one out restores the caller's.
class SerialOpenMp {
 public:
  SerialOpenMp() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (inside_++ == 0) saved_ = omp_get_max_active_levels(), omp_set_max_active_levels(0);
  }
  ~SerialOpenMp() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (--inside_ == 0) omp_set_max_active_levels(saved_);
  }
  SerialOpenMp(const SerialOpenMp&) = delete;
  SerialOpenMp& operator=(const SerialOpenMp&) = delete;

 private:
  static inline std::mutex mutex_;
  static inline int inside_ = 0;
  static inline int saved_ = 0;
};

// The polish's rounds of active-set changes at most, each a factorisation,
// and the steps of iterative refinement of each.
constexpr int kPolishRounds = 4;
constexpr int kRefinements = 3;

class InteriorPoint {
 public:
  InteriorPoint(const ConvexQp& qp, const QpSettings& settings) : qp_(qp), settings_(settings) {
    const Eigen::Index n = qp.H.rows(), m = qp.G.rows();
    if (qp.H.cols() != n || qp.c.size() != n || qp.G.cols() != n || qp.h.size() != m ||
        (qp.compliance.size() != 0 && qp.compliance.size() != m))
      throw std::invalid_argument("convex QP: the sizes of H, c, G, h and the compliance disagree");
    compliance_ = qp.compliance.size() == m ? qp.compliance : Vector::Zero(m);
    if (m > 0 && !(compliance_.minCoeff() >= 0.0))
      throw std::invalid_argument("convex QP: a negative or undefined compliance");
    // The solver reports a failed factorisation by its status, not on stderr.
    normal_.cholmod().print = 0;
    Gt_ = qp.G.transpose();
    // The pattern of H + Gᵀ W G is that of H + Gᵀ G whatever the weights:
    // analysed once, and its values refilled in place each iteration. The
    // factorisation reads the lower triangle only.
    normal_matrix_ = Sparse(qp.H + Gt_ * qp.G).triangularView<Eigen::Lower>();
    normal_matrix_.makeCompressed();
    map_normal_matrix();
    normal_.analyzePattern(normal_matrix_);
  }

  QpSolution solve() {
    start();
    QpSolution out;
    for (out.iterations = 0;; ++out.iterations) {
      give_up_if_asked(settings_.interrupt);
      residuals();
      out.kkt_residual = kkt_residual();
      if (out.kkt_residual <= settings_.tolerance || out.iterations == settings_.max_iterations ||
          !std::isfinite(out.kkt_residual))
        break;
      if (!iterate()) break;
    }
    if (qp_.G.rows() > 0 && out.kkt_residual < 1e-3) polish(out.kkt_residual);
    out.converged = out.kkt_residual <= settings_.tolerance;
    out.x = x_;
    out.z = z_;
    return out;
  }

 private:
  // CVXOPT's start: the least-squares point of the KKT system with unit
  // weights, its slacks and multipliers shifted to be positive.
  void start() {
    const Eigen::Index m = qp_.G.rows();
    factorize(Vector::Ones(m));
    x_ = normal_.solve(qp_.c + Gt_ * qp_.h);
    z_ = qp_.G * x_ - qp_.h;
    s_ = -z_;
    if (m == 0) return;
    shift_into_interior(s_);
    shift_into_interior(z_);
  }

  // CVXOPT's shift: a vector not well inside the positive orthant (its
  // least entry below 1e-8 of its size) is moved to a least entry of 1.
  // A start exactly on a bound would weigh its row by 1/0.
  static void shift_into_interior(Vector& v) {
    const double low = v.minCoeff();
    if (low <= 1e-8 * std::max(1.0, v.norm())) v.array() += 1.0 - low;
  }

  // Where each entry of H, and each product G_ki G_kj of a row of G, adds
  // into the lower triangle of the normal matrix's values; the products of
  // row k are products_[row_start_[k] .. row_start_[k + 1]).
  void map_normal_matrix() {
    const auto at = [&](Eigen::Index row, Eigen::Index col) {
      const int* begin = normal_matrix_.innerIndexPtr() + normal_matrix_.outerIndexPtr()[col];
      const int* end = normal_matrix_.innerIndexPtr() + normal_matrix_.outerIndexPtr()[col + 1];
      const int* found = std::lower_bound(begin, end, static_cast<int>(row));
      if (found == end || *found != row)
        throw std::logic_error("convex QP: an entry outside the normal matrix's pattern");
      return static_cast<Eigen::Index>(found - normal_matrix_.innerIndexPtr());
    };
    for (Eigen::Index col = 0; col < qp_.H.outerSize(); ++col)
      for (Sparse::InnerIterator it(qp_.H, col); it; ++it)
        if (it.row() >= col) h_entries_.push_back({at(it.row(), col), it.value()});
    row_start_.reserve(static_cast<std::size_t>(Gt_.outerSize()) + 1);
    row_start_.push_back(0);
    for (Eigen::Index k = 0; k < Gt_.outerSize(); ++k) {
      for (Sparse::InnerIterator a(Gt_, k); a; ++a)
        for (Sparse::InnerIterator b(Gt_, k); b; ++b)
          if (a.row() >= b.row()) products_.push_back({at(a.row(), b.row()), a.value() * b.value()});
      row_start_.push_back(products_.size());
    }
  }

  void factorize(const Vector& weights) {
    double* values = normal_matrix_.valuePtr();
    std::fill(values, values + normal_matrix_.nonZeros(), 0.0);
    for (const HEntry& e : h_entries_) values[e.at] += e.value;
    for (std::size_t k = 0; k + 1 < row_start_.size(); ++k) {
      const double w = weights[static_cast<Eigen::Index>(k)];
      for (std::size_t e = row_start_[k]; e < row_start_[k + 1]; ++e)
        values[products_[e].at] += w * products_[e].product;
    }
    normal_.factorize(normal_matrix_);
  }

  void residuals() {
    Hx_ = qp_.H * x_;
    Gx_ = qp_.G * x_;
    dual_ = Hx_ - qp_.c + Gt_ * z_;
    primal_ = Gx_ + s_ - compliance_.cwiseProduct(z_) - qp_.h;
  }

  // After residuals(), whose products it reuses.
  double kkt_residual() const {
    const Eigen::Index m = qp_.G.rows();
    const double objective = 0.5 * x_.dot(Hx_) - qp_.c.dot(x_);
    const double stationarity = dual_.lpNorm<Eigen::Infinity>() / (1.0 + qp_.c.lpNorm<Eigen::Infinity>());
    if (m == 0) return stationarity;
    const double violation = std::max(0.0, (Gx_ - compliance_.cwiseProduct(z_) - qp_.h).maxCoeff()) /
                             (1.0 + qp_.h.lpNorm<Eigen::Infinity>());
    const double gap = s_.dot(z_) / (1.0 + std::abs(objective));
    return std::max({stationarity, violation, gap});
  }

  // The rows' weights in the normal equations, Z (S + E Z)⁻¹ ≤ 1/E.
  Vector weights() const { return z_.cwiseQuotient(s_ + compliance_.cwiseProduct(z_)); }

  // The Newton direction for the complementarity target r_c = s∘z − target,
  // with D = S + E Z: (H + Gᵀ D⁻¹Z G) dx = −r_d − Gᵀ D⁻¹ (Z r_p − r_c).
  void direction(const Vector& r_c, Vector& dx, Vector& ds, Vector& dz) const {
    const Vector d = s_ + compliance_.cwiseProduct(z_);
    const Vector scaled = (z_.cwiseProduct(primal_) - r_c).cwiseQuotient(d);
    dx = normal_.solve(-dual_ - Gt_ * scaled);
    const Vector Gdx = qp_.G * dx;
    dz = z_.cwiseProduct(Gdx).cwiseQuotient(d) + scaled;
    ds = -primal_ - Gdx + compliance_.cwiseProduct(dz);
  }

  bool iterate() {
    const Eigen::Index m = qp_.G.rows();
    factorize(weights());
    if (normal_.info() != Eigen::Success) return false;
    Vector dx, ds, dz;
    if (m == 0) {  // an unconstrained program: one Newton step is exact
      direction(Vector(), dx, ds, dz);
      x_ += dx;
      return true;
    }
    // Predictor: the affine direction, towards s∘z = 0.
    const Vector sz = s_.cwiseProduct(z_);
    direction(sz, dx, ds, dz);
    const double alpha_aff = std::min(step_to_boundary(s_, ds, 1.0), step_to_boundary(z_, dz, 1.0));
    const double mu = sz.sum() / static_cast<double>(m);
    const double mu_aff = (s_ + alpha_aff * ds).dot(z_ + alpha_aff * dz) / static_cast<double>(m);
    const double sigma = std::pow(mu_aff / mu, 3);
    // Corrector: centred towards σμ, with the predictor's second-order term.
    const Vector r_c = sz + ds.cwiseProduct(dz) - Vector::Constant(m, sigma * mu);
    direction(r_c, dx, ds, dz);
    const double alpha = std::min(step_to_boundary(s_, ds, 0.99), step_to_boundary(z_, dz, 0.99));
    if (!(dx.allFinite() && ds.allFinite() && dz.allFinite())) return false;  // keep the last finite iterate
    x_ += alpha * dx;
    s_ += alpha * ds;
    z_ += alpha * dz;
    return true;
  }

  // Interior points approach a constraint that is tight with a zero
  // multiplier (a disk whose dissipation exactly stops it, bodies moving
  // together) only as the square root of the gap, where z and s are alike.
  // The polish guesses the active set from the iterate (z > s), solves its
  // equality-constrained KKT system, drops the rows whose multiplier comes
  // out negative and adds those violated, a few rounds, and keeps the point
  // it reaches when its residual is smaller.
  void polish(double& residual) {
    const Eigen::Index m = qp_.G.rows();
    std::vector<bool> active(static_cast<std::size_t>(m));
    for (Eigen::Index k = 0; k < m; ++k) active[static_cast<std::size_t>(k)] = z_[k] > s_[k];
    const double slack_scale = 1e-12 * (1.0 + qp_.h.lpNorm<Eigen::Infinity>());
    const double z_scale = 1e-12 * (1.0 + qp_.c.lpNorm<Eigen::Infinity>());
    for (int round = 0; round < kPolishRounds; ++round) {
      Vector x, z;
      if (!solve_on_active_set(active, x, z)) return;
      const Vector slack = qp_.h - qp_.G * x + compliance_.cwiseProduct(z);
      bool changed = false;
      for (Eigen::Index k = 0; k < m; ++k) {
        const auto row = static_cast<std::size_t>(k);
        if (active[row] ? z[k] < -z_scale : slack[k] < -slack_scale) active[row] = !active[row], changed = true;
      }
      if (!changed) return keep_if_good(x, z.cwiseMax(0.0), slack.cwiseMax(0.0), residual);
    }
  }

  // The KKT system of the rows in `active` held as equalities,
  // G_a x − E_a z_a = h_a; z is zero on the other rows.
  bool solve_on_active_set(const std::vector<bool>& active, Vector& x, Vector& z) {
    bool compliant = true;
    for (Eigen::Index k = 0; k < qp_.G.rows(); ++k)
      if (active[static_cast<std::size_t>(k)] && !(compliance_[k] > 0.0)) compliant = false;
    return compliant ? solve_compliant_active_set(active, x, z) : solve_rigid_active_set(active, x, z);
  }

  // With E_a > 0, z_a = E_a⁻¹ (G_a x − h_a) leaves the normal equations
  // (H + G_aᵀ E_a⁻¹ G_a) x = c + G_aᵀ E_a⁻¹ h_a, of the pattern the interior
  // point factorises already. Their condition grows as 1/E, which the
  // rounding of z = E⁻¹(...) would show: a few steps of iterative
  // refinement on the whole KKT system take it back to rounding.
  bool solve_compliant_active_set(const std::vector<bool>& active, Vector& x, Vector& z) {
    const Eigen::Index m = qp_.G.rows();
    Vector inverse_compliance = Vector::Zero(m);
    for (Eigen::Index k = 0; k < m; ++k)
      if (active[static_cast<std::size_t>(k)]) inverse_compliance[k] = 1.0 / compliance_[k];
    factorize(inverse_compliance);
    if (normal_.info() != Eigen::Success) return false;
    // The correction (dx, dz) for the residuals r_x = c − Hx − Gᵀz and, on
    // the active rows, r_z = h − Gx + E z.
    const auto correct = [&](const Vector& r_x, const Vector& r_z, Vector& dx, Vector& dz) {
      dx = normal_.solve(r_x + Gt_ * inverse_compliance.cwiseProduct(r_z));
      dz = inverse_compliance.cwiseProduct(qp_.G * dx - r_z);
    };
    x = Vector::Zero(qp_.H.rows());
    z = Vector::Zero(m);
    for (int pass = 0; pass <= kRefinements; ++pass) {
      const Vector r_x = qp_.c - qp_.H * x - Gt_ * z;
      const Vector r_z =
          (inverse_compliance.array() > 0.0).select(qp_.h - qp_.G * x + compliance_.cwiseProduct(z), 0.0);
      Vector dx, dz;
      correct(r_x, r_z, dx, dz);
      x += dx;
      z += dz;
    }
    return x.allFinite() && z.allFinite();
  }

  // Without compliance the system is indefinite, and singular where the
  // active rows are dependent: a sparse LU, which says so.
  bool solve_rigid_active_set(const std::vector<bool>& active, Vector& x, Vector& z) const {
    const Eigen::Index n = qp_.H.rows(), m = qp_.G.rows();
    std::vector<Eigen::Index> rows;
    for (Eigen::Index k = 0; k < m; ++k)
      if (active[static_cast<std::size_t>(k)]) rows.push_back(k);
    const auto a = static_cast<Eigen::Index>(rows.size());
    std::vector<Eigen::Triplet<double>> entries;
    for (Eigen::Index col = 0; col < n; ++col)
      for (Sparse::InnerIterator it(qp_.H, col); it; ++it) entries.emplace_back(it.row(), col, it.value());
    Vector rhs(n + a);
    rhs.head(n) = qp_.c;
    for (Eigen::Index i = 0; i < a; ++i) {
      const Eigen::Index k = rows[static_cast<std::size_t>(i)];
      rhs[n + i] = qp_.h[k];
      for (Sparse::InnerIterator it(Gt_, k); it; ++it) {
        entries.emplace_back(n + i, it.row(), it.value());
        entries.emplace_back(it.row(), n + i, it.value());
      }
    }
    Sparse kkt(n + a, n + a);
    kkt.setFromTriplets(entries.begin(), entries.end());
    Eigen::SparseLU<Sparse> lu;
    lu.compute(kkt);
    if (lu.info() != Eigen::Success) return false;
    const Vector solution = lu.solve(rhs);
    if (lu.info() != Eigen::Success || !solution.allFinite()) return false;
    x = solution.head(n);
    z = Vector::Zero(m);
    for (Eigen::Index i = 0; i < a; ++i) z[rows[static_cast<std::size_t>(i)]] = solution[n + i];
    return true;
  }

  void keep_if_good(const Vector& x, const Vector& z, const Vector& s, double& residual) {
    const Vector saved_x = x_, saved_s = s_, saved_z = z_;
    x_ = x, z_ = z, s_ = s;
    residuals();
    const double polished = kkt_residual();
    if (polished < residual) {
      residual = polished;
      return;
    }
    x_ = saved_x, s_ = saved_s, z_ = saved_z;
    residuals();
  }

  struct HEntry {
    Eigen::Index at;
    double value;
  };
  struct Product {
    Eigen::Index at;
    double product;
  };

  const ConvexQp& qp_;
  const QpSettings& settings_;
  Sparse Gt_;
  Sparse normal_matrix_;
  std::vector<HEntry> h_entries_;
  std::vector<Product> products_;
  std::vector<std::size_t> row_start_;
  // CHOLMOD chooses a simplicial LDLᵀ for small programs and a supernodal
  // LLᵀ (after the AMD or METIS ordering that fills less) for large ones.
  Eigen::CholmodDecomposition<Sparse, Eigen::Lower> normal_;
  Vector compliance_;
  Vector x_, s_, z_, dual_, primal_, Hx_, Gx_;
};

}  // namespace

namespace {

// A program with one row and few unknowns (a binary collision) in closed
// form: the unconstrained minimiser x₀ = H⁻¹c where it keeps the row,
// else x₀ − z H⁻¹g with z = (g·x₀ − h) / (g·H⁻¹g), the row active. Exact
// to rounding, where the interior point stops at its tolerance: an
// elastic collision then keeps the energy to 1e-15 rather than 1e-9.
constexpr Eigen::Index kClosedFormUnknowns = 12;

std::optional<QpSolution> solve_one_row(const ConvexQp& qp, const QpSettings& settings) {
  if (qp.G.rows() != 1 || qp.H.rows() > kClosedFormUnknowns) return std::nullopt;
  const Eigen::MatrixXd H(qp.H);
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(H);
  if (ldlt.info() != Eigen::Success || !ldlt.isPositive()) return std::nullopt;
  const Eigen::VectorXd g = Eigen::MatrixXd(qp.G).row(0).transpose();
  QpSolution out;
  out.x = ldlt.solve(qp.c);
  out.z = Eigen::VectorXd::Zero(1);
  const double beyond = g.dot(out.x) - qp.h[0];
  if (beyond > 0.0) {
    const Eigen::VectorXd w = ldlt.solve(g);
    const double z = beyond / g.dot(w);
    if (!(z >= 0.0) || !std::isfinite(z)) return std::nullopt;
    out.x -= z * w;
    out.z[0] = z;
  }
  const double stationarity =
      (H * out.x - qp.c + g * out.z[0]).lpNorm<Eigen::Infinity>() / (1.0 + qp.c.lpNorm<Eigen::Infinity>());
  const double slack = qp.h[0] - g.dot(out.x);
  const double objective = 0.5 * out.x.dot(H * out.x) - qp.c.dot(out.x);
  out.kkt_residual = std::max({stationarity, std::max(-slack, 0.0) / (1.0 + std::abs(qp.h[0])),
                               std::abs(slack * out.z[0]) / (1.0 + std::abs(objective))});
  out.converged = out.kkt_residual <= settings.tolerance;
  return out;
}

}  // namespace

QpSolution solve_convex_qp(const ConvexQp& qp, const QpSettings& settings) {
  if (auto exact = solve_one_row(qp, settings)) return *exact;
  const SerialOpenMp serial;
  return InteriorPoint(qp, settings).solve();
}

}  // namespace sphero
