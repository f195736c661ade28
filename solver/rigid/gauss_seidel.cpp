#include "rigid/gauss_seidel.h"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

#include "rigid/contact_rows.h"
#include "rigid/interruption.h"

namespace sphero {
namespace {

using namespace contact_rows;

// One contact as its local problem sees it: the rows, the 2 × 2 block of
// the Delassus operator B M⁻¹ Bᵀ along (normal, tangent), the relative
// velocities before the collision, and the law.
// A relative velocity's rows over the bodies' masses and moments of
// inertia: the change of each side's (u_x, u_y, ω) per unit of percussion
// along it, so that the sweeps never read the bodies.
struct Push {
  int first_body = -1, second_body = -1;
  std::array<double, 3> first{}, second{};
};

Push push_of(const std::vector<RigidBodyState>& bodies, const Relative& r) {
  const auto scaled = [&](const Row& a) -> std::array<double, 3> {
    if (a.body < 0) return {};
    const RigidBodyState& s = bodies[static_cast<std::size_t>(a.body)];
    return {a.x / s.mass, a.y / s.mass, a.w / s.inertia};
  };
  return {r.first.body, r.second.body, scaled(r.first), scaled(r.second)};
}

struct LocalContact {
  Relative normal, tangent;
  Push normal_push, tangent_push;
  double w_nn = 0.0, w_nt = 0.0, w_tt = 0.0;
  double normal_before = 0.0, tangent_before = 0.0;  // n⁻, t⁻
  double lower = 0.0;                                // the bound on the mean normal velocity d(x)
  double xi_n = 0.0, xi_t = 0.0, mu = 0.0;
  double compliance = 0.0;  // ε
  // The earliest contact with the same constraint (mark_twins), or -1.
  std::ptrdiff_t twin_of = -1;
  // 1/det of each pair of modes' 2 × 2 system (LocalProblem), by normal
  // mode × 4 + tangential mode: the systems' matrices are the contact's
  // own, only their right-hand sides change from sweep to sweep.
  std::array<double, 8> inverse_det{};
  bool twin() const { return twin_of >= 0; }
};

using Percussions = std::vector<std::array<double, 2>>;

LocalContact local_contact(const std::vector<RigidBodyState>& bodies, const CollisionContact& c) {
  LocalContact l;
  l.normal = relative(bodies, c, c.normal);
  l.tangent = relative(bodies, c, perp(c.normal));
  l.normal_push = push_of(bodies, l.normal);
  l.tangent_push = push_of(bodies, l.tangent);
  l.w_nn = inverse_mass_coupling(bodies, l.normal, l.normal);
  l.w_nt = inverse_mass_coupling(bodies, l.normal, l.tangent);
  l.w_tt = inverse_mass_coupling(bodies, l.tangent, l.tangent);
  l.normal_before = l.normal.at(bodies);
  l.tangent_before = l.tangent.at(bodies);
  l.lower = (c.elastic ? 0.0 : 0.5 * l.normal_before) + c.bias;
  l.xi_n = c.elastic ? 0.0 : c.normal_dissipation;
  l.xi_t = c.tangential_dissipation;
  l.mu = c.friction;
  l.compliance = contact_compliance(bodies, l.normal);
  return l;
}

// A relative velocity's rows in a fixed order (by body, walls last), so
// that a contact seen from either side compares equal.
std::array<Row, 2> ordered_rows(const Relative& r) {
  const auto key = [](const Row& a) { return a.body < 0 ? std::numeric_limits<int>::max() : a.body; };
  return key(r.first) <= key(r.second) ? std::array<Row, 2>{r.first, r.second} : std::array<Row, 2>{r.second, r.first};
}

bool nearly(double a, double b) { return std::abs(a - b) <= 1e-12 * (1.0 + std::abs(a) + std::abs(b)); }

bool same_rows(const Relative& a, const Relative& b) {
  const std::array<Row, 2> p = ordered_rows(a), q = ordered_rows(b);
  for (int i = 0; i < 2; ++i)
    if (p[i].body != q[i].body || !nearly(p[i].x, q[i].x) || !nearly(p[i].y, q[i].y) || !nearly(p[i].w, q[i].w))
      return false;
  return nearly(a.wall, b.wall);
}

bool same_constraint(const LocalContact& a, const LocalContact& b) {
  return same_rows(a.normal, b.normal) && same_rows(a.tangent, b.tangent) && nearly(a.lower, b.lower) &&
         nearly(a.xi_n, b.xi_n) && nearly(a.xi_t, b.xi_t) && nearly(a.mu, b.mu) && nearly(a.compliance, b.compliance);
}

// A vertex touching a vertex is seen from both sides (a vertex of A against
// the edge of B that ends there, and the reverse): the same constraint
// twice, between which the sweeps would trade percussion, and friction
// with it, without end. Marks every contact that repeats an earlier one;
// the earliest carries the percussion of all.
void mark_twins(std::vector<LocalContact>& local) {
  std::vector<std::size_t> order(local.size());
  std::iota(order.begin(), order.end(), 0);
  const auto pair_of = [&](std::size_t k) {
    const std::array<Row, 2> r = ordered_rows(local[k].normal);
    return std::pair{r[0].body, r[1].body};
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return pair_of(a) < pair_of(b); });
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = i + 1; j < order.size() && pair_of(order[j]) == pair_of(order[i]); ++j) {
      const std::size_t first = std::min(order[i], order[j]), later = std::max(order[i], order[j]);
      if (!local[first].twin() && !local[later].twin() && same_constraint(local[first], local[later]))
        local[later].twin_of = static_cast<std::ptrdiff_t>(first);
    }
}

