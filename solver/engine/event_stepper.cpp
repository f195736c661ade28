#include "engine/event_stepper.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "engine/collision_sides.h"
#include "engine/stability.h"
#include "engine/wall_steps.h"
#include "geometry/segment.h"
#include "rigid/collision_components.h"
#include "rigid/interruption.h"
#include "triangulation/free_flight.h"

namespace sphero {
namespace {

// How far any point of body i moves in `seconds` at velocity v and its spin.
double travel_in(const World& w, std::size_t i, Vec2 v, double seconds) {
  return (norm(v) + std::abs(w.angular_velocity[i]) * w.bounding_radius[i]) * seconds;
}

// At an event the pair that met is at its reach to the roots' accuracy:
// outlines closer than this share of the rigid gap count as touching.
constexpr double kTouchingShareOfGap = 1e-6;
// A step that meets this many times more contacts than the collisions a
// gas could have is stuck on a grazing pair, and is time-stepped on.
constexpr long kGrazesPerCollision = 64;

// A body flies on a parabola under its body forces; a wall at its imposed
// velocity, and a time-stepped body (`straight`) at its velocity after the
// step's program (which took the forces' impulse), in straight lines.
FreeFlight flight_of(const World& w, int body, Vec2 shift, const std::vector<char>& straight) {
  const auto b = static_cast<std::size_t>(body);
  FreeFlight f;
  f.position = w.position[b] + shift;
  f.velocity = w.velocity[b];
  f.acceleration = w.is_wall[b] || straight[b] ? Vec2{} : w.inverse_mass[b] * body_force(w, b);
  f.angular_velocity = w.angular_velocity[b];
  return f;
}

// How far any point of the body within `reach` of its centre can move in
// `seconds` of free flight.
double travel_bound(const FreeFlight& f, double reach, double seconds) {
  return (norm(f.velocity) + std::abs(f.angular_velocity) * reach) * seconds +
         0.5 * norm(f.acceleration) * seconds * seconds;
}

// The first instant in (0, horizon] at which candidate c's features come
// within their reach, flying freely; nullopt if they do not (or touch now).
std::optional<double> contact_time(const World& w, const Candidate& c, double horizon,
                                   const std::vector<char>& straight) {
  const WorldView view(w);
  const FreeFlight vertex_flight = flight_of(w, c.vertex_body, {}, straight),
                   edge_flight = flight_of(w, c.edge_body, c.edge_offset, straight);
  const Vec2 x = view.vertex(c.vertex_body, c.vertex);
  const Vec2 a = view.vertex(c.edge_body, c.feature) + c.edge_offset;
  const bool edge = c.kind == ContactKind::vertex_edge;
  const Vec2 b = edge ? view.vertex(c.edge_body, c.feature_end) + c.edge_offset : a;
  // Too far apart to meet within the horizon: no polynomial needed.
  const double apart = edge ? norm(x - closest_point_on_segment(x, a, b)) : norm(x - a);
  const double travel =
      travel_bound(vertex_flight, norm(x - vertex_flight.position), horizon) +
      travel_bound(edge_flight, std::max(norm(a - edge_flight.position), norm(b - edge_flight.position)), horizon);
  if (apart - c.reach > travel) return std::nullopt;
  const PointPath p = point_path(vertex_flight, x - vertex_flight.position, horizon);
  const PointPath q = point_path(edge_flight, a - edge_flight.position, horizon);
  if (!edge) return first_touch_of_points(p, q, c.reach, horizon);
  return first_touch_of_point_and_edge(
      p, q, point_path(edge_flight, b - edge_flight.position, horizon), c.reach, horizon);
}

}  // namespace

void EventStepper::start(EngineCore& core) {
  if (core.world.attractor.strength != 0.0)
    throw std::invalid_argument(
        "stepping = events flies the bodies on parabolas under a uniform field, which an "
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
  s.stalled += stats_.stalled;
  s.contacts += stats_.contacts;
  s.largest_kkt_residual = std::max(s.largest_kkt_residual, stats_.largest_kkt_residual);
  s.events = stats_.events;
  s.handed_over = stats_.handed_over;
  s.relists = stats_.relists;
  return s;
}

// A pair within the gap that neither parts nor approaches faster than the
// field changes a speed in two steps is resting, or about to: no finite
// sequence of collisions would settle it.
bool EventStepper::resting(const EngineCore& core, const GapContact& g) {
  const World& w = core.world;
  return std::abs(normal_velocity_now(w, sides_of(w, g), g.point)) <= 2.0 * norm(w.gravity) * core.settings.dt;
}

bool EventStepper::resting_contact(const EngineCore& core) const {
  for (const GapContact& g : gap_contacts(core.world, core.neighbours, core.settings.rigid.gap))
    if (resting(core, g)) return true;
  return false;
}

// The grains of a resting pair (against each other or a wall) are
// time-stepped, and with them every grain within the gap of one of them
// that is not parting from it (one closing on a cluster collides in its
// program, with the rest); all others fly.
void EventStepper::find_clusters(const EngineCore& core) {
  const World& w = core.world;
  stepped_.assign(w.size(), 0);
  const std::vector<GapContact> touching = gap_contacts(w, core.neighbours, core.settings.rigid.gap);
  const auto grain = [&](int b) { return !w.is_wall[static_cast<std::size_t>(b)]; };
  std::vector<char> closing(touching.size(), 0);
  for (std::size_t k = 0; k < touching.size(); ++k) {
    const GapContact& g = touching[k];
    if (resting(core, g)) {
      for (int b : {g.vertex_body, g.edge_body})
        if (grain(b)) stepped_[static_cast<std::size_t>(b)] = 1;
    } else {
      closing[k] = normal_velocity_now(w, sides_of(w, g), g.point) < 0.0;
    }
  }
  std::vector<int> joining;
  for (std::size_t k = 0; k < touching.size(); ++k) {
    if (!closing[k]) continue;
    const int a = touching[k].vertex_body, b = touching[k].edge_body;
    if (grain(a) && grain(b) && stepped_[static_cast<std::size_t>(a)] != stepped_[static_cast<std::size_t>(b)])
      joining.push_back(stepped_[static_cast<std::size_t>(a)] ? b : a);
  }
  for (int b : joining) stepped_[static_cast<std::size_t>(b)] = 1;
}

// The step's body-steps, flown and time-stepped (the run summary's
// shares), counting a flying body as `flown` of a step; returns how many
// grains fly.
long EventStepper::count_body_steps(EngineCore& core, double flown) const {
  const World& w = core.world;
  long flying = 0, stepped = 0;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!w.is_wall[i]) (stepped_[i] ? stepped : flying) += 1;
  core.body_steps.flown += flown * static_cast<double>(flying);
  core.body_steps.time_stepped += static_cast<double>(stepped) + (1.0 - flown) * static_cast<double>(flying);
  return flying;
}

// A candidate whose two sides are walls or time-stepped bodies is the
// step's program's, never an event's, until a collision disturbs one of
// its bodies.
bool EventStepper::is_event_pair(const World& w, const Candidate& c) const {
  const auto flies = [&](int b) {
    const auto i = static_cast<std::size_t>(b);
    return !w.is_wall[i] && (!stepped_[i] || disturbed_[i]);
  };
  return flies(c.vertex_body) || flies(c.edge_body);
}

// A body's own clock: it is flown to an instant only when an event needs
// it there (the others' flights are not touched), and every body is brought
// to the step's end at its end. Centres on parabolas under the body forces
// (walls at their imposed velocity), angles turning at their rate.
void EventStepper::advance(World& w, int body, double to) {
  const auto i = static_cast<std::size_t>(body);
  const double seconds = to - body_time_[i];
  if (seconds == 0.0) return;
  const Vec2 a = w.is_wall[i] || stepped_[i] ? Vec2{} : w.inverse_mass[i] * body_force(w, i);
  w.position[i] += seconds * w.velocity[i] + (0.5 * seconds * seconds) * a;
  w.velocity[i] += seconds * a;
  w.angle[i] += seconds * w.angular_velocity[i];
  update_orientation(w, i);
  body_time_[i] = to;
}

void EventStepper::advance_all(World& w, double to) {
  for (std::size_t i = 0; i < w.size(); ++i) advance(w, static_cast<int>(i), to);
}

// Candidate k's next contact after `now` (both its bodies flown there),
// within the step; an earlier entry of k in the queue goes stale.
void EventStepper::schedule(EngineCore& core, int k, double now) {
  const Candidate& c = core.neighbours.candidates()[static_cast<std::size_t>(k)];
  advance(core.world, c.vertex_body, now);
  advance(core.world, c.edge_body, now);
  const std::uint32_t version = ++version_[static_cast<std::size_t>(k)];
  if (!is_event_pair(core.world, c)) return;
  if (const auto t = contact_time(core.world, c, core.settings.dt - now, stepped_)) queue_.push({now + *t, k, version});
}

// The instant after `now` at which body b may have moved the skin δ since
// the list was made, flying freely: every pair the list lacks was more
// than 2δ apart then. The list is made anew there (relist()).
void EventStepper::schedule_relist(EngineCore& core, int body, double now) {
  const auto i = static_cast<std::size_t>(body);
  advance(core.world, body, now);
  const double allowance = core.neighbours.verlet_distance() - core.neighbours.motion_of(core.world, i);
  const FreeFlight f = flight_of(core.world, body, {}, stepped_);
  const double speed = norm(f.velocity) + std::abs(f.angular_velocity) * core.world.bounding_radius[i];
  const double pull = norm(f.acceleration);
  // The least τ with speed τ + pull τ² / 2 = allowance (in the form that
  // keeps its digits when pull is small).
  double within = INFINITY;
  if (allowance <= 0.0) within = 0.0;
  else if (speed > 0.0 || pull > 0.0)
    within = 2.0 * allowance / (speed + std::sqrt(speed * speed + 2.0 * pull * allowance));
  const std::uint32_t version = ++body_version_[i];
  if (now + within < core.settings.dt) queue_.push({now + within, -1 - body, version});
}

// Every candidate's next contact and every body's relisting, from `now`.
void EventStepper::schedule_all(EngineCore& core, double now) {
  for (std::size_t k = 0; k < core.neighbours.candidates().size(); ++k) schedule(core, static_cast<int>(k), now);
  for (std::size_t i = 0; i < core.world.size(); ++i) schedule_relist(core, static_cast<int>(i), now);
}

// A body is about to have moved the skin: every body flown to `now`, the
// list made anew (whole, or for the bodies past half the skin), and every
// contact timed again from there. Pairs the new list brings were apart by
// more than the gap: none is touching.
int EventStepper::relist(EngineCore& core, double now) {
  give_up_if_asked(core.interruption);  // a wall flying many skins a step relists as often
  advance_all(core.world, now);
  core.update_orientations();
  core.neighbours.update(core.world, INFINITY);
  const std::vector<double> clocks = body_time_;
  start_events(core);
  body_time_ = clocks;
  // Pairs due at this very instant, as at a step's start.
  std::vector<int> everybody(core.world.size()), moved;
  std::iota(everybody.begin(), everybody.end(), 0);
  const int met = collide_rounds(core, everybody, now, moved);
  schedule_all(core, now);
  ++stats_.relists;
  return met;
}

// Each body's candidates, for the events' local updates.
void EventStepper::index_candidates(const EngineCore& core) {
  const std::vector<Candidate>& candidates = core.neighbours.candidates();
  const auto at = [](int body) { return static_cast<std::size_t>(body); };
  incident_begin_.assign(core.world.size() + 1, 0);
  for (const Candidate& c : candidates)
    ++incident_begin_[at(c.vertex_body) + 1], ++incident_begin_[at(c.edge_body) + 1];
  for (std::size_t i = 0; i < core.world.size(); ++i) incident_begin_[i + 1] += incident_begin_[i];
  incident_.resize(at(incident_begin_.back()));
  std::vector<int> next(incident_begin_.begin(), incident_begin_.end() - 1);
  for (std::size_t k = 0; k < candidates.size(); ++k)
    for (int b : {candidates[k].vertex_body, candidates[k].edge_body})
      incident_[at(next[at(b)]++)] = static_cast<int>(k);
}

// The collisions set off at `now` among the touching pairs of the
// `frontier` bodies: every such pair approaching collides, with its law.
// A collision may drive another touching pair together (a struck grain
// pressed against a third): the pairs of the bodies it moved join the
// touching ones, and all are looked at again with the new velocities,
// round after round, until none approaches — each pair meets its collision
// at this instant, not a flight later after overlapping. Rounds are
// bounded: grains that would go on colliding in no time (inelastic
// collapse) leave the rest to the collision count that hands the step to
// the time-stepping. The bodies given new velocities join `moved`; returns
// how many collisions there were.
int EventStepper::collide_rounds(EngineCore& core, std::vector<int> frontier, double now, std::vector<int>& moved) {
  World& w = core.world;
  const std::vector<Candidate>& candidates = core.neighbours.candidates();
  const WorldView view(w);
  const double touching_gap = kTouchingShareOfGap * core.settings.rigid.gap;
  std::vector<GapContact> touching;
  ++epoch_;
  int met = 0;
  for (std::size_t round = 0;; ++round) {
    for (int b : frontier) {
      if (w.is_wall[static_cast<std::size_t>(b)]) continue;  // collisions leave walls as they are
      for (int p = incident_begin_[static_cast<std::size_t>(b)]; p < incident_begin_[static_cast<std::size_t>(b) + 1];
           ++p) {
        const int k = incident_[static_cast<std::size_t>(p)];
        const Candidate& c = candidates[static_cast<std::size_t>(k)];
        // A pair of two time-stepped sides is the program's, not an event's.
        if (seen_[static_cast<std::size_t>(k)] == epoch_ || !is_event_pair(w, c)) continue;
        seen_[static_cast<std::size_t>(k)] = epoch_;
        advance(w, c.vertex_body, now), advance(w, c.edge_body, now);
        GapContact g;
        if (gap_contact_of(view, c, k, touching_gap, g)) touching.push_back(g);
      }
    }
    // In list order, whichever bodies found them: the programs' rows do not
    // depend on how the rounds went.
    std::sort(touching.begin(), touching.end(),
              [](const GapContact& x, const GapContact& y) { return x.candidate < y.candidate; });
    if (round >= 2 * touching.size() + 8) break;
    std::vector<GapContact> approaching = touching;
    std::erase_if(
        approaching, [&](const GapContact& g) { return !(normal_velocity_now(w, sides_of(w, g), g.point) < 0.0); });
    if (approaching.empty()) break;
    // The next round looks at the pairs of every body this one struck: a
    // time-stepped body struck is disturbed, and its pairs are the events'
    // from now on, even where it had been struck before.
    frontier.clear();
    met += collide_approaching(core, approaching, core.settings.dt, moved, frontier);
  }
  return met;
}

// Every candidate of the listed bodies gets its next contact from `now`,
// and each of them its relisting.
void EventStepper::reschedule(EngineCore& core, const std::vector<int>& bodies, double now) {
  ++epoch_;
  for (int b : bodies) schedule_relist(core, b, now);
  for (int b : bodies)
    for (int p = incident_begin_[static_cast<std::size_t>(b)]; p < incident_begin_[static_cast<std::size_t>(b) + 1];
         ++p) {
      const int k = incident_[static_cast<std::size_t>(p)];
      if (seen_[static_cast<std::size_t>(k)] == epoch_) continue;
      seen_[static_cast<std::size_t>(k)] = epoch_;
      schedule(core, k, now);
    }
}

// One collision program for `touching`, all approaching; the bodies it
// gives new velocities (walls excepted) join `moved` once each, and `struck`.
int EventStepper::collide_approaching(EngineCore& core, const std::vector<GapContact>& touching, double step_length,
                                      std::vector<int>& moved, std::vector<int>& struck) {
  World& w = core.world;
  if (slot_.size() != w.size()) slot_.assign(w.size(), -1);
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
  const CollisionSettings settings = core.collision_settings();
  const CollisionResult result =
      resolve_collisions_by_group(bodies, contacts, settings, &groups, core.programs_apart());
  if (!result.jammed.empty())
    throw InstabilityError(fmt::format(
        "at t = {:g} s {} cannot make way: no rigid motion keeps their contacts from overlapping (a wall driven into "
        "grains that are jammed). Rigid grains cannot be compressed once jammed: stop or slow the wall before the "
        "sample jams, or compress the sample with model = soft",
        core.time, jammed_bodies_in_words(w, touching, result.jammed)));
  if (!result.program.converged)
    throw InstabilityError(fmt::format(
        "at t = {:g} s a collision of {} contacts did not converge (residual {:.2g}); a looser rigid_tolerance "
        "may let it finish",
        core.time, contacts.size(), result.program.kkt_residual));
  for (std::size_t m = 0; m < members.size(); ++m) {
    const auto i = static_cast<std::size_t>(members[m]);
    w.velocity[i] = result.velocity[m], w.angular_velocity[i] = result.angular_velocity[m];
    slot_[i] = -1;
    if (std::find(moved.begin(), moved.end(), members[m]) == moved.end()) moved.push_back(members[m]);
    struck.push_back(members[m]);
    if (stepped_[i] && !disturbed_[i]) disturbed_[i] = 1, ++disturbed_count_;
  }
  core.book_dissipation(result.dissipated);
  core.book_work(result.wall_work);
  std::vector<Candidate>& candidates = core.neighbours.candidates();
  std::vector<ContactState>& states = core.neighbours.states();
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const GapContact& g = touching[k];
    const Vec2 on_vertex = mean_force_on_vertex(
        w, g, contacts[k], result.normal_percussion[k], result.tangential_percussion[k], step_length);
    ContactState& state = states[static_cast<std::size_t>(g.candidate)];
    candidates[static_cast<std::size_t>(g.candidate)].active = true;
    state.force += on_vertex, state.point = g.point, state.normal_force += result.normal_percussion[k] / step_length;
    add_mean_force(w, g, on_vertex);
  }
  ++stats_.programs;
  stats_.groups += groups.groups, stats_.group_programs += groups.programs, stats_.iterations += groups.iterations;
  stats_.stalled += groups.stalled;
  stats_.largest_group = std::max(stats_.largest_group, groups.largest_group);
  stats_.contacts += static_cast<long>(contacts.size());
  stats_.largest_kkt_residual = std::max(stats_.largest_kkt_residual, result.program.kkt_residual);
  stats_.events += static_cast<long>(contacts.size());
  return static_cast<int>(contacts.size());
}

