#include "engine/rigid_stepper.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "engine/collision_sides.h"
#include "engine/stability.h"
#include "rigid/collision_components.h"

namespace sphero {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A body's velocity and spin: now, or under the step's free motion.
struct Motion {
  Vec2 velocity;
  double spin = 0.0;
};

// The relative normal velocity at the contact with the bodies moving as
// `motion_of` says (walls at their imposed velocity).
template <class MotionOf>
double normal_velocity(const World& w, const Sides& s, Vec2 point, const MotionOf& motion_of) {
  const auto at = [&](int b, Vec2 shift) {
    const Motion m = motion_of(b);
    return m.velocity + m.spin * perp(point - (w.position[static_cast<std::size_t>(b)] + shift));
  };
  Vec2 relative = at(s.body, s.body_shift);
  if (s.other >= 0) relative -= at(s.other, s.other_shift);
  if (s.wall >= 0) relative -= WorldView(w).velocity_at(s.wall, point, s.wall_shift);
  return dot(relative, s.normal);
}

// Without a collision: the velocities plus the body forces' impulse.
Motion free_motion(const World& w, int b, double dt) {
  const auto i = static_cast<std::size_t>(b);
  return {w.velocity[i] + dt * w.inverse_mass[i] * body_force(w, i), w.angular_velocity[i]};
}

// A contact collides, with its law, when the step's free motion closes it
// to within the gap and it is not parting now; every other contact within
// reach is guarded (rigid_stepper.h).
bool collides(const World& w, const GapContact& g, const Sides& s, double dt, double gap, double before) {
  const double approach = normal_velocity(w, s, g.point, [&](int b) { return free_motion(w, b, dt); });
  return approach <= 0.0 && before <= 0.0 && g.gap + dt * approach <= gap;
}

void require_rigid_world(const World& w, const RigidSettings& settings) {
  if (w.rigid_law.size() != static_cast<std::size_t>(w.material_count) * static_cast<std::size_t>(w.material_count))
    throw std::invalid_argument(
        "model = rigid needs a rigid law ('law = A B rigid restitution=...') for every pair of materials");
  if (!(settings.gap > 0.0) || !std::isfinite(settings.gap) || !(settings.overlap_tolerance > 0.0))
    throw std::invalid_argument("model = rigid needs a positive contact gap and overlap tolerance");
  for (std::size_t i = 0; i < w.size(); ++i) {
    const BodyConstraint& tag = w.constraint[i];
    if (w.is_wall[i] && !tag.holds_all())
      throw std::invalid_argument(fmt::format(
          "wall {} is pushed by a pressure or free to move: the rigid model moves walls at imposed velocities only "
          "(give it 'velocity=' or leave it fixed)",
          i));
    if (!w.is_wall[i] && (tag.held != std::array<bool, 3>{false, false, false} || tag.imposed_force != Vec2{} ||
                          tag.imposed_torque != 0.0))
      throw std::invalid_argument(fmt::format("body {}: the rigid model takes grains without constraints", i));
  }
}

// The pairs a step examines: all that the list keeps within reach of each
// other. The list holds every pair within the gap plus the skin's ceiling
// at all times (NeighbourSettings::gap), so that a pair the step's motion
// closes by up to that ceiling is seen while still apart.
double examined_gap(const EngineCore& core) {
  return core.settings.rigid.gap + core.settings.verlet_distance + 2.0 * core.neighbours.verlet_distance();
}

// Each body's force before the collision's percussions join it: the body
// forces on grains, nothing on walls.
void set_body_forces(World& w) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    w.force[i] = w.is_wall[i] ? Vec2{} : body_force(w, i);
    w.torque[i] = 0.0;
  }
}

}  // namespace

void RigidStepper::start(EngineCore& core) {
  require_rigid_world(core.world, core.settings.rigid);
  set_body_forces(core.world);
}