// Moves each twin's percussion onto the earliest contact with its rows.
void gather_twins(const std::vector<LocalContact>& local, Percussions& percussion) {
  for (std::size_t k = 0; k < local.size(); ++k) {
    if (!local[k].twin()) continue;
    std::array<double, 2>& first = percussion[static_cast<std::size_t>(local[k].twin_of)];
    first[0] += percussion[k][0], first[1] += percussion[k][1];
    percussion[k] = {0.0, 0.0};
  }
}

// The velocities after the collision, (u_x, u_y, ω) per body, kept as the
// percussions change.
struct Velocities {
  Eigen::VectorXd u;
  double along(const Relative& r) const { return r.at({}, &u); }
  void add(const Push& push, double percussion) {
    add_side(push.first_body, push.first, percussion);
    add_side(push.second_body, push.second, percussion);
  }
  void add_side(int body, const std::array<double, 3>& push, double percussion) {
    if (body < 0) return;
    const auto at = static_cast<Eigen::Index>(3 * body);
    u[at] += percussion * push[0];
    u[at + 1] += percussion * push[1];
    u[at + 2] += percussion * push[2];
  }
};

// One linear equation a P_n + b P_t = r of a local problem's mode.
struct Equation {
  double a, b, r;
};

// The local problem of one contact: with a_n, a_t the relative velocities
// after the collision without its own percussion, n⁺ = a_n + w_nn P_n +
// w_nt P_t and t⁺ = a_t + w_nt P_n + w_tt P_t. The normal law holds in one
// of two modes (free: P_n = −ξ_n d, with d = ½(n⁺ + n⁻) ≥ lower; bound:
// d + ε z = lower, z = P_n + ξ_n d ≥ 0), the tangential in one of its own;
// each pair of modes is a 2 × 2 linear system, and a pair whose
// inequalities hold is an answer. With friction and a lever arm (w_nt ≠ 0)
// more than one pair may hold: the answer nearest the contact's current
// percussion is taken, so that the sweeps do not jump between them.
class LocalProblem {
 public:
  LocalProblem(const LocalContact& c, double a_n, double a_t) : c_(c), a_n_(a_n), a_t_(a_t) {}

  // The percussion, and by how much (a relative velocity) it breaks its
  // mode's inequalities: zero where a mode holds them; otherwise (at a
  // mode's edge, by rounding) the least violated mode's, which the sweeps
  // count in their residual.
  struct Answer {
    std::array<double, 2> percussion{0.0, 0.0};
    double violation = std::numeric_limits<double>::infinity();
  };

