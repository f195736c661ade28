// A body's three degrees of freedom (x, y, rotation) read and written by
// index, for the per-DOF rules of constraints and integrators.
#pragma once

#include "engine/world.h"

namespace sphero {

inline double dof_force(const World& w, int i, int k) {
  return k == dof_x ? w.force[i].x : (k == dof_y ? w.force[i].y : w.torque[i]);
}
inline double& dof_velocity(World& w, int i, int k) {
  return k == dof_x ? w.velocity[i].x : (k == dof_y ? w.velocity[i].y : w.angular_velocity[i]);
}
inline double& dof_position(World& w, int i, int k) {
  return k == dof_x ? w.position[i].x : (k == dof_y ? w.position[i].y : w.angle[i]);
}
inline double dof_inverse_mass(const World& w, int i, int k) {
  return k == dof_rotation ? w.inverse_inertia[i] : w.inverse_mass[i];
}

}  // namespace sphero