void RigidStepper::correct_overlaps(EngineCore& core, std::vector<GapContact>& near) {
  World& w = core.world;
  double deepest = 0.0, deepest_fraction = 0.0;
  for (const GapContact& g : near) {
    deepest = std::max(deepest, -g.gap);
    deepest_fraction = std::max(deepest_fraction, -g.gap / g.reach);
  }
  if (deepest_fraction > core.deepest_overlap)
    core.deepest_overlap = deepest_fraction, core.deepest_overlap_time = core.time;
  if (!(deepest > core.settings.rigid.overlap_tolerance)) return;
  const Clock::time_point start = Clock::now();
  // The smallest mass-weighted displacement that opens every contact of
  // the set to at least zero gap, linearised: a collision of bodies at
  // rest whose mean velocity x must give each contact d(x) ≥ −gap/2; the
  // displacement is then 2x (docs/MODEL.md §7, "Position correction").
  std::vector<CollisionContact> contacts;
  std::vector<GapContact> within_gap;
  begin_program(w.size());
  for (const GapContact& g : near) {
    if (g.gap >= core.settings.rigid.gap) continue;
    within_gap.push_back(g);
    const Sides s = sides_of(w, g);
    CollisionContact c;
    c.body = join(w, s.body, {}, 0.0, {});
    c.other = join(w, s.other, {}, 0.0, {});
    c.body_shift = s.body_shift;
    c.other_shift = s.other_shift;
    c.point = g.point;
    c.normal = s.normal;
    c.bias = -0.5 * g.gap;
    contacts.push_back(c);
  }
  const CollisionResult moved =
      resolve_collisions_by_group(states_, contacts, core.collision_settings(), nullptr, core.programs_apart());
  if (!moved.program.converged || !moved.jammed.empty())
    throw InstabilityError(fmt::format(
        "step {} (t = {:g}): no displacement opens the overlaps of {} contacts among {} bodies (the deepest {:g} m"
        "{}). Likely cause: grains packed tighter than rigid ones fit, e.g. a packing compressed with soft contacts "
        "between fixed walls; start from one without overlaps, or give rigid_gap above its overlaps",
        core.step + 1, core.time + core.settings.dt, contacts.size(), members_.size(), deepest,
        moved.jammed.empty() ? fmt::format("; the program did not converge, residual {:g}", moved.program.kkt_residual)
                             : "; jammed: " + jammed_bodies_in_words(w, within_gap, moved.jammed)));
  for (std::size_t m = 0; m < members_.size(); ++m) {
    const auto i = static_cast<std::size_t>(members_[m]);
    w.position[i] += moved.velocity[m];
    w.angle[i] += moved.angular_velocity[m];
    update_orientation(w, i);
  }
  ++stats_.corrections;
  near = gap_contacts(w, core.neighbours, examined_gap(core));
  stats_.seconds_correcting += seconds_since(start);
}

void RigidStepper::begin_program(std::size_t bodies) {
  slot_.assign(bodies, -1);
  members_.clear();
  states_.clear();
}

int RigidStepper::join(const World& w, int b, Vec2 velocity, double spin, Vec2 impulse) {
  if (b < 0) return -1;
  int& s = slot_[static_cast<std::size_t>(b)];
  if (s < 0) {
    s = static_cast<int>(members_.size());
    members_.push_back(b);
    const auto i = static_cast<std::size_t>(b);
    states_.push_back({w.mass[i], w.inertia[i], w.position[i], velocity, spin, impulse, 0.0});
  }
  return s;
}

CollisionContact RigidStepper::collision_contact(const World& w, const GapContact& g, double dt, double gap,
                                                 bool& guarded) {
  const Sides s = sides_of(w, g);
  const auto joined = [&](int b) {
    if (b < 0) return -1;
    const auto i = static_cast<std::size_t>(b);
    return join(w, b, w.velocity[i], w.angular_velocity[i], dt * body_force(w, i));
  };
  CollisionContact c = collision_contact_of(w, g, s);
  c.body = joined(s.body);
  c.other = joined(s.other);
  const double before = normal_velocity_now(w, s, g.point);
  guarded = !collides(w, g, s, dt, gap, before);
  if (guarded) {
    // Guarded: free to close its gap to half the contact gap within the
    // step (a margin for turning bodies), never to work; Coulomb's friction
    // still holds whatever normal percussion it comes to carry (a resting
    // contact that rounding shows as parting).
    c.elastic = true;
    c.bias = std::min(0.0, 0.5 * (before - std::max(g.gap - 0.5 * gap, 0.0) / dt));
    c.friction = w.rigid_law_between(g.vertex_body, g.edge_body).friction;
    return c;
  }
  apply_law(w, g, s, c);
  return c;
}

namespace {

// The fastest any point of body b moves under the step's free motion.
double speed_bound(const World& w, std::size_t b, double dt) {
  if (w.is_wall[b]) return norm(w.velocity[b]) + std::abs(w.angular_velocity[b]) * w.bounding_radius[b];
  return norm(free_motion(w, static_cast<int>(b), dt).velocity) +
         std::abs(w.angular_velocity[b]) * w.bounding_radius[b];
}

// Pairs farther apart than the gap plus twice what their two bodies can
// close in a step at the speeds of their free motion cannot collide, and
// need no guard unless a collision throws one of them more than that much
// faster: left out of the program (such a throw is caught as an overlap).
// Every colliding contact stays.
void leave_out_unreachable(const EngineCore& core, std::vector<GapContact>& near) {
  const World& w = core.world;
  const double dt = core.settings.dt, gap = core.settings.rigid.gap;
  std::erase_if(near, [&](const GapContact& g) {
    if (g.gap <= gap) return false;
    const double closing = speed_bound(w, static_cast<std::size_t>(g.vertex_body), dt) +
                           speed_bound(w, static_cast<std::size_t>(g.edge_body), dt);
    return g.gap > gap + 2.0 * dt * closing;
  });
}

}  // namespace