  Answer solve(const std::array<double, 2>& current) const {
    Answer best;
    double nearest = std::numeric_limits<double>::infinity();
    for (const bool bound : {false, true})
      for (int tangential = 0; tangential < tangential_modes(); ++tangential) {
        const std::array<double, 2> p =
            solve_pair(normal_equation(bound), tangential_equation(tangential),
                       c_.inverse_det[4 * static_cast<std::size_t>(bound) + static_cast<std::size_t>(tangential)]);
        const double violation = std::max(normal_violation(bound, p), tangential_violation(tangential, p));
        // Without friction the law has one answer: the first mode that
        // keeps its inequalities is it.
        if (violation <= 0.0 && c_.mu == 0.0) return {p, 0.0};
        if (violation <= 0.0) {
          const double distance = (p[0] - current[0]) * (p[0] - current[0]) + (p[1] - current[1]) * (p[1] - current[1]);
          if (distance < nearest) nearest = distance, best = {p, 0.0};
          continue;
        }
        if (best.violation > 0.0 && violation < best.violation) best = {p, violation};
      }
    return best;
  }

 private:
  double normal_after(const std::array<double, 2>& p) const { return a_n_ + c_.w_nn * p[0] + c_.w_nt * p[1]; }
  double tangent_after(const std::array<double, 2>& p) const { return a_t_ + c_.w_nt * p[0] + c_.w_tt * p[1]; }
  double mean_normal(const std::array<double, 2>& p) const { return 0.5 * (normal_after(p) + c_.normal_before); }

  Equation normal_equation(bool bound) const {
    const double open = a_n_ + c_.normal_before;
    if (!bound)  // P_n + ½ ξ_n (open + w_nn P_n + w_nt P_t) = 0
      return {1.0 + 0.5 * c_.xi_n * c_.w_nn, 0.5 * c_.xi_n * c_.w_nt, -0.5 * c_.xi_n * open};
    // ½ (1 + ε ξ_n)(open + w_nn P_n + w_nt P_t) + ε P_n = lower
    const double k = 0.5 * (1.0 + c_.compliance * c_.xi_n);
    return {k * c_.w_nn + c_.compliance, k * c_.w_nt, c_.lower - k * open};
  }

  // Without friction one mode, ξ_t's; with it: sticking, sliding either way,
  // and no tangential percussion where the normal one is not a push.
  int tangential_modes() const { return c_.mu > 0.0 ? 4 : 1; }

  Equation tangential_equation(int mode) const {
    if (c_.mu == 0.0)  // P_t + ½ ξ_t (a_t + t⁻ + w_nt P_n + w_tt P_t) = 0
      return {0.5 * c_.xi_t * c_.w_nt, 1.0 + 0.5 * c_.xi_t * c_.w_tt, -0.5 * c_.xi_t * (a_t_ + c_.tangent_before)};
    if (mode == 0) return {c_.w_nt, c_.w_tt, -a_t_};  // sticking: t⁺ = 0
    if (mode == 3) return {0.0, 1.0, 0.0};            // P_t = 0
    const double slip = mode == 1 ? 1.0 : -1.0;       // sliding along ±perp(N): P_t = ∓μ P_n
    return {slip * c_.mu, 1.0, 0.0};
  }

  static std::array<double, 2> solve_pair(const Equation& e, const Equation& f, double inverse_det) {
    return {(e.r * f.b - e.b * f.r) * inverse_det, (e.a * f.r - e.r * f.a) * inverse_det};
  }

 public:
  // Fills c.inverse_det: a singular pair of modes gets NaN, which gives
  // its candidate NaN and fails every check.
  static void tabulate(LocalContact& c) {
    const LocalProblem problem(c, 0.0, 0.0);
    for (const bool bound : {false, true})
      for (int tangential = 0; tangential < problem.tangential_modes(); ++tangential) {
        const Equation e = problem.normal_equation(bound), f = problem.tangential_equation(tangential);
        const double det = e.a * f.b - e.b * f.a;
        c.inverse_det[4 * static_cast<std::size_t>(bound) + static_cast<std::size_t>(tangential)] =
            det == 0.0 || !std::isfinite(det) ? std::nan("") : 1.0 / det;
      }
  }

 private:
  // How far a candidate breaks its mode's inequalities, beyond rounding
  // (≤ 0: it keeps them).
  double normal_violation(bool bound, const std::array<double, 2>& p) const {
    const double d = mean_normal(p);
    const double scale = 1e-13 * (std::abs(c_.lower) + std::abs(a_n_) + std::abs(c_.normal_before) + 1e-300);
    if (!bound) return c_.lower - d - scale;
    const double z = p[0] + c_.xi_n * d;
    return (-z - 1e-13 * (std::abs(p[0]) + 1e-300)) * c_.w_nn;
  }

