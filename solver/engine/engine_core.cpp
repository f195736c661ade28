#include "engine/engine_core.h"

#include "engine/capacity.h"
#include "engine/contact_geometry.h"
#include "engine/contact_law.h"
#include "engine/thread_team.h"

namespace sphero {

NeighbourSettings neighbour_settings(const EngineSettings& s) {
  return {s.verlet_distance,
          s.brute_force_neighbours,
          s.threads,
          s.adaptive_verlet_distance,
          s.contact_lists,
          s.partial_rebuilds,
          s.model == Model::rigid ? s.rigid.gap + s.verlet_distance : 0.0,
          s.neighbours};
}

void EngineCore::classify_bodies() {
  const World& w = world;
  span_followers.clear();
  vibrating.clear();
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w.constraint[i].follows_span()) span_followers.push_back(static_cast<int>(i));
    if (w.constraint[i].vibration.on()) vibrating.push_back(static_cast<int>(i));
  }
  unconstrained.resize(w.size());
  constrained.clear();
  for (std::size_t i = 0; i < w.size(); ++i) {
    unconstrained[i] = !w.constraint[i].imposes_anything();
    if (!unconstrained[i]) constrained.push_back(static_cast<int>(i));
  }
  constraint_powers.assign(constrained.size(), 0.0);
  constraints_may_have_changed = false;
}

void EngineCore::apply_loads(bool unconstrained_loads_set) {
  World& w = world;
  for (int i : span_followers) {
    BodyConstraint& plate = w.constraint[static_cast<std::size_t>(i)];
    plate.imposed_force = plate.pressure * plate_span(w, plate) * plate.inward;
  }
  const auto set_loads = [&w](std::size_t i) {
    w.force[i] = body_force(w, i);
    w.torque[i] = 0.0;
    const BodyConstraint& tag = w.constraint[i];
    if (!tag.held[dof_x]) w.force[i].x += tag.imposed_force.x;
    if (!tag.held[dof_y]) w.force[i].y += tag.imposed_force.y;
    if (!tag.held[dof_rotation]) w.torque[i] += tag.imposed_torque;
  };
  if (unconstrained_loads_set) {
    for (int i : constrained) set_loads(static_cast<std::size_t>(i));
    return;
  }
  ThreadTeam::for_each(settings.threads, w.size(), [&](std::size_t i) {
    if (unconstrained[i]) {
      w.force[i] = body_force(w, i);
      w.torque[i] = 0.0;
    } else {
      set_loads(i);
    }
  });
}

void EngineCore::evaluate_forces(double dt, bool unconstrained_loads_set) {
  evaluate_forces_at(dt, time + dt, unconstrained_loads_set);
}

void EngineCore::evaluate_forces_at(double dt, double state_time, bool unconstrained_loads_set) {
  apply_loads(unconstrained_loads_set);
  if (contact_backend) neighbours.forget_contact_geometry();  // the device keeps none
  const StepContactSums step_sums = contact_backend ? contact_backend->evaluate(world, neighbours, dt)
                                                    : contacts.evaluate(world, neighbours, settings.threads, dt,
                                                                        counted.empty() ? nullptr : counted.data());
  book_contact_sums(step_sums, state_time);
}

void EngineCore::book_contact_sums(const StepContactSums& step_sums, double state_time) {
  const ContactEnergySums& sums = step_sums.running;
  deepest_before_pass = deepest_overlap, deepest_time_before_pass = deepest_overlap_time;
  if (sums.deepest > deepest_overlap) deepest_overlap = sums.deepest, deepest_overlap_time = state_time;
  ledger.elastic_normal = sums.normal_energy;
  ledger.elastic_tangential = sums.tangential_energy;
  ledger.damping_dissipation += sums.damping;
  ledger.sliding_dissipation += sums.sliding;
  books.ended.add(step_sums.ended);
}

void EngineCore::book_dissipation(double dissipated) {
  ledger.damping_dissipation += dissipated;
  books.ended.damping.add(dissipated);
}

void EngineCore::book_work(double work) {
  books.external_work.add(work);
  ledger.external_work = books.external_work.value();
}

// Every term summed exactly: the bodies' energies, the elastic energy of
// the touching contacts (in the state as it is: the arithmetic of
// evaluate_contact), what every contact dissipated so far and the ended
// ones before them, and the work booked. Only what this part counts.
ExactLedger EngineCore::exact_ledger() const {
  const World& w = world;
  ExactLedger e;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (counts(i)) e.add_body(w, i);
  const std::vector<Candidate>& keys = neighbours.candidates();
  const std::vector<ContactState>& states = neighbours.states();
  const WorldView view(w);
  const bool soft = settings.model == Model::soft;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const Candidate& key = keys[k];
    if (!counts_pair(counted.empty() ? nullptr : counted.data(), w, key.vertex_body, key.edge_body)) continue;
    const ContactState& s = states[k];
    e.damping.add(s.damping_total);
    e.sliding.add(s.sliding_total);
    if (!soft || !key.active) continue;
    const ContactGeometry g = contact_geometry(view, key);
    if (!g.touching) continue;
    const ContactLaw& law = w.law_between(key.vertex_body, key.edge_body);
    e.elastic_normal.add(normal_energy_of(law, g.overlap));
    if (law.kt > 0.0) e.elastic_tangential.add(0.5 * law.kt * norm2(s.xi));
  }
  e.damping.add(books.ended.damping);
  e.sliding.add(books.ended.sliding);
  e.external_work = books.external_work;
  return e;
}

