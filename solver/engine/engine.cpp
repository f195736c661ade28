#include "engine/engine.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/dof.h"
#include "engine/wall_steps.h"
#include "engine/wall_vibration.h"

namespace sphero {

std::string_view to_string(Integrator integrator) {
  return integrator == Integrator::velocity_verlet ? "verlet" : "gear";
}

Integrator integrator_from_string(std::string_view word) {
  if (word == "verlet" || word == "velocity-verlet") return Integrator::velocity_verlet;
  if (word == "gear") return Integrator::gear;
  throw std::invalid_argument("unknown integrator '" + std::string(word) + "': use verlet or gear");
}

std::string_view to_string(NeighbourStrategy strategy) {
  return strategy == NeighbourStrategy::cells ? "cells" : "triangulation";
}

NeighbourStrategy neighbour_strategy_from_string(std::string_view word) {
  if (word == "cells") return NeighbourStrategy::cells;
  if (word == "triangulation") return NeighbourStrategy::triangulation;
  throw std::invalid_argument("unknown neighbour strategy '" + std::string(word) + "': use cells or triangulation");
}

std::string_view to_string(Model model) { return model == Model::soft ? "soft" : "rigid"; }

Model model_from_string(std::string_view word) {
  if (word == "soft") return Model::soft;
  if (word == "rigid") return Model::rigid;
  throw std::invalid_argument("unknown model '" + std::string(word) + "': use soft or rigid");
}

namespace {

// The soft model's limit from the stiffest contact; the rigid model has
// no contact period (its step is limited by the gap, docs/MODEL.md §7).
double step_limit_of(const World& w, const EngineSettings& s) {
  if (s.model == Model::soft) return check_time_step(w, s);
  check_step_and_skin(s);
  return INFINITY;
}

}  // namespace

Engine::Engine(World world, EngineSettings settings)
    : core_(std::move(world), settings), stepper_(make_stepper(settings)) {
  dt_limit_ = step_limit_of(core_.world, core_.settings);
  check_wall_motions();
  core_.classify_bodies();
  if (core_.settings.threads < 1) throw std::invalid_argument("the number of threads must be at least 1");
  World& w = core_.world;
  for (std::size_t i = 0; i < w.size(); ++i) {
    try {
      check_vibration(w.constraint[i]);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("body {}: {}", i, e.what()));
    }
    for (int k = 0; k < 3; ++k)
      if (w.constraint[i].held[k]) dof_velocity(w, static_cast<int>(i), k) = w.constraint[i].imposed_velocity[k];
  }
  if (core_.settings.adaptive_verlet_distance)
    core_.neighbours.start_skin_at(starting_skin(w, core_.settings.verlet_distance));
  core_.neighbours.update(w);
  const bool soft = core_.settings.model == Model::soft;
  if (soft) core_.evaluate_forces(0.0);
  stepper_->start(core_);
  core_.sum_body_energies(soft);
  core_.ledger.initial_mechanical = ledger().mechanical();
}

// Imposed wall motions checked against the step, and the pressure plates
// found whose steps the run checks.
void Engine::check_wall_motions() {
  const World& w = core_.world;
  check_wall_steps(w, core_.settings);
  wall_step_bound_ = sphero::wall_step_bound(w);
  plates_.clear();
  for (std::size_t i = 0; i < w.size(); ++i)
    if (w.is_wall[i] && !w.constraint[i].holds_all()) plates_.push_back(i);
}

EnergyLedger Engine::ledger() const {
  stepper_->sync_host(core_);
  EnergyLedger l = core_.ledger;
  core_.exact_ledger().round_into(l);
  return l;
}

Engine::Engine(EngineSnapshot s)
    : core_(std::move(s.world), s.settings, std::move(s.neighbours)),
      stepper_(make_stepper(s.settings, {std::move(s.r2), std::move(s.r3), std::move(s.r4)})) {
  core_.ledger = s.ledger;
  core_.books = s.books ? *s.books : books_of(s.ledger);
  core_.time = s.time;
  core_.step = s.step;
  core_.power = s.power;
  core_.deepest_overlap = s.deepest_overlap;
  core_.deepest_overlap_time = s.deepest_overlap_time;
  core_.body_steps = s.body_steps;
  lineage_ = s.lineage;
  World& w = core_.world;
  // A checkpoint keeps the vertices but not the orientations derived from
  // the angles (the same numbers the running engine held).
  derive_orientations_and_seams(w);
  // (A moved state keeps its scalars: the skin it was given, or 0.)
  if (s.neighbours.verlet_distance <= 0.0 && core_.settings.adaptive_verlet_distance)
    core_.neighbours.start_skin_at(starting_skin(w, core_.settings.verlet_distance));
  dt_limit_ = step_limit_of(w, core_.settings);
  check_wall_motions();
  core_.classify_bodies();
  // Each body's power at the step's end, as the stepper took it (the state
  // holds the forces and velocities it was taken from).
  if (core_.settings.model == Model::soft) core_.take_constraint_powers();
}

EngineSnapshot Engine::snapshot_of(std::unique_ptr<Engine> engine) {
  Engine& e = *engine;
  e.stepper_->sync_host(e.core_);
  EngineCore& core = e.core_;
  NeighbourListState list = core.neighbours.state(core.world);
  const EnergyLedger ledger = e.ledger();
  StepperHistory history = e.stepper_->history();
  if (core.vertices_stale) update_world_vertices(core.world);
  EngineSnapshot s{std::move(core.world),
                   core.settings,
                   std::move(list),
                   ledger,
                   core.time,
                   core.step,
                   core.power,
                   std::move(history.r2),
                   std::move(history.r3),
                   std::move(history.r4),
                   core.deepest_overlap,
                   core.deepest_overlap_time,
                   core.books,
                   e.lineage_,
                   core.body_steps};
  return s;
}

