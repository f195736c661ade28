#include "engine/stability.h"

#include <fmt/format.h>

#include <numbers>
#include <string>

#include "engine/thread_team.h"
#include "engine/wall_steps.h"

namespace sphero {
namespace {

// The shortest contact period 2π sqrt(m_min / k) and what sets it.
struct ContactPeriod {
  double period = INFINITY;  // infinite when no body moves freely
  double lightest = 0.0, stiffest = 0.0;
  int material_a = 0, material_b = 0;
};

ContactPeriod shortest_contact_period(const World& w) {
  ContactPeriod p;
  double lightest = INFINITY, thinnest = INFINITY;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w.constraint[i].holds_all()) continue;
    lightest = std::min(lightest, w.mass[i]);
    thinnest = std::min(thinnest, w.radius[i] > 0.0 ? w.radius[i] : w.bounding_radius[i]);
  }
  if (!std::isfinite(lightest)) return p;
  for (int a = 0; a < w.material_count; ++a)
    for (int b = 0; b < w.material_count; ++b) {
      // Hertz: tangent stiffness at an overlap of 10% of the thinnest radius.
      const double k = w.law[a * w.material_count + b].stiffness_for_time_step(0.1 * thinnest);
      if (k > p.stiffest) p.stiffest = k, p.material_a = a, p.material_b = b;
    }
  p.lightest = lightest;
  p.period = 2.0 * std::numbers::pi * std::sqrt(lightest / p.stiffest);
  return p;
}

// Body i's step; a wrap into the periodic cell is not a move.
Vec2 step_of(const World& w, const std::vector<Vec2>& previous, std::size_t i) {
  Vec2 step = w.position[i] - previous[i];
  if (w.cell.periodic[0]) step.x -= w.cell.size.x * std::round(step.x / w.cell.size.x);
  if (w.cell.periodic[1]) step.y -= w.cell.size.y * std::round(step.y / w.cell.size.y);
  return step;
}

// How far body i moved this step.
double moved_of(const World& w, const std::vector<Vec2>& previous, std::size_t i) {
  return norm(step_of(w, previous, i));
}

bool not_finite(const World& w, std::size_t i) {
  return !is_finite(w.position[i]) || !is_finite(w.velocity[i]) || !std::isfinite(w.angle[i]) ||
         !std::isfinite(w.angular_velocity[i]);
}

[[noreturn]] void fail(const World& w, std::size_t i, const std::string& what, const StabilityContext& run) {
  const std::size_t named = run.body_numbers ? static_cast<std::size_t>((*run.body_numbers)[i]) : i;
  if (run.model == Model::rigid)
    throw InstabilityError(
        named,
        fmt::format(
            "unstable at step {} (t = {:g}): body {} ('{}') {}. Likely cause: the time step dt = {:g} lets bodies move "
            "through each other between collisions; lower dt",
            run.step, run.time, named, w.shape_name[i], what, run.dt));
  throw InstabilityError(
      named,
      fmt::format(
          "unstable at step {} (t = {:g}): body {} ('{}') {}. Likely cause: the time step dt = {:g} is too large "
          "for the contact stiffness (stable limit about {:g}) or the overlaps grew deeper than the sphero-radius; "
          "lower dt or the velocities",
          run.step, run.time, named, w.shape_name[i], what, run.dt, run.dt_limit));
}

}  // namespace

void check_step_and_skin(const EngineSettings& s) {
  if (!(s.dt > 0.0) || !std::isfinite(s.dt)) throw std::invalid_argument("the time step dt must be positive");
  if (!(s.verlet_distance > 0.0) || !std::isfinite(s.verlet_distance))
    throw std::invalid_argument("the Verlet distance must be positive");
}

double check_time_step(const World& w, const EngineSettings& s) {
  check_step_and_skin(s);
  const ContactPeriod p = shortest_contact_period(w);
  const double limit = 0.1 * p.period;
  if (s.dt > limit && !s.allow_large_time_step)
    throw std::invalid_argument(
        fmt::format("the time step dt = {} is above a tenth of the shortest contact period 2π sqrt(m_min/k_n) = {:g} "
                    "(m_min = {:g}, k_n = {:g} between materials {} and {}); use dt <= {}, or allow it explicitly",
                    s.dt, p.period, p.lightest, p.stiffest, p.material_a, p.material_b, limit));
  return limit;
}

// A fifth of check_time_step's limit, computed as that limit is.
double default_time_step(const World& world) { return 0.1 * shortest_contact_period(world).period / 5.0; }

