#include "engine/engine.h"

#include <stdexcept>
#include <string>

#include "engine/dof.h"

namespace sphero {

std::string_view to_string(Integrator integrator) {
  return integrator == Integrator::velocity_verlet ? "verlet" : "gear";
}

Integrator integrator_from_string(std::string_view word) {
  if (word == "verlet" || word == "velocity-verlet") return Integrator::velocity_verlet;
  if (word == "gear") return Integrator::gear;
  throw std::invalid_argument("unknown integrator '" + std::string(word) + "': use verlet or gear");
}

Engine::Engine(World world, EngineSettings settings)
    : core_(std::move(world), settings), stepper_(make_stepper(settings.integrator)) {
  dt_limit_ = check_time_step(core_.world, core_.settings);
  core_.classify_bodies();
  if (core_.settings.threads < 1) throw std::invalid_argument("the number of threads must be at least 1");
  World& w = core_.world;
  for (std::size_t i = 0; i < w.size(); ++i)
    for (int k = 0; k < 3; ++k)
      if (w.constraint[i].held[k]) dof_velocity(w, static_cast<int>(i), k) = w.constraint[i].imposed_velocity[k];
  core_.neighbours.update(w);
  core_.evaluate_forces(0.0);
  stepper_->start(core_);
  core_.sum_body_energies(true);
  core_.ledger.initial_mechanical = core_.ledger.mechanical();
}

Engine::Engine(EngineSnapshot s)
    : core_(std::move(s.world), s.settings, std::move(s.neighbours)),
      stepper_(make_stepper(s.settings.integrator, {std::move(s.r2), std::move(s.r3), std::move(s.r4)})) {
  core_.ledger = s.ledger;
  core_.time = s.time;
  core_.step = s.step;
  core_.power = s.power;
  core_.deepest_overlap = s.deepest_overlap;
  core_.deepest_overlap_time = s.deepest_overlap_time;
  World& w = core_.world;
  // A checkpoint keeps the vertices but not the orientations derived from
  // the angles (the same numbers the running engine held).
  w.orientation.resize(w.size(), Vec2{1.0, 0.0});
  for (std::size_t i = 0; i < w.size(); ++i) update_orientation(w, i);
  mark_seams(w);
  dt_limit_ = check_time_step(w, core_.settings);
  core_.classify_bodies();
}

EngineSnapshot Engine::snapshot() const {
  EngineSnapshot s{core_.world, core_.settings, core_.neighbours.state(core_.world), core_.ledger, core_.time,
                   core_.step, core_.power, {}, {}, {}, core_.deepest_overlap, core_.deepest_overlap_time};
  if (core_.vertices_stale) update_world_vertices(s.world);
  StepperHistory history = stepper_->history();
  s.r2 = std::move(history.r2), s.r3 = std::move(history.r3), s.r4 = std::move(history.r4);
  return s;
}

void Engine::set_threads(int threads) {
  if (threads < 1) throw std::invalid_argument("the number of threads must be at least 1");
  core_.settings.threads = threads;
  core_.neighbours.set_threads(threads);
}

void Engine::step() {
  if (core_.constraints_may_have_changed) core_.classify_bodies();
  const double previous_power = core_.power;
  core_.first_unstable = kNotChecked;
  stepper_->step(core_);
  // The work of imposed loads and motions by the trapezoidal rule.
  core_.ledger.external_work += 0.5 * (previous_power + core_.power) * core_.settings.dt;
  core_.time += core_.settings.dt;
  ++core_.step;
  check_stability(core_.world, core_.previous_position, core_.first_unstable, core_.ledger, core_.fastest_body,
                  {core_.step, core_.time, core_.settings.dt, dt_limit_, core_.settings.threads});
}

void Engine::run(long steps) {
  for (long k = 0; k < steps; ++k) step();
}

}  // namespace sphero