  double tangential_violation(int mode, const std::array<double, 2>& p) const {
    if (c_.mu == 0.0) return -1.0;
    const double push = std::max(p[0], 0.0), rounding = 1e-13 * (std::abs(p[0]) + std::abs(p[1]) + 1e-300);
    const double t = tangent_after(p);
    const double t_rounding = 1e-13 * (std::abs(a_t_) + std::abs(c_.w_nt * p[0]) + std::abs(c_.w_tt * p[1]) + 1e-300);
    switch (mode) {
      case 0:
        return (std::abs(p[1]) - c_.mu * push - rounding) * c_.w_tt;
      case 3:
        return (c_.mu * p[0] - rounding) * c_.w_tt;
      default: {
        const double slip = mode == 1 ? 1.0 : -1.0;  // t⁺ along the slip, P_n a push
        return std::max(-slip * t - t_rounding, (-p[0] - rounding) * c_.w_tt);
      }
    }
  }

  const LocalContact& c_;
  double a_n_, a_t_;
};

// The largest change of a contact's relative velocities, normal or
// tangential, between two sets of body velocities. Redundant contacts
// (a face pressed at both ends of two edges) trade percussion among
// themselves for many sweeps while the bodies' velocities stand still:
// the sweeps are measured by what moves the bodies.
double largest_relative_change(const std::vector<LocalContact>& local, const Eigen::VectorXd& moved) {
  double largest = 0.0;
  // The bodies' rows only: a moving wall's velocity is no change.
  const auto change = [&](const Relative& r) { return std::abs(r.first.dot({}, &moved) + r.second.dot({}, &moved)); };
  for (const LocalContact& c : local) largest = std::max({largest, change(c.normal), change(c.tangent)});
  return largest;
}

// How far a contact's bodies, at the velocities after the collision, break
// its normal law beyond the yield its percussion allows: lower − d − ε z⁺
// (≤ 0 where it holds).
double breach(const LocalContact& c, double normal_percussion, const Velocities& after) {
  const double d = 0.5 * (after.along(c.normal) + c.normal_before);
  return c.lower - d - c.compliance * std::max(normal_percussion + c.xi_n * d, 0.0);
}

double largest_breach(const std::vector<LocalContact>& local, const Percussions& percussion, const Velocities& after) {
  double largest = 0.0;
  for (std::size_t k = 0; k < local.size(); ++k)
    if (!local[k].twin()) largest = std::max(largest, breach(local[k], percussion[k][0], after));
  return largest;
}

// A sweep that moves no body is taken as converged unless a contact breaches
// its law by more than kJamBreach of the velocity scale: rows of one face
// that trade percussion while the bodies stand still leave smaller
// breaches, which more sweeps would remove slowly and to no purpose.
constexpr double kJamBreach = 1e-3;

// A sweep that moves no body can still leave contacts overlapping: grains
// jammed between walls, whose percussions then all grow by the same amount
// each sweep, towards the compliance's yield (collision.h) thousands of
// millions of sweeps away. Watches the breach of sweeps that move no body;
// when kJamSweeps of them in a row have not lessened it by kJamProgress, the
// program is jammed.
class JamWatch {
 public:
  // True when the program is jammed; `still` says the sweep moved no body.
  bool jammed(bool still, double breach) {
    if (still && breach >= (1.0 - kJamProgress) * watched_) return ++sweeps_ >= kJamSweeps;
    watched_ = still ? breach : std::numeric_limits<double>::infinity(), sweeps_ = 0;
    return false;
  }

 private:
  static constexpr int kJamSweeps = 100;
  static constexpr double kJamProgress = 0.01;
  double watched_ = std::numeric_limits<double>::infinity();
  int sweeps_ = 0;
};