// Every contact within reach, colliding or guarded.
std::vector<CollisionContact> RigidStepper::program_contacts(const EngineCore& core,
                                                             const std::vector<GapContact>& near) {
  const World& w = core.world;
  std::vector<CollisionContact> out;
  out.reserve(near.size());
  guarded_.assign(near.size(), 0);
  begin_program(w.size());
  for (std::size_t k = 0; k < near.size(); ++k) {
    const GapContact& g = near[k];
    bool guarded = false;
    out.push_back(collision_contact(w, g, core.settings.dt, core.settings.rigid.gap, guarded));
    guarded_[k] = guarded;
    if (core.settings.rigid.solver == RigidSolver::gauss_seidel) start_warm(core, g, out.back());
  }
  return out;
}

// A guarded contact of an elastic law that the collision pressed (a
// percussion that changes its relative velocity by far more than the
// programs' tolerance, which an idle row's multiplier may reach) is held by
// the step: it is held by its law instead, d(x) ≥ 0,
// a collision across its gap that does no work. True when any contact
// changed, for the program to be solved again. Other laws keep the guard:
// their bound ½ d(U⁻) would push a parting pair apart, and solving again
// costs the heap's steps two thirds more.
bool RigidStepper::give_held_guards_their_law(const EngineCore& core, const std::vector<GapContact>& near,
                                              const CollisionResult& result, std::vector<CollisionContact>& contacts) {
  const World& w = core.world;
  bool changed = false;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    if (!guarded_[k]) continue;
    const GapContact& g = near[k];
    if (!w.rigid_law_between(g.vertex_body, g.edge_body).elastic()) continue;
    const Sides s = sides_of(w, g);
    const double pressed = result.normal_percussion[k] / effective_mass(w, s, g.point);
    if (!(pressed > kPressedAbove * core.settings.rigid.qp_tolerance * (1.0 + std::abs(contacts[k].bias)))) continue;
    contacts[k].bias = 0.0;
    guarded_[k] = 0;
    changed = true;
  }
  return changed;
}

// The percussion contact g carried last step, if it carried one (its
// candidate's state, which checkpoints keep), in c's frame: where the
// Gauss–Seidel sweeps start.
void RigidStepper::start_warm(const EngineCore& core, const GapContact& g, CollisionContact& c) const {
  const auto k = static_cast<std::size_t>(g.candidate);
  if (!core.neighbours.candidates()[k].active) return;
  const bool vertex_is_body = sides_of(core.world, g).body == g.vertex_body;
  const Vec2 on_body = (vertex_is_body ? 1.0 : -1.0) * core.settings.dt * core.neighbours.states()[k].force;
  c.warm_normal = dot(on_body, c.normal);
  c.warm_tangential = dot(on_body, perp(c.normal));
}

CollisionResult RigidStepper::collide(const EngineCore& core, const std::vector<GapContact>& near,
                                      const std::vector<CollisionContact>& contacts) {
  const RigidSettings& settings = core.settings.rigid;
  if (contacts.empty()) return {};
  const Clock::time_point solving = Clock::now();
  ComponentStats groups;
  CollisionResult result =
      resolve_collisions_by_group(states_, contacts, core.collision_settings(), &groups, core.programs_apart());
  stats_.seconds_solving += seconds_since(solving);
  stats_.groups += groups.groups;
  stats_.group_programs += groups.programs;
  stats_.iterations += groups.iterations;
  stats_.stalled += groups.stalled;
  stats_.largest_group = std::max(stats_.largest_group, groups.largest_group);
  stats_.largest_kkt_residual = std::max(stats_.largest_kkt_residual, result.program.kkt_residual);
  const double t = core.time + core.settings.dt;
  if (!result.jammed.empty())
    throw InstabilityError(fmt::format(
        "step {} (t = {:g}): {} cannot make way: no rigid motion keeps their contacts from overlapping (a wall "
        "driven into grains that are jammed against each other or other walls). Rigid grains cannot be compressed "
        "once jammed: stop or slow the wall before the sample jams (a stage with set_wall = NAME fixed), or "
        "compress the sample with model = soft",
        core.step + 1, t, jammed_bodies_in_words(core.world, near, result.jammed)));
  if (!result.program.converged)
    throw InstabilityError(fmt::format(
        "step {} (t = {:g}): the collision program of {} contacts among {} bodies did not converge (residual {:g} "
        "after {} {}, tolerance {:g}); a looser rigid_tolerance may let it finish",
        core.step + 1, t, contacts.size(), members_.size(), result.program.kkt_residual, result.program.iterations,
        settings.solver == RigidSolver::gauss_seidel ? "Gauss-Seidel sweeps" : "interior-point iterations",
        settings.qp_tolerance));
  return result;
}