// Every body's clock at the step's start, each body's candidates, and an
// empty queue.
void EventStepper::start_events(EngineCore& core) {
  const std::size_t candidates = core.neighbours.candidates().size();
  body_time_.assign(core.world.size(), 0.0);
  version_.assign(candidates, 0);
  seen_.assign(candidates, 0);
  body_version_.assign(core.world.size(), 0);
  epoch_ = 0;
  queue_ = {};
  index_candidates(core);
}

// Time-stepping `seconds` sees a wall only where it overlaps a grain: a
// wall that crosses too much of a grain in that time stops the run, saying
// why the step is time-stepped (`why`).
void EventStepper::refuse_walls_too_fast(const EngineCore& core, double seconds, std::string_view why) {
  if (const std::string problem = wall_speed_problem(core.world, seconds); !problem.empty())
    throw InstabilityError(fmt::format(
        "at t = {:g} s {}, which sees a wall only where it overlaps a grain, and {}. The events sweep walls exactly; "
        "time-stepped, they need the slower wall",
        core.time, why, problem));
}

// The rest of the step by the time-stepping, as a step of its own length:
// there a wall is seen only where it overlaps a grain, so one that crosses
// too much of a grain in that time stops the run.
void EventStepper::hand_over(EngineCore& core, double seconds) {
  refuse_walls_too_fast(
      core, seconds, "a step is handed to the time-stepping (a resting contact, or grains colliding without end)");
  swept_ = false;
  const double dt = core.settings.dt;
  core.settings.dt = seconds;
  time_stepping_.step(core);
  core.settings.dt = dt;
  ++stats_.handed_over;
}