void EngineCore::evaluate_forces_now(double state_ahead) {
  if (constraints_may_have_changed) classify_bodies();
  update_world_vertices(world, settings.threads);
  vertices_stale = false;
  evaluate_forces_at(0.0, time + state_ahead);
  sum_body_energies(false);
}

void EngineCore::evaluate_last_pass_again() {
  deepest_overlap = deepest_before_pass, deepest_overlap_time = deepest_time_before_pass;
  evaluate_forces_now();
}

void EngineCore::sum_body_energies(bool with_power) {
  const World& w = world;
  const std::size_t n = w.size(), chunks = body_chunks(n);
  body_sums.assign(chunks, BodyEnergySums{});
  ThreadTeam::for_each(settings.threads, chunks, [&](std::size_t c) {
    for (std::size_t i = c * kBodyChunk; i < std::min(n, (c + 1) * kBodyChunk); ++i)
      if (counts(i)) body_sums[c].add(w, i);
  });
  close_body_energy_sums(with_power);
}

// The chunks' sums in chunk order (the same bits whatever the threads that
// filled them), and the external power of the constrained bodies in body
// order.
void EngineCore::close_body_energy_sums(bool with_power) {
  double translational = 0.0, rotational = 0.0, gravitational = 0.0, fastest_speed2 = -1.0;
  for (const BodyEnergySums& b : body_sums) {
    translational += b.translational;
    rotational += b.rotational;
    gravitational += b.gravitational;
    if (b.fastest_speed2 > fastest_speed2) fastest_speed2 = b.fastest_speed2, fastest_body = b.fastest;
  }
  ledger.kinetic_translational = translational;
  ledger.kinetic_rotational = rotational;
  ledger.gravitational = gravitational;
  if (with_power) take_constraint_powers();
}

std::vector<double> EngineCore::constraint_powers_now() const {
  std::vector<double> powers(constrained.size(), 0.0);
  for (std::size_t j = 0; j < constrained.size(); ++j) {
    const auto i = static_cast<std::size_t>(constrained[j]);
    if (counts(i)) powers[j] = constraint_power_of(world, i);
  }
  return powers;
}

void EngineCore::take_constraint_powers() {
  constraint_powers = constraint_powers_now();
  power = 0.0;
  for (double p : constraint_powers) power += p;
}

void EngineCore::clear_constraint_powers() {
  constraint_powers.assign(constrained.size(), 0.0);
  power = 0.0;
}

void EngineCore::update_lists_or_orientations() {
  // A whole rebuild brings every vertex up to date; otherwise (a partial
  // one, or none) only the bodies' orientations, from which the contact
  // pass computes the few vertices it reads.
  if (neighbours.update(world) && neighbours.all_vertices_current()) vertices_stale = false;
  else update_orientations();
}

void EngineCore::update_orientations() {
  World& w = world;
  ThreadTeam::for_each(settings.threads, w.size(), [&](std::size_t i) { update_orientation(w, i); });
  vertices_stale = true;
}

std::size_t EngineCore::memory_bytes() const {
  const World& w = world;
  return capacity_bytes(w.position) + capacity_bytes(w.angle) + capacity_bytes(w.velocity) +
         capacity_bytes(w.angular_velocity) + capacity_bytes(w.force) + capacity_bytes(w.torque) +
         capacity_bytes(w.mass) + capacity_bytes(w.inertia) + capacity_bytes(w.density) +
         capacity_bytes(w.inverse_mass) + capacity_bytes(w.inverse_inertia) + capacity_bytes(w.radius) +
         capacity_bytes(w.bounding_radius) + capacity_bytes(w.material) + capacity_bytes(w.is_wall) +
         capacity_bytes(w.closed) + capacity_bytes(w.constraint) + capacity_bytes(w.shape_name) +
         capacity_bytes(w.vertex_begin) + capacity_bytes(w.vertex_count) + capacity_bytes(w.local_vertex) +
         capacity_bytes(w.local_shift) + capacity_bytes(w.local_bend) + capacity_bytes(w.world_vertex) +
         capacity_bytes(w.orientation) + capacity_bytes(w.seam) + capacity_bytes(unconstrained) +
         capacity_bytes(constrained) + capacity_bytes(body_sums) + neighbours.memory_bytes() + contacts.memory_bytes() +
         capacity_bytes(previous_position);
}

}  // namespace sphero
