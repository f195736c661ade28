// The energy ledger (docs/MODEL.md §2, "Energy"), and the partial sums it
// is made of: per fixed chunk of bodies and of candidates, added in chunk
// order, so that the totals are the same bits whatever the threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "engine/world.h"

namespace sphero {

// All terms in joules (per unit thickness in 2D).
// mechanical() = kinetic + elastic + gravitational.
struct EnergyLedger {
  double kinetic_translational = 0.0;
  double kinetic_rotational = 0.0;
  double elastic_normal = 0.0;
  double elastic_tangential = 0.0;
  double gravitational = 0.0;       // −Σ m g·x, and the attractor's Σ m g_a |x − c|
  // external_work: imposed forces and motions; in the rigid model, moving
  // walls' percussions. damping_dissipation: viscous; in the rigid model,
  // what the collisions dissipate (docs/MODEL.md §7).
  double external_work = 0.0;       // imposed forces and imposed motions, since the start
  double damping_dissipation = 0.0; // viscous, since the start
  double sliding_dissipation = 0.0; // Coulomb sliding, since the start
  double initial_mechanical = 0.0;

  double kinetic() const { return kinetic_translational + kinetic_rotational; }
  double elastic() const { return elastic_normal + elastic_tangential; }
  double mechanical() const { return kinetic() + elastic() + gravitational; }
  double dissipated() const { return damping_dissipation + sliding_dissipation; }
  // First law: W_ext = ΔE + E_diss; the residual is what does not close.
  double first_law_residual() const { return external_work - (mechanical() - initial_mechanical) - dissipated(); }
};

// One chunk of bodies' kinetic and gravitational energies, and its
// fastest body (the first of the largest speed), which the energy check
// names.
struct BodyEnergySums {
  double translational = 0.0, rotational = 0.0, gravitational = 0.0;
  double fastest_speed2 = -1.0;
  std::size_t fastest = 0;
  void add(const World& w, std::size_t i) {  // inline: every body, every step
    const double speed2 = norm2(w.velocity[i]);
    if (speed2 > fastest_speed2) fastest_speed2 = speed2, fastest = i;
    translational += 0.5 * w.mass[i] * speed2;
    rotational += 0.5 * w.inertia[i] * w.angular_velocity[i] * w.angular_velocity[i];
    gravitational += body_potential(w, i);
  }
};

// One chunk of candidates' stored energies, the dissipation over the step,
// and the deepest overlap (as a fraction of the two sphero-radii).
struct ContactEnergySums {
  double damping = 0.0, sliding = 0.0, normal_energy = 0.0, tangential_energy = 0.0, deepest = 0.0;
  void add(const ContactEnergySums& o) {
    normal_energy += o.normal_energy;
    tangential_energy += o.tangential_energy;
    damping += o.damping;
    sliding += o.sliding;
    deepest = std::max(deepest, o.deepest);
  }
};

// The power of body i's imposed loads and motions (nothing for a free body).
double constraint_power_of(const World& w, std::size_t i);
// The same of a body with this constraint, force, torque and motion.
double constraint_power_of(const BodyConstraint& tag, Vec2 force, double torque, Vec2 velocity, double angular_velocity);

// The listed bodies' translational kinetic energy, and their potential
// energy in gravity and the attractor, in list order.
double kinetic_energy_of(const World& w, const std::vector<int>& bodies);
double potential_energy_of(const World& w, const std::vector<int>& bodies);

}  // namespace sphero