void RigidStepper::store_percussions(EngineCore& core, const std::vector<GapContact>& near,
                                     const std::vector<CollisionContact>& contacts, const CollisionResult& result) {
  World& w = core.world;
  const double dt = core.settings.dt;
  std::vector<Candidate>& candidates = core.neighbours.candidates();
  std::vector<ContactState>& states = core.neighbours.states();
  for (Candidate& c : candidates) c.active = c.sliding = false;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const GapContact& g = near[k];
    const CollisionContact& c = contacts[k];
    // A contact without a percussion is no contact of the output.
    if (result.normal_percussion[k] == 0.0 && result.tangential_percussion[k] == 0.0) continue;
    const Vec2 on_vertex =
        mean_force_on_vertex(w, g, c, result.normal_percussion[k], result.tangential_percussion[k], dt);
    candidates[static_cast<std::size_t>(g.candidate)].active = true;
    states[static_cast<std::size_t>(g.candidate)] = {{}, on_vertex, g.point, {}, result.normal_percussion[k] / dt};
    add_mean_force(w, g, on_vertex);
  }
}

void RigidStepper::move_bodies(EngineCore& core) {
  World& w = core.world;
  const double dt = core.settings.dt;
  for (std::size_t i = 0; i < w.size(); ++i) {
    w.position[i] += dt * w.velocity[i];
    w.angle[i] += dt * w.angular_velocity[i];
  }
}

void RigidStepper::step(EngineCore& core) {
  core.previous_position = core.world.position;
  collide_part(core, {});
  ++stats_.steps;
  move_bodies(core);
  core.update_lists_or_orientations();
  core.sum_body_energies(false);
  core.clear_constraint_powers();
  core.first_unstable = kNotChecked;
}

void RigidStepper::collide_part(EngineCore& core, const std::vector<char>& part) {
  World& w = core.world;
  const double dt = core.settings.dt;
  const auto in_part = [&](int b) {
    return part.empty() || w.is_wall[static_cast<std::size_t>(b)] || part[static_cast<std::size_t>(b)];
  };
  const Clock::time_point start = Clock::now();
  std::vector<GapContact> near = gap_contacts(w, core.neighbours, examined_gap(core));
  stats_.seconds_detecting += seconds_since(start);
  correct_overlaps(core, near);

  const Clock::time_point assembling = Clock::now();
  if (!part.empty())
    std::erase_if(near, [&](const GapContact& g) { return !(in_part(g.vertex_body) && in_part(g.edge_body)); });
  leave_out_unreachable(core, near);
  std::vector<CollisionContact> contacts = program_contacts(core, near);
  set_body_forces(w);
  stats_.seconds_detecting += seconds_since(assembling);
  CollisionResult result = collide(core, near, contacts);
  if (!contacts.empty()) ++stats_.programs, stats_.contacts += static_cast<long>(contacts.size());
  for (int pass = 0; pass < kLawPasses && give_held_guards_their_law(core, near, result, contacts); ++pass)
    result = collide(core, near, contacts);

  // Velocities after the step: from the collision for the bodies in it,
  // the free motion's for the others of the part.
  // (members_ and slot_ say which bodies the program had: none without contacts).
  for (std::size_t m = 0; m < members_.size(); ++m) {
    const auto i = static_cast<std::size_t>(members_[m]);
    w.velocity[i] = result.velocity[m];
    w.angular_velocity[i] = result.angular_velocity[m];
  }
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!w.is_wall[i] && slot_[i] < 0 && in_part(static_cast<int>(i)))
      w.velocity[i] += dt * w.inverse_mass[i] * w.force[i];
  store_percussions(core, near, contacts, result);
  core.book_dissipation(result.dissipated);
  core.book_work(result.wall_work);
}

std::vector<Contact> RigidStepper::contacts(const EngineCore& core) const {
  const World& w = core.world;
  const WorldView view(w);
  const NeighbourList& list = core.neighbours;
  std::vector<Contact> out;
  out.reserve(list.candidates().size());
  for (std::size_t k = 0; k < list.candidates().size(); ++k) {
    const Candidate& key = list.candidates()[k];
    const ContactState& s = list.states()[k];
    Contact c = record_of_key(key);
    if (c.active) {
      c.point = s.point;
      c.force = s.force;
      c.normal_force = s.normal_force;
      // The geometry now, the bodies having moved a step since the
      // collision: within the list's reach, which the widened gap covers.
      const double reach = 2.0 * (core.settings.rigid.gap + list.verlet_distance()) + key.reach;
      GapContact g;
      if (gap_contact_of(view, key, static_cast<int>(k), reach, g))
        c.normal = g.normal, c.overlap = std::max(0.0, -g.gap);
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace sphero
