#include "engine/energy_ledger.h"

#include "engine/dof.h"

namespace sphero {

namespace {

// The ledger's exact sums, in one order for carried() and of_carried().
template <class Ledger, class Visit>
void each_sum(Ledger& l, Visit&& visit) {
  visit(l.kinetic_translational), visit(l.kinetic_rotational), visit(l.gravitational), visit(l.elastic_normal);
  visit(l.elastic_tangential), visit(l.damping), visit(l.sliding), visit(l.external_work);
}

}  // namespace

void ExactLedger::round_into(EnergyLedger& l) const {
  l.kinetic_translational = kinetic_translational.value();
  l.kinetic_rotational = kinetic_rotational.value();
  l.gravitational = gravitational.value();
  l.elastic_normal = elastic_normal.value();
  l.elastic_tangential = elastic_tangential.value();
  l.damping_dissipation = damping.value();
  l.sliding_dissipation = sliding.value();
  l.external_work = external_work.value();
}

std::vector<std::int64_t> ExactLedger::carried() const {
  std::vector<std::int64_t> out;
  each_sum(*this, [&](const ExactSum& s) {
    const std::vector<std::int64_t> c = s.carried();
    out.insert(out.end(), c.begin(), c.end());
  });
  return out;
}

ExactLedger ExactLedger::of_carried(const std::vector<std::int64_t>& carried) {
  ExactLedger l;
  std::size_t at = 0;
  each_sum(l, [&](ExactSum& s) {
    s = ExactSum::of_carried(carried.data() + at);
    at += ExactSum::kCarried;
  });
  return l;
}

void add_trapezoid_work(ExactSum& work, const std::vector<double>& first, const std::vector<double>& end, double dt) {
  for (std::size_t j = 0; j < end.size() && j < first.size(); ++j) work.add(0.5 * (first[j] + end[j]) * dt);
}

LedgerBooks books_of(const EnergyLedger& l) {
  LedgerBooks b;
  b.ended.damping = ExactSum(l.damping_dissipation);
  b.ended.sliding = ExactSum(l.sliding_dissipation);
  b.external_work = ExactSum(l.external_work);
  return b;
}

double constraint_power_of(const World& w, std::size_t i) {
  return constraint_power_of(w.constraint[i], w.force[i], w.torque[i], w.velocity[i], w.angular_velocity[i]);
}

double constraint_power_of(const BodyConstraint& tag, Vec2 force, double torque, Vec2 velocity,
                           double angular_velocity) {
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
  for (int b : bodies) energy += translational_energy(w, static_cast<std::size_t>(b));
  return energy;
}

double potential_energy_of(const World& w, const std::vector<int>& bodies) {
  double energy = 0.0;
  for (int b : bodies) energy += body_potential(w, static_cast<std::size_t>(b));
  return energy;
}

}  // namespace sphero
