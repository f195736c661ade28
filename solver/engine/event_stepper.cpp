#include "engine/event_stepper.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "engine/collision_sides.h"
#include "engine/stability.h"
#include "geometry/segment.h"
#include "rigid/collision_components.h"
#include "triangulation/free_flight.h"

namespace sphero {
namespace {

// At an event the pair that met is at its reach to the roots' accuracy:
// outlines closer than this share of the rigid gap count as touching.
constexpr double kTouchingShareOfGap = 1e-6;

FreeFlight flight_of(const World& w, int body, Vec2 shift) {
  const auto b = static_cast<std::size_t>(body);
  FreeFlight f;
  f.position = w.position[b] + shift;
  f.velocity = w.velocity[b];
  f.acceleration = w.is_wall[b] ? Vec2{} : w.inverse_mass[b] * body_force(w, b);
  f.angular_velocity = w.angular_velocity[b];
  return f;
}

// How far any point of the body within `reach` of its centre can move in
// `seconds` of free flight.
double travel_bound(const FreeFlight& f, double reach, double seconds) {
  return (norm(f.velocity) + std::abs(f.angular_velocity) * reach) * seconds + 0.5 * norm(f.acceleration) * seconds * seconds;
}

// The first instant in (0, horizon] at which candidate c's features come
// within their reach, flying freely; nullopt if they do not (or touch now).
std::optional<double> contact_time(const World& w, const Candidate& c, double horizon) {
  if (w.is_wall[static_cast<std::size_t>(c.vertex_body)] && w.is_wall[static_cast<std::size_t>(c.edge_body)]) return std::nullopt;
  const WorldView view(w);
  const FreeFlight vertex_flight = flight_of(w, c.vertex_body, {}), edge_flight = flight_of(w, c.edge_body, c.edge_offset);
  const Vec2 x = view.vertex(c.vertex_body, c.vertex);
  const Vec2 a = view.vertex(c.edge_body, c.feature) + c.edge_offset;
  const bool edge = c.kind == ContactKind::vertex_edge;
  const Vec2 b = edge ? view.vertex(c.edge_body, c.feature_end) + c.edge_offset : a;
  // Too far apart to meet within the horizon: no polynomial needed.
  const double apart = edge ? norm(x - closest_point_on_segment(x, a, b)) : norm(x - a);
  const double travel = travel_bound(vertex_flight, norm(x - vertex_flight.position), horizon) +
                        travel_bound(edge_flight, std::max(norm(a - edge_flight.position), norm(b - edge_flight.position)), horizon);
  if (apart - c.reach > travel) return std::nullopt;
  const PointPath p = point_path(vertex_flight, x - vertex_flight.position, horizon);
  const PointPath q = point_path(edge_flight, a - edge_flight.position, horizon);
  if (!edge) return first_touch_of_points(p, q, c.reach, horizon);
  return first_touch_of_point_and_edge(p, q, point_path(edge_flight, b - edge_flight.position, horizon), c.reach, horizon);
}

}  // namespace

void EventStepper::start(EngineCore& core) {
  if (core.world.attractor.strength != 0.0)
    throw std::invalid_argument("stepping = events flies the bodies on parabolas under a uniform field, which an "
                                "attractor's is not: drop the attractor, or step with stepping = steps");
  time_stepping_.start(core);
}

CollisionStats EventStepper::collision_stats() const {
  CollisionStats s = time_stepping_.collision_stats();
  s.steps += stats_.steps;
  s.programs += stats_.programs;
  s.groups += stats_.groups;
  s.group_programs += stats_.group_programs;
  s.largest_group = std::max(s.largest_group, stats_.largest_group);
  s.iterations += stats_.iterations;
  s.contacts += stats_.contacts;
  s.largest_kkt_residual = std::max(s.largest_kkt_residual, stats_.largest_kkt_residual);
  s.events = stats_.events;
  s.handed_over = stats_.handed_over;
  return s;
}

// A pair within the gap that neither parts nor approaches faster than the
// field changes a speed in two steps is resting, or about to: no finite
// sequence of collisions would settle it.
bool EventStepper::resting_contact(const EngineCore& core) const {
  const World& w = core.world;
  const double field = 2.0 * norm(w.gravity) * core.settings.dt;
  for (const GapContact& g : gap_contacts(w, core.neighbours, core.settings.rigid.gap))
    if (std::abs(normal_velocity_now(w, sides_of(w, g), g.point)) <= field) return true;
  return false;
}

EventStepper::NextContact EventStepper::next_contact(const EngineCore& core, double horizon) const {
  NextContact next;
  next.time = horizon;
  for (const Candidate& c : core.neighbours.candidates())
    if (const auto t = contact_time(core.world, c, next.time); t && (!next.found || *t < next.time)) next.time = *t, next.found = true;
  return next;
}

// Free flight: the centres on parabolas under the body forces (walls at
// their imposed velocity), the angles turning at their rate.
void EventStepper::fly(EngineCore& core, double seconds) {
  World& w = core.world;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const Vec2 a = w.is_wall[i] ? Vec2{} : w.inverse_mass[i] * body_force(w, i);
    w.position[i] += seconds * w.velocity[i] + (0.5 * seconds * seconds) * a;
    w.velocity[i] += seconds * a;
    w.angle[i] += seconds * w.angular_velocity[i];
  }
  core.update_orientations();
}