// What looks_unstable's quick tests left open: a non-finite value
// somewhere, or a raw step beyond the bound (a wrap, or a real jump).
bool looks_unstable_after_all(const World& w, const std::vector<Vec2>& previous, std::size_t i) {
  if (!std::isfinite(state_sum(w, i)))
    return not_finite(w, i) || (!w.is_wall[i] && moved_of(w, previous, i) > 2.0 * w.bounding_radius[i]);
  if (w.is_wall[i]) return false;
  const double bound = 2.0 * w.bounding_radius[i];
  return norm2(w.position[i] - previous[i]) > bound * bound && moved_of(w, previous, i) > bound;
}

namespace {

// A pressure plate that crossed more than the thinnest grain's layer in a
// step may have passed through grains: the run stops before it goes on.
void check_plates(const World& w, const std::vector<Vec2>& previous, const StabilityContext& run) {
  for (const std::size_t i : *run.plates) {
    // Across the plate only: a shear plate's imposed slide along it, checked
    // before the run, crosses no grain.
    const Vec2 inward = w.constraint[i].inward;
    const Vec2 step = step_of(w, previous, i);
    const double moved = norm(inward) > 0.0 ? std::abs(dot(step, inward)) / norm(inward) : norm(step);
    const std::size_t named = run.body_numbers ? static_cast<std::size_t>((*run.body_numbers)[i]) : i;
    const std::string problem = wall_step_problem(w, i, static_cast<int>(named), moved, run.wall_step_bound, run.dt);
    if (problem.empty()) continue;
    throw InstabilityError(named, fmt::format("unstable at step {} (t = {:g}): the pressure plate's {}. Likely cause: "
                                              "a pressure the grains cannot hold at this dt; lower dt or the "
                                              "pressure, or drive the plate at a velocity",
                                              run.step, run.time, problem));
  }
}

}  // namespace

void check_stability(const World& w, const std::vector<Vec2>& previous, std::size_t first_unstable,
                     const EnergyLedger& ledger, std::size_t fastest, const StabilityContext& run) {
  // Found in parallel (by the integrator's last pass, or here), reported
  // for the lowest such body: the same message whatever the threads.
  std::size_t first_bad = first_unstable;
  if (first_bad == kNotChecked)
    first_bad = ThreadTeam::reduce(
        run.threads, w.size(), w.size(), [&](std::size_t i) { return looks_unstable(w, previous, i) ? i : w.size(); },
        std::less<>());
  if (first_bad < w.size()) {
    const std::size_t i = first_bad;
    if (not_finite(w, i)) fail(w, i, "has a position or velocity that is not a finite number", run);
    if (!run.swept)
      fail(w, i,
           fmt::format("moved {:g}, more than its own size {:g}, in one step", moved_of(w, previous, i),
                       2.0 * w.bounding_radius[i]),
           run);
  }
  if (run.plates) check_plates(w, previous, run);
  if (run.check_energy) check_energy(w, ledger, fastest, run);
}

namespace {

// Kinetic + elastic energy can only come from the initial kinetic and
// elastic energy, released gravitational energy and external work.
double energy_supply(const EnergyLedger& l, double driven_kinetic) {
  return l.initial_mechanical - l.gravitational + std::abs(l.external_work) + driven_kinetic;
}

bool holds_more_than(const EnergyLedger& l, double driven_kinetic, double times) {
  const double held = l.kinetic() + l.elastic();
  return held > times * std::abs(energy_supply(l, driven_kinetic)) + 1e-300 &&
         held > 1e-12 * std::abs(l.initial_mechanical) + 1e-300;
}

}  // namespace

bool beyond_energy_bound(const EnergyLedger& ledger, double driven_kinetic) {
  return holds_more_than(ledger, driven_kinetic, 100.0);
}

void check_energy(const World& w, const EnergyLedger& ledger, std::size_t fastest, const StabilityContext& run) {
  if (beyond_energy_bound(ledger, run.driven_kinetic))
    fail(w, fastest,
         fmt::format("is the fastest body while the kinetic + elastic energy {:g} exceeds a hundred times "
                     "all the energy the system was given ({:g})",
                     ledger.kinetic() + ledger.elastic(), energy_supply(ledger, run.driven_kinetic)),
         run);
}

bool near_energy_bound(const EnergyLedger& ledger, double driven_kinetic) {
  return holds_more_than(ledger, driven_kinetic, 50.0);
}

}  // namespace sphero
