#include "engine/energy_ledger.h"

#include "engine/dof.h"

namespace sphero {

double constraint_power_of(const World& w, std::size_t i) {
  const BodyConstraint& tag = w.constraint[i];
  const int b = static_cast<int>(i);
  double power = 0.0;
  for (int k = 0; k < 3; ++k) {
    // A held DOF's reaction is −(everything else on it), moving at u.
    if (tag.held[k]) power -= dof_force(w, b, k) * tag.imposed_velocity[k];
  }
  if (!tag.held[dof_x]) power += tag.imposed_force.x * w.velocity[i].x;
  if (!tag.held[dof_y]) power += tag.imposed_force.y * w.velocity[i].y;
  if (!tag.held[dof_rotation]) power += tag.imposed_torque * w.angular_velocity[i];
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