// Every listed pair touching now and approaching collides, with its law;
// returns how many collisions there were. A collision may drive another
// touching pair together (a struck grain pressed against a third): the
// pairs still touching are looked at again with the new velocities, round
// after round, until none approaches — each pair meets its collision at
// this instant, not a flight later after overlapping. Rounds are bounded:
// grains that would go on colliding in no time (inelastic collapse) leave
// the rest to the collision count that hands the step to the time-stepping.
int EventStepper::collide(EngineCore& core, double step_length) {
  World& w = core.world;
  const std::vector<GapContact> touching =
      gap_contacts(w, core.neighbours, kTouchingShareOfGap * core.settings.rigid.gap);
  int met = 0;
  for (std::size_t round = 0; round < 2 * touching.size() + 8; ++round) {
    std::vector<GapContact> approaching = touching;
    std::erase_if(approaching, [&](const GapContact& g) { return !(normal_velocity_now(w, sides_of(w, g), g.point) < 0.0); });
    if (approaching.empty()) break;
    met += collide_approaching(core, approaching, step_length);
  }
  return met;
}

// One collision program for `touching`, all approaching.
int EventStepper::collide_approaching(EngineCore& core, const std::vector<GapContact>& touching, double step_length) {
  World& w = core.world;
  slot_.assign(w.size(), -1);
  std::vector<int> members;
  std::vector<RigidBodyState> bodies;
  const auto join = [&](int b) {
    if (b < 0) return -1;
    const auto i = static_cast<std::size_t>(b);
    if (slot_[i] < 0) {
      slot_[i] = static_cast<int>(bodies.size());
      members.push_back(b);
      RigidBodyState s;
      s.mass = w.mass[i], s.inertia = w.inertia[i], s.centre = w.position[i];
      s.velocity = w.velocity[i], s.angular_velocity = w.angular_velocity[i];
      bodies.push_back(s);
    }
    return slot_[i];
  };
  std::vector<CollisionContact> contacts;
  for (const GapContact& g : touching) {
    const Sides s = sides_of(w, g);
    CollisionContact c = collision_contact_of(w, g, s);
    c.body = join(s.body), c.other = join(s.other);
    apply_law(w, g, s, c);
    contacts.push_back(c);
  }
  ComponentStats groups;
  const QpSettings settings{core.settings.rigid.qp_tolerance, core.settings.rigid.qp_max_iterations};
  const CollisionResult result = resolve_collisions_by_group(bodies, contacts, settings, &groups);
  if (!result.program.converged)
    throw InstabilityError(fmt::format("at t = {:g} s a collision of {} contacts did not converge (KKT residual {:.2g})",
                                       core.time, contacts.size(), result.program.kkt_residual));
  for (std::size_t m = 0; m < members.size(); ++m) {
    const auto i = static_cast<std::size_t>(members[m]);
    w.velocity[i] = result.velocity[m], w.angular_velocity[i] = result.angular_velocity[m];
  }
  core.ledger.damping_dissipation += result.dissipated;
  core.ledger.external_work += result.wall_work;
  std::vector<Candidate>& candidates = core.neighbours.candidates();
  std::vector<ContactState>& states = core.neighbours.states();
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const GapContact& g = touching[k];
    const Vec2 on_vertex =
        mean_force_on_vertex(w, g, contacts[k], result.normal_percussion[k], result.tangential_percussion[k], step_length);
    ContactState& state = states[static_cast<std::size_t>(g.candidate)];
    candidates[static_cast<std::size_t>(g.candidate)].active = true;
    state.force += on_vertex, state.point = g.point, state.normal_force += result.normal_percussion[k] / step_length;
    add_mean_force(w, g, on_vertex);
  }
  ++stats_.programs;
  stats_.groups += groups.groups, stats_.group_programs += groups.programs, stats_.iterations += groups.iterations;
  stats_.largest_group = std::max(stats_.largest_group, groups.largest_group);
  stats_.contacts += static_cast<long>(contacts.size());
  stats_.largest_kkt_residual = std::max(stats_.largest_kkt_residual, result.program.kkt_residual);
  stats_.events += static_cast<long>(contacts.size());
  return static_cast<int>(contacts.size());
}

// The rest of the step by the time-stepping, as a step of its own length.
void EventStepper::hand_over(EngineCore& core, double seconds) {
  const double dt = core.settings.dt;
  core.settings.dt = seconds;
  time_stepping_.step(core);
  core.settings.dt = dt;
  ++stats_.handed_over;
}

void EventStepper::step(EngineCore& core) {
  World& w = core.world;
  const double dt = core.settings.dt;
  if (resting_contact(core)) {
    hand_over(core, dt);
    return;
  }
  core.previous_position = w.position;
  for (std::size_t i = 0; i < w.size(); ++i) w.force[i] = w.is_wall[i] ? Vec2{} : body_force(w, i), w.torque[i] = 0.0;
  for (Candidate& c : core.neighbours.candidates()) c.active = c.sliding = false;
  for (ContactState& s : core.neighbours.states()) s = {};
  // More collisions in a step than a gas has means a cluster collapsing.
  const long most = 8 * static_cast<long>(w.size()) + 64;
  long met = collide(core, dt);
  double done = 0.0;
  while (true) {
    const NextContact next = next_contact(core, dt - done);
    if (!next.found) break;
    fly(core, next.time);
    done += next.time;
    met += collide(core, dt);
    if (met > most) {
      hand_over(core, dt - done);
      return;
    }
  }
  fly(core, dt - done);
  ++stats_.steps;
  core.update_lists_or_orientations();
  core.sum_body_energies(false);
  core.power = 0.0;
  core.first_unstable = kNotChecked;
}

}  // namespace sphero