// One sweep: each contact in turn moves its percussion `relaxation` of the
// way to the one its law gives with the others' held (all the way at 1).
// Returns the largest violation of a contact's law left by rounding
// (LocalProblem::Answer).
double sweep(const std::vector<LocalContact>& local, double relaxation, Percussions& percussion, Velocities& after) {
  double largest_violation = 0.0;
  for (std::size_t k = 0; k < local.size(); ++k) {
    const LocalContact& c = local[k];
    if (c.twin()) continue;
    std::array<double, 2>& p = percussion[k];
    const double a_n = after.along(c.normal) - c.w_nn * p[0] - c.w_nt * p[1];
    const double a_t = after.along(c.tangent) - c.w_nt * p[0] - c.w_tt * p[1];
    const LocalProblem::Answer answer = LocalProblem(c, a_n, a_t).solve(p);
    const std::array<double, 2> step{
        relaxation * (answer.percussion[0] - p[0]), relaxation * (answer.percussion[1] - p[1])};
    after.add(c.normal_push, step[0]);
    after.add(c.tangent_push, step[1]);
    largest_violation = std::max(largest_violation, answer.violation);
    p[0] += step[0], p[1] += step[1];
  }
  return largest_violation;
}

// The nonsmooth nonlinear conjugate gradient of Silcowitz, Niebe and
// Erleben (2010): the sweep's step r_k = x_k − x_{k−1} taken as a descent
// direction, and the iterate carried further along p_k = r_k + β p_{k−1},
// β = |r_k|²/|r_{k−1}|² (Fletcher–Reeves), restarting where β > 1. Chains
// of contacts that pass a load on settle in a fraction of plain sweeps; the
// next sweep puts every contact back on its law, so the extrapolation only
// chooses where it starts.
class ConjugateDirection {
 public:
  explicit ConjugateDirection(std::size_t contacts) : direction_(contacts, {0.0, 0.0}) {}

  void extrapolate(const std::vector<LocalContact>& local, const Percussions& swept_from, Percussions& percussion,
                   Velocities& after) {
    double step_norm = 0.0;
    for (std::size_t k = 0; k < local.size(); ++k)
      for (int i = 0; i < 2; ++i) step_norm += std::pow(percussion[k][i] - swept_from[k][i], 2);
    const double beta = last_step_norm_ > 0.0 ? step_norm / last_step_norm_ : 0.0;
    last_step_norm_ = step_norm;
    if (!(beta <= 1.0)) {
      std::fill(direction_.begin(), direction_.end(), std::array<double, 2>{0.0, 0.0});
      return;
    }
    for (std::size_t k = 0; k < local.size(); ++k) {
      std::array<double, 2>& d = direction_[k];
      const std::array<double, 2> further{beta * d[0], beta * d[1]};
      d = {further[0] + percussion[k][0] - swept_from[k][0], further[1] + percussion[k][1] - swept_from[k][1]};
      percussion[k][0] += further[0], percussion[k][1] += further[1];
      after.add(local[k].normal_push, further[0]);
      after.add(local[k].tangent_push, further[1]);
    }
  }

 private:
  Percussions direction_;
  double last_step_norm_ = 0.0;
};

// The best iterate of a frictional program's sweeps, kept to be returned if
// they stall (within kStalledAcceptance tolerances) or are spent (within
// kLastResortResidual), over all its attempts.
class BestIterate {
 public:
  BestIterate(bool frictional, double stall_residual)
      : frictional_(frictional),
        stall_residual_(stall_residual),
        kept_residual_(std::max(stall_residual, kLastResortResidual)) {}

  // Keeps the iterate if it is the best so far within kLastResortResidual;
  // true when the best is within the stall residual and kStallSweeps sweeps
  // (counted over the attempts) have not bettered it.
  bool stalled(long sweep, double residual, const Percussions& percussion, const Velocities& after) {
    if (!frictional_ || !(residual <= kept_residual_)) return false;
    if (residual < residual_) {
      residual_ = residual, sweep_ = sweep;
      percussion_ = percussion, velocities_ = after.u;
      return false;
    }
    return residual_ <= stall_residual_ && sweep - sweep_ >= kStallSweeps;
  }

  // Puts the best iterate back, if it is within `acceptable`.
  void restore(double acceptable, QpSolution& sweeps, Percussions& percussion, Velocities& after) const {
    if (sweep_ < 0 || residual_ > acceptable) return;
    percussion = percussion_, after.u = velocities_;
    sweeps.kkt_residual = residual_;
    sweeps.converged = sweeps.stalled = true;
  }
  double stall_residual() const { return stall_residual_; }