// Every body flies (none is time-stepped): the scheme of whole steps, and
// a step with no resting contact.
void EventStepper::fly_every_body(EngineCore& core) {
  World& w = core.world;
  for (std::size_t i = 0; i < w.size(); ++i) w.force[i] = w.is_wall[i] ? Vec2{} : body_force(w, i), w.torque[i] = 0.0;
  for (Candidate& c : core.neighbours.candidates()) c.active = c.sliding = false;
  for (ContactState& s : core.neighbours.states()) s = {};
}

// The resting clusters' program: their bodies' velocities after the step,
// their contacts' forces; the other contacts' states cleared for the
// events to fill. A grain the program throws farther than its free motion
// would have taken it, by more than the gap, may reach pairs the program
// left out: it is disturbed at once, its pairs timed as events.
void EventStepper::step_clusters(EngineCore& core) {
  const World& w = core.world;
  const double dt = core.settings.dt;
  std::vector<double> free_travel(w.size(), 0.0);
  for (std::size_t i = 0; i < w.size(); ++i)
    if (stepped_[i]) free_travel[i] = travel_in(w, i, w.velocity[i] + dt * w.inverse_mass[i] * body_force(w, i), dt);
  time_stepping_.collide_part(core, stepped_);
  for (std::size_t i = 0; i < w.size(); ++i)
    if (stepped_[i] && travel_in(w, i, w.velocity[i], dt) > free_travel[i] + core.settings.rigid.gap)
      disturbed_[i] = 1, ++disturbed_count_;
  const std::vector<Candidate>& candidates = core.neighbours.candidates();
  std::vector<ContactState>& states = core.neighbours.states();
  for (std::size_t k = 0; k < candidates.size(); ++k)
    if (!candidates[k].active) states[k] = {};
}

