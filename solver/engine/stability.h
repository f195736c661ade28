// Keeping a run stable: the time step against the stiffest contact before
// it starts, and the checks after every step that stop it, with a message
// naming the step, the body and the likely cause, when it goes unstable.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "engine/energy_ledger.h"
#include "engine/engine_settings.h"
#include "engine/world.h"

namespace sphero {

class InstabilityError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  InstabilityError(std::size_t body, const std::string& message) : std::runtime_error(message), body_(body) {}
  // The body the message names (its number in the whole world).
  std::size_t body() const { return body_; }

 private:
  std::size_t body_ = static_cast<std::size_t>(-1);
};

// dt and the Verlet distance positive and finite; throws
// std::invalid_argument naming the one that is not.
void check_step_and_skin(const EngineSettings& settings);

// The time step against the stiffest contact (after check_step_and_skin): dt must not exceed a tenth of
// 2π sqrt(m_min / k_n). Throws std::invalid_argument with the numbers unless
// allowed; returns the limit.
double check_time_step(const World& world, const EngineSettings& settings);

// A safe default: a fiftieth of the shortest contact period (a fifth of the
// largest dt check_time_step accepts). Infinite when nothing moves freely.
double default_time_step(const World& world);

// Not finite if any of body i's coordinates or velocities is not.
inline double state_sum(const World& w, std::size_t i) {
  return w.position[i].x + w.position[i].y + w.velocity[i].x + w.velocity[i].y + w.angle[i] + w.angular_velocity[i];
}
// The rare cases of looks_unstable, out of line.
[[gnu::pure]] bool looks_unstable_after_all(const World& w, const std::vector<Vec2>& previous, std::size_t i);
// Did body i blow up this step: a value that is not finite, or a move
// longer than its own size from `previous`? Per body and step, so the
// cheap tests come first: a NaN or infinity anywhere makes the sum
// non-finite, and a raw step within the bound is within it after taking
// out a periodic wrap too (which only shortens it).
inline bool looks_unstable(const World& w, const std::vector<Vec2>& previous, std::size_t i) {
  if (std::isfinite(state_sum(w, i))) {
    if (w.is_wall[i]) return false;
    const double bound = 2.0 * w.bounding_radius[i];
    if (!(norm2(w.position[i] - previous[i]) > bound * bound)) return false;
  }
  return looks_unstable_after_all(w, previous, i);
}

// What a stability check needs to know of the run.
struct StabilityContext {
  long step = 0;
  double time = 0.0, dt = 0.0, dt_limit = 0.0;
  int threads = 1;
  Model model = Model::soft;  // names the likely cause
  // The kinetic energy of vibrating walls now: the drive gives it and
  // takes it back each cycle, so the net external work does not hold it.
  double driven_kinetic = 0.0;
  // false: the energy check is the caller's (a rank's ledger is a part).
  bool check_energy = true;
  // Where the world is a part of a larger one: each body's number there,
  // which the messages name.
  const std::vector<int>* body_numbers = nullptr;
  // Walls that move as the grains push them (pressure plates), each step
  // checked against wall_step_bound (wall_steps.h).
  const std::vector<std::size_t>* plates = nullptr;
  double wall_step_bound = 0.0;
  // The step flew every body from collision to collision (stepping =
  // events, nothing handed over): a body that moved more than its size in
  // it met every contact on its way.
  bool swept = false;
};

// Throws InstabilityError for the lowest body that looks unstable
// (`first_unstable`, or searched here when it is kNotChecked), or when the
// kinetic and elastic energy exceed a hundred times all the energy the
// system was given (naming `fastest`).
constexpr std::size_t kNotChecked = static_cast<std::size_t>(-1);
void check_stability(const World& w, const std::vector<Vec2>& previous, std::size_t first_unstable,
                     const EnergyLedger& ledger, std::size_t fastest, const StabilityContext& run);

// The energy part of check_stability alone: throws InstabilityError when
// the kinetic and elastic energy exceed a hundred times all the energy the
// system was given.
void check_energy(const World& w, const EnergyLedger& ledger, std::size_t fastest, const StabilityContext& run);

// Whether the kinetic and elastic energy come within half of the energy
// check's bound: a run then checks its exact ledger (Engine::ledger), so
// that the decision is the same on any number of threads or ranks (the
// running sums are only the same to rounding).
bool near_energy_bound(const EnergyLedger& ledger, double driven_kinetic);
// Whether check_energy would stop the run on this ledger.
bool beyond_energy_bound(const EnergyLedger& ledger, double driven_kinetic);

}  // namespace sphero