 private:
  bool frictional_;
  double stall_residual_, kept_residual_;
  double residual_ = std::numeric_limits<double>::infinity();
  long sweep_ = -1;
  Percussions percussion_;
  Eigen::VectorXd velocities_;
};

// What the sweeps of one program share.
struct SweepProblem {
  const std::vector<LocalContact>& local;
  double velocity_scale;
  bool frictional;
};

// Frictional sweeps that wander start again from the warm start, each time
// moving each percussion only part of the way: damping that lets a program
// of colliding frictional grains settle where full steps cycle. Each
// attempt gets these many sweeps, the last the rest of max_sweeps.
struct Relaxation {
  double relaxation;
  int sweeps;
};
inline constexpr std::array<Relaxation, 3> kRelaxations{{{1.0, 2000}, {0.5, 6000}, {0.25, 0}}};

// What a run of sweeps ended with: its sweeps and residual, and whether
// it found the program jammed (JamWatch).
struct SweepsRun {
  QpSolution sweeps;
  bool jammed = false;
};

// Sweeps from the given percussions until converged, jammed, stalled
// (frictional programs: BestIterate) or `budget` sweeps; full ones carried
// along conjugate directions. A sweep that moves no body converges only
// where no contact is left breaching its law by kJamBreach.
SweepsRun run_sweeps(const SweepProblem& problem, const CollisionSettings& settings, double relaxation, int budget,
                     long swept_before, BestIterate& best, Percussions& percussion, Velocities& after) {
  const auto& [local, velocity_scale, frictional] = problem;
  SweepsRun run;
  QpSolution& sweeps = run.sweeps;
  ConjugateDirection acceleration(local.size());
  JamWatch jam;
  const bool accelerated = relaxation == 1.0;
  for (sweeps.iterations = 1; sweeps.iterations <= budget; ++sweeps.iterations) {
    give_up_if_asked(settings.program.interrupt);
    const Eigen::VectorXd start = after.u;
    // Only the conjugate directions need where the sweep started.
    const Percussions swept_from = accelerated ? percussion : Percussions{};
    const double largest_violation = sweep(local, relaxation, percussion, after);
    const double change = largest_relative_change(local, after.u - start);
    // A relaxed sweep moves `relaxation` of the way: measured as a whole one.
    sweeps.kkt_residual = std::max(change / relaxation, largest_violation) / velocity_scale;
    if (!std::isfinite(sweeps.kkt_residual)) break;
    const bool still = sweeps.kkt_residual <= settings.program.tolerance;
    if (still) {
      const double breached = largest_breach(local, percussion, after) / velocity_scale;
      if (breached > kJamBreach) sweeps.kkt_residual = breached;
    }
    if (sweeps.kkt_residual <= settings.program.tolerance) {
      sweeps.converged = true;
      break;
    }
    if (jam.jammed(still, sweeps.kkt_residual)) {
      run.jammed = sweeps.converged = true;
      break;
    }
    if (best.stalled(swept_before + sweeps.iterations, sweeps.kkt_residual, percussion, after)) break;
    // Relaxed sweeps damp frictional programs that cycle; carried along
    // conjugate directions they would not be.
    if (accelerated) acceleration.extrapolate(local, swept_from, percussion, after);
  }
  sweeps.iterations = std::min(sweeps.iterations, budget);
  if (!sweeps.converged) best.restore(best.stall_residual(), sweeps, percussion, after);
  return run;
}

// The contacts of a jammed program (JamWatch) that cannot make way: those
// its bodies overlap, and those whose percussions keep growing over a few
// more sweeps, which carry the jam to the walls driving it.
std::vector<std::size_t> jammed_contacts(const SweepProblem& problem, double tolerance, Percussions percussion,
                                         Velocities after) {
  constexpr int kSweeps = 10;
  const auto& [local, velocity_scale, frictional] = problem;
  const Percussions held = percussion;
  for (int k = 0; k < kSweeps; ++k) sweep(local, 1.0, percussion, after);
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < local.size(); ++k) {
    const LocalContact& c = local[k];
    if (c.twin()) continue;
    const double growth = c.w_nn * (percussion[k][0] - held[k][0]);
    if (breach(c, held[k][0], after) > kJammedYield * velocity_scale || growth > kSweeps * tolerance * velocity_scale)
      out.push_back(k);
  }
  return out;
}

}  // namespace