void EventStepper::step(EngineCore& core) {
  World& w = core.world;
  const double dt = core.settings.dt;
  swept_ = true;
  if (core.settings.rigid.whole_step_events) {
    stepped_.assign(w.size(), 0);
    if (resting_contact(core)) {
      count_body_steps(core, 0.0);
      hand_over(core, dt);
      return;
    }
  } else {
    find_clusters(core);
  }
  core.previous_position = w.position;
  disturbed_.assign(w.size(), 0);
  disturbed_count_ = 0;
  const long flying = count_body_steps(core, 1.0);
  if (flying < static_cast<long>(std::count(w.is_wall.begin(), w.is_wall.end(), false))) {
    refuse_walls_too_fast(core, dt, "grains rest against each other or a wall, and are time-stepped");
    step_clusters(core);
  } else {
    fly_every_body(core);
  }
  start_events(core);
  std::vector<int> everybody(w.size()), moved;
  std::iota(everybody.begin(), everybody.end(), 0);
  long met = collide_rounds(core, everybody, 0.0, moved), contacts_met = 0;
  schedule_all(core, 0.0);
  while (!queue_.empty()) {
    const Event next = queue_.top();
    queue_.pop();
    if (next.candidate < 0) {
      if (next.version == body_version_[static_cast<std::size_t>(-1 - next.candidate)]) met += relist(core, next.time);
      continue;
    }
    if (next.version != version_[static_cast<std::size_t>(next.candidate)]) continue;  // rescheduled since
    const Candidate& pair = core.neighbours.candidates()[static_cast<std::size_t>(next.candidate)];
    // The pair that met needs a next contact whatever happened; with it,
    // every candidate of its bodies and of those a collision moved.
    moved = {pair.vertex_body, pair.edge_body};
    met += collide_rounds(core, moved, next.time, moved);
    reschedule(core, moved, next.time);
    ++contacts_met;
    // More collisions in a step than a gas of the bodies they can involve
    // has means a cluster collapsing; far more contacts met than that, a
    // pair grazing at ever shorter intervals without colliding.
    const long gas = 8 * (flying + disturbed_count_) + 64;
    if (met > gas || contacts_met > kGrazesPerCollision * gas) {
      hand_over_the_rest(core, next.time, flying);
      return;
    }
  }
  advance_all(w, dt);
  ++stats_.steps;
  core.update_lists_or_orientations();
  core.sum_body_energies(false);
  core.clear_constraint_powers();
  core.first_unstable = kNotChecked;
}

// Bodies at `now` colliding without end: every body flown there and the
// rest of the step time-stepped. The time-stepped bodies took the whole
// step's impulse of their body forces in their program: the part not yet
// flown is taken back, for the time-stepping to give it again.
void EventStepper::hand_over_the_rest(EngineCore& core, double now, long flying) {
  World& w = core.world;
  const double rest = core.settings.dt - now;
  advance_all(w, now);
  for (std::size_t i = 0; i < w.size(); ++i)
    if (stepped_[i]) w.velocity[i] -= rest * w.inverse_mass[i] * body_force(w, i);
  core.body_steps.flown -= static_cast<double>(flying) * rest / core.settings.dt;
  core.body_steps.time_stepped += static_cast<double>(flying) * rest / core.settings.dt;
  stepped_.assign(w.size(), 0);
  core.update_orientations();
  hand_over(core, rest);
}

}  // namespace sphero