EngineSnapshot Engine::snapshot() const {
  stepper_->sync_host(core_);
  EngineSnapshot s{core_.world,
                   core_.settings,
                   core_.neighbours.state(core_.world),
                   core_.ledger,
                   core_.time,
                   core_.step,
                   core_.power,
                   {},
                   {},
                   {},
                   core_.deepest_overlap,
                   core_.deepest_overlap_time,
                   core_.books,
                   lineage_,
                   core_.body_steps};
  s.ledger = ledger();
  if (core_.vertices_stale) update_world_vertices(s.world);
  StepperHistory history = stepper_->history();
  s.r2 = std::move(history.r2), s.r3 = std::move(history.r3), s.r4 = std::move(history.r4);
  return s;
}

void Engine::use_stepper(std::unique_ptr<Stepper> stepper) {
  core_.neighbours.forget_contact_geometry();  // the new stepper may keep the bodies elsewhere
  stepper_->leave(core_);
  stepper_ = std::move(stepper);
  stepper_->start(core_);
}

void Engine::set_threads(int threads) {
  if (threads < 1) throw std::invalid_argument("the number of threads must be at least 1");
  core_.settings.threads = threads;
  core_.neighbours.set_threads(threads);
}

void Engine::set_neighbour_strategy(NeighbourStrategy strategy) {
  core_.settings.neighbours = strategy;
  core_.neighbours.set_strategy(strategy);
}

void Engine::step() {
  core_.neighbours.forget_contact_geometry();
  if (keep_contact_geometry_ && stepper_->ends_with_contact_pass()) core_.neighbours.request_contact_geometry();
  keep_contact_geometry_ = false;
  const bool soft = core_.settings.model == Model::soft;
  if (core_.constraints_may_have_changed) {
    // The trapezoid then starts from the new constraints' power.
    core_.classify_bodies();
    if (soft) core_.take_constraint_powers();
  }
  std::vector<double> previous_powers = core_.constraint_powers;
  if (!core_.vibrating.empty()) {
    // A part of a world spread over ranks leaves the walls' books (every
    // rank drives them) to its caller.
    drive_work_ = drive_vibrating_walls(core_.world, core_.vibrating, core_.time, core_.settings.dt);
    if (core_.counted.empty()) core_.book_work(drive_work_);
    // The trapezoid's first power with this step's wall velocities: the
    // work is then the mean of the step's end forces times the walls' chord.
    if (soft) previous_powers = core_.constraint_powers_now();
  }
  core_.first_unstable = kNotChecked;
  // The rigid model's walls feel no forces, so whatever moves them also
  // lifts them against the fields: that work is their potential's change.
  const bool rigid = core_.settings.model == Model::rigid;
  const double walls_potential = rigid ? potential_energy_of(core_.world, core_.constrained) : 0.0;
  stepper_->step(core_);
  if (rigid) core_.book_work(potential_energy_of(core_.world, core_.constrained) - walls_potential);
  work_before_trapezoid_ = core_.books.external_work;
  trapezoid_first_powers_ = std::move(previous_powers);
  book_constraint_work();
  core_.time += core_.settings.dt;
  ++core_.step;
  const StabilityContext context{core_.step,
                                 core_.time,
                                 core_.settings.dt,
                                 dt_limit_,
                                 core_.settings.threads,
                                 core_.settings.model,
                                 kinetic_energy_of(core_.world, core_.vibrating),
                                 check_energy_,
                                 body_numbers_.empty() ? nullptr : &body_numbers_,
                                 plates_.empty() ? nullptr : &plates_,
                                 wall_step_bound_,
                                 stepper_->swept_last_step()};
  const EnergyLedger checked =
      check_energy_ && near_energy_bound(core_.ledger, context.driven_kinetic) ? ledger() : core_.ledger;
  try {
    check_stability(core_.world, core_.previous_position, core_.first_unstable, checked, core_.fastest_body, context);
  } catch (const InstabilityError&) {
    // The message describes the body as it is: a stepper that keeps the
    // bodies elsewhere brings them back, and the check says it again.
    stepper_->sync_host(core_);
    check_stability(core_.world, core_.previous_position, core_.first_unstable, checked, core_.fastest_body, context);
    throw;
  }
}

// The work of imposed loads and motions over the step, by the trapezoidal
// rule, body by body (so that ranks book the same terms).
void Engine::book_constraint_work() {
  ExactSum& work = core_.books.external_work;
  work = work_before_trapezoid_;
  add_trapezoid_work(work, trapezoid_first_powers_, core_.constraint_powers, core_.settings.dt);
  core_.ledger.external_work = work.value();
}

void Engine::retake_constraint_power() {
  core_.take_constraint_powers();
  book_constraint_work();
}

void Engine::evaluate_forces_now() {
  stepper_->sync_host(core_);
  if (core_.settings.model == Model::soft) {
    core_.evaluate_forces_now();
    stepper_->host_changed(core_);
    return;
  }
  // The rigid model's forces are its last step's percussions: only the
  // energies are taken anew.
  update_world_vertices(core_.world);
  core_.vertices_stale = false;
  core_.sum_body_energies(false);
}

void Engine::evaluate_last_pass_again() {
  stepper_->sync_host(core_);
  core_.evaluate_last_pass_again();
  stepper_->host_changed(core_);
}

void Engine::run(long steps) {
  for (long k = 0; k < steps; ++k) step();
}

}  // namespace sphero
