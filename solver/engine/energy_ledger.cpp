#include "engine/energy_ledger.h"

#include "engine/dof.h"

namespace sphero {

double constraint_power_of(const World& w, std::size_t i) {
  return constraint_power_of(w.constraint[i], w.force[i], w.torque[i], w.velocity[i], w.angular_velocity[i]);
}

double constraint_power_of(const BodyConstraint& tag, Vec2 force, double torque, Vec2 velocity, double angular_velocity) {
  const double forces[3] = {force.x, force.y, torque};
  double power = 0.0;
  for (int k = 0; k < 3; ++k) {
    // A held DOF's reaction is −(everything else on it), moving at u.
    if (tag.held[k]) power -= forces[k] * tag.imposed_velocity[k];
  }
  if (!tag.held[dof_x]) power += tag.imposed_force.x * velocity.x;
  if (!tag.held[dof_y]) power += tag.imposed_force.y * velocity.y;
  if (!tag.held[dof_rotation]) power += tag.imposed_torque * angular_velocity;
  return power;
}

double kinetic_energy_of(const World& w, const std::vector<int>& bodies) {
  double energy = 0.0;
  for (int b : bodies) energy += 0.5 * w.mass[static_cast<std::size_t>(b)] * norm2(w.velocity[static_cast<std::size_t>(b)]);
  return energy;
}

double potential_energy_of(const World& w, const std::vector<int>& bodies) {
  double energy = 0.0;
  for (int b : bodies) energy += body_potential(w, static_cast<std::size_t>(b));
  return energy;
}

}  // namespace sphero
