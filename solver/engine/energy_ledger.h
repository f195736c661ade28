// The energy ledger (docs/MODEL.md §2, "Energy"): the running one a step
// keeps (per fixed chunk of bodies and of candidates, added in chunk
// order: the same bits whatever the threads), and its exact sums, which
// are the same bits whatever the threads or ranks that added their terms.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/exact_sum.h"
#include "engine/world.h"

namespace sphero {

// All terms in joules (per unit thickness in 2D).
// mechanical() = kinetic + elastic + gravitational.
struct EnergyLedger {
  double kinetic_translational = 0.0;
  double kinetic_rotational = 0.0;
  double elastic_normal = 0.0;
  double elastic_tangential = 0.0;
  double gravitational = 0.0;  // −Σ m g·x, and the attractor's Σ m g_a |x − c|
  // external_work: imposed forces and motions; in the rigid model, moving
  // walls' percussions. damping_dissipation: viscous; in the rigid model,
  // what the collisions dissipate (docs/MODEL.md §7).
  double external_work = 0.0;        // imposed forces and imposed motions, since the start
  double damping_dissipation = 0.0;  // viscous, since the start
  double sliding_dissipation = 0.0;  // Coulomb sliding, since the start
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
    translational += translational_energy(w, i);
    rotational += rotational_energy(w, i);
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

// What the contacts that ended (opened) over a step had dissipated over their
// lives (ContactState's totals), summed exactly.
struct EndedContacts {
  ExactSum damping, sliding;
  void add(const EndedContacts& o) {
    damping.add(o.damping);
    sliding.add(o.sliding);
  }
};

// A contact pass's sums: the running ones, and its ended contacts'.
struct StepContactSums {
  ContactEnergySums running;
  EndedContacts ended;
};

// What the ledger keeps exactly from step to step: the dissipation of the
// contacts ended so far (and, in the rigid model, of the collisions), and
// the work of imposed loads and motions.
struct LedgerBooks {
  EndedContacts ended;
  ExactSum external_work;
};

// Every term of the ledger as an exact sum (EngineCore::exact_ledger),
// rounded into an EnergyLedger.
struct ExactLedger {
  ExactSum kinetic_translational, kinetic_rotational, gravitational, elastic_normal, elastic_tangential;
  ExactSum damping, sliding, external_work;
  void add_body(const World& w, std::size_t i) {  // its kinetic and potential energies
    kinetic_translational.add(translational_energy(w, i));
    kinetic_rotational.add(rotational_energy(w, i));
    gravitational.add(body_potential(w, i));
  }
  // The rounded values into the ledger (initial_mechanical untouched).
  void round_into(EnergyLedger& l) const;
  // Every sum's ExactSum::carried(), one after the other, and back.
  std::vector<std::int64_t> carried() const;
  static ExactLedger of_carried(const std::vector<std::int64_t>& carried);
};

// The books of a ledger kept only as doubles (a checkpoint written before
// the books were): its totals as they stand.
LedgerBooks books_of(const EnergyLedger& l);

// The work of imposed loads and motions over a step, body by body, by the
// trapezoidal rule from each body's power as the step started and ended
// (the same terms wherever a body is booked).
void add_trapezoid_work(ExactSum& work, const std::vector<double>& first, const std::vector<double>& end, double dt);

// The power of body i's imposed loads and motions (nothing for a free body).
double constraint_power_of(const World& w, std::size_t i);
// The same of a body with this constraint, force, torque and motion.
double constraint_power_of(const BodyConstraint& tag, Vec2 force, double torque, Vec2 velocity,
                           double angular_velocity);

// The listed bodies' translational kinetic energy, and their potential
// energy in gravity and the attractor, in list order.
double kinetic_energy_of(const World& w, const std::vector<int>& bodies);
double potential_energy_of(const World& w, const std::vector<int>& bodies);

}  // namespace sphero