std::string_view to_string(RigidSolver solver) {
  return solver == RigidSolver::gauss_seidel ? "gauss_seidel" : "interior_point";
}

CollisionResult resolve_by_gauss_seidel(const std::vector<RigidBodyState>& bodies,
                                        const std::vector<CollisionContact>& contacts,
                                        const CollisionSettings& settings) {
  const auto n = static_cast<Eigen::Index>(bodies.size());
  Velocities after{Eigen::VectorXd(3 * n)};
  Eigen::VectorXd before(3 * n);
  for (Eigen::Index b = 0; b < n; ++b) {
    const RigidBodyState& s = bodies[static_cast<std::size_t>(b)];
    before.segment<3>(3 * b) << s.velocity.x, s.velocity.y, s.angular_velocity;
    after.u.segment<3>(3 * b) << s.velocity.x + s.impulse.x / s.mass, s.velocity.y + s.impulse.y / s.mass,
        s.angular_velocity + s.torque_impulse / s.inertia;
  }
  std::vector<LocalContact> local;
  local.reserve(contacts.size());
  double velocity_scale = 1.0;
  for (const CollisionContact& c : contacts) {
    local.push_back(local_contact(bodies, c));
    LocalProblem::tabulate(local.back());
    velocity_scale = std::max(velocity_scale, 1.0 + std::abs(local.back().lower + local.back().normal.wall));
  }
  mark_twins(local);
  // Warm: the sweeps start from the contacts' guesses, already applied (a
  // twin's guess applied through its earliest twin's rows, the same).
  Percussions percussion;
  percussion.reserve(contacts.size());
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    percussion.push_back({contacts[k].warm_normal, contacts[k].warm_tangential});
    after.add(local[k].normal_push, contacts[k].warm_normal);
    after.add(local[k].tangent_push, contacts[k].warm_tangential);
  }
  gather_twins(local, percussion);

  const bool frictional = std::any_of(local.begin(), local.end(), [](const LocalContact& c) { return c.mu > 0.0; });
  CollisionResult out;
  QpSolution& sweeps = out.program;
  const Percussions warm = percussion;
  const Eigen::VectorXd warm_velocities = after.u;
  int used = 0;
  bool jammed = false;
  BestIterate best(frictional, kStalledAcceptance * settings.program.tolerance);
  for (std::size_t attempt = 0; attempt < kRelaxations.size(); ++attempt) {
    const bool last = !frictional || attempt + 1 == kRelaxations.size();
    const int budget =
        last ? settings.max_sweeps - used : std::min(kRelaxations[attempt].sweeps, settings.max_sweeps - used);
    SweepsRun run = run_sweeps({local, velocity_scale, frictional}, settings, kRelaxations[attempt].relaxation, budget,
                               used, best, percussion, after);
    sweeps = run.sweeps, jammed = run.jammed;
    used += sweeps.iterations;
    if (sweeps.converged || last || used >= settings.max_sweeps) break;
    percussion = warm, after.u = warm_velocities;
  }
  if (!sweeps.converged) best.restore(kLastResortResidual, sweeps, percussion, after);
  sweeps.iterations = used;

  if (jammed)
    out.jammed = jammed_contacts({local, velocity_scale, frictional}, settings.program.tolerance, percussion, after);
  const Eigen::VectorXd mean = 0.5 * (before + after.u);
  for (Eigen::Index b = 0; b < n; ++b) {
    out.velocity.push_back({after.u[3 * b], after.u[3 * b + 1]});
    out.angular_velocity.push_back(after.u[3 * b + 2]);
  }
  for (std::size_t k = 0; k < local.size(); ++k) {
    const LocalContact& c = local[k];
    const auto [p_n, p_t] = percussion[k];
    const double d = c.normal.at({}, &mean), t = c.tangent.at({}, &mean);
    if (!jammed && c.compliance * (p_n + c.xi_n * d) > kJammedYield * velocity_scale) out.jammed.push_back(k);
    out.normal_percussion.push_back(p_n);
    out.tangential_percussion.push_back(p_t);
    out.dissipated -= p_n * d + p_t * t;
    out.wall_work += p_n * c.normal.wall + p_t * c.tangent.wall;
  }
  return out;
}

}  // namespace sphero
