#include "engine/gear_stepper.h"

#include "engine/capacity.h"
#include "engine/dof.h"
#include "engine/thread_team.h"

namespace sphero {
namespace {

// Gear's corrector coefficients for second-order equations with five
// values (Allen & Tildesley, Computer Simulation of Liquids, table E.2).
constexpr double kGear[5] = {19.0 / 120.0, 3.0 / 4.0, 1.0, 1.0 / 2.0, 1.0 / 12.0};

}  // namespace

// The scaled derivatives from the forces of the current state (the higher
// ones zero).
void GearStepper::start(EngineCore& core) {
  const World& w = core.world;
  h_.r2.assign(w.size(), {0.0, 0.0, 0.0});
  h_.r3 = h_.r2;
  h_.r4 = h_.r2;
  const double half_dt2 = 0.5 * core.settings.dt * core.settings.dt;
  for (std::size_t i = 0; i < w.size(); ++i)
    for (int k = 0; k < 3; ++k)
      if (!w.constraint[i].held[k])
        h_.r2[i][k] = dof_force(w, static_cast<int>(i), k) * dof_inverse_mass(w, static_cast<int>(i), k) * half_dt2;
}

// Taylor series (Pascal's triangle) on the scaled derivatives; held DOFs
// move at their imposed velocity.
void GearStepper::predict(EngineCore& core) {
  World& w = core.world;
  const double dt = core.settings.dt;
  ThreadTeam::for_each(core.settings.threads, w.size(), [&](std::size_t i) {
    const int b = static_cast<int>(i);
    for (int k = 0; k < 3; ++k) {
      double& x = dof_position(w, b, k);
      double& v = dof_velocity(w, b, k);
      if (w.constraint[i].held[k]) {
        v = w.constraint[i].imposed_velocity[k];
        x += v * dt;
        h_.r2[i][k] = h_.r3[i][k] = h_.r4[i][k] = 0.0;
        continue;
      }
      double r1 = v * dt;
      double& r2 = h_.r2[i][k];
      double& r3 = h_.r3[i][k];
      double& r4 = h_.r4[i][k];
      x += r1 + r2 + r3 + r4;
      r1 += 2.0 * r2 + 3.0 * r3 + 4.0 * r4;
      r2 += 3.0 * r3 + 6.0 * r4;
      r3 += 4.0 * r4;
      v = r1 / dt;
    }
  });
}

void GearStepper::correct(EngineCore& core) {
  World& w = core.world;
  const double dt = core.settings.dt;
  const double half_dt2 = 0.5 * dt * dt;
  ThreadTeam::for_each(core.settings.threads, w.size(), [&](std::size_t i) {
    const int b = static_cast<int>(i);
    for (int k = 0; k < 3; ++k) {
      if (w.constraint[i].held[k]) continue;
      const double correction = dof_force(w, b, k) * dof_inverse_mass(w, b, k) * half_dt2 - h_.r2[i][k];
      dof_position(w, b, k) += kGear[0] * correction;
      dof_velocity(w, b, k) += kGear[1] * correction / dt;
      h_.r2[i][k] += kGear[2] * correction;
      h_.r3[i][k] += kGear[3] * correction;
      h_.r4[i][k] += kGear[4] * correction;
    }
  });
}

void GearStepper::step(EngineCore& core) {
  if (h_.r2.size() != core.world.size()) start(core);
  core.previous_position = core.world.position;
  predict(core);
  core.update_lists_or_orientations();
  core.evaluate_forces(core.settings.dt);
  if (core.complete_shared_forces) core.complete_shared_forces();
  correct(core);
  // Energies belong to the corrected state, at the step's end: re-evaluate
  // the contacts there without advancing their springs (the cost of a
  // second contact pass).
  core.evaluate_forces_now(core.settings.dt);
  core.sum_body_energies(true);
}

Stepper::BodyHistory GearStepper::history_of(std::size_t body) const {
  if (body >= h_.r2.size()) return {};
  const auto &r2 = h_.r2[body], &r3 = h_.r3[body], &r4 = h_.r4[body];
  return {r2[0], r2[1], r2[2], r3[0], r3[1], r3[2], r4[0], r4[1], r4[2]};
}

void GearStepper::set_history_of(std::size_t body, const BodyHistory& h) {
  if (body >= h_.r2.size()) return;
  h_.r2[body] = {h[0], h[1], h[2]};
  h_.r3[body] = {h[3], h[4], h[5]};
  h_.r4[body] = {h[6], h[7], h[8]};
}

std::size_t GearStepper::memory_bytes() const {
  return capacity_bytes(h_.r2) + capacity_bytes(h_.r3) + capacity_bytes(h_.r4);
}

}  // namespace sphero
