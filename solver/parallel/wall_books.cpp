// The walls' books on ranks (DistributedEngine, docs/PARALLEL.md): every
// rank holds every wall; their forces are settled from every rank's
// contact shares in the serial order, a free wall's kick is redone, and
// their energies and work are booked once.
#include <algorithm>

#include "engine/candidate_order.h"
#include "engine/contact_geometry.h"
#include "engine/dof.h"
#include "engine/engine_part.h"
#include "parallel/distributed_engine.h"

namespace sphero {
namespace {

// One touching contact's share of a wall's force and torque, as the
// contact pass adds it, and where in the whole list's order it comes.
struct WallShare {
  int wall;  // whole-world index
  SortKey key;
  Vec2 force;
  double torque;
};

}  // namespace

// The walls' energies (every rank holds the same walls).
BodyEnergySums DistributedEngine::walls_energies() const {
  const World& w = engine_->world();
  BodyEnergySums sums;
  for (int k : walls_) sums.add(w, static_cast<std::size_t>(k));
  return sums;
}

// A wall free along some axis (a pressure plate) took the step's second
// kick from the forces of the contacts on this rank alone: it is redone,
// as velocity Verlet does it, from the velocity and settled forces the step
// started with and the settled forces it ended with (the same expressions,
// so the same bits as the serial run's).
void DistributedEngine::kick_free_walls(const std::vector<GrainMotion>& before) {
  World& w = EnginePart(*engine_).world_to_refresh();
  const double dt = settings_.dt;
  for (std::size_t j = 0; j < free_walls_.size(); ++j) {
    const int b = free_walls_[j];
    const BodyConstraint& tag = w.constraint[static_cast<std::size_t>(b)];
    const double start_force[3] = {before[j].force.x, before[j].force.y, before[j].torque};
    const double start_velocity[3] = {before[j].velocity.x, before[j].velocity.y, before[j].angular_velocity};
    for (int k = 0; k < 3; ++k) {
      if (tag.held[k]) continue;
      double v = start_velocity[k];
      v += 0.5 * dt * start_force[k] * dof_inverse_mass(w, b, k);
      v += 0.5 * dt * dof_force(w, b, k) * dof_inverse_mass(w, b, k);
      dof_velocity(w, b, k) = v;
    }
  }
}

// The walls' power as the step started, but with the velocities the
// drive gave the vibrating walls for it along their held axes (and their
// imposed velocities), in wall order as wall_powers() gives them.
std::vector<double> DistributedEngine::driven_wall_powers(
    const std::vector<std::pair<GrainMotion, BodyConstraint>>& at_start) const {
  const World& w = engine_->world();
  std::vector<double> powers;
  for (std::size_t j = 0; j < walls_.size(); ++j) {
    const auto k = static_cast<std::size_t>(walls_[j]);
    const auto& [motion, tag] = at_start[j];
    if (!tag.vibration.on()) {
      powers.push_back(constraint_power_of(tag, motion.force, motion.torque, motion.velocity, motion.angular_velocity));
      continue;
    }
    // Along a free axis (a shaken pressure plate), the velocity it started with.
    const BodyConstraint& driven = w.constraint[k];
    const Vec2 v{driven.held[dof_x] ? w.velocity[k].x : motion.velocity.x,
                 driven.held[dof_y] ? w.velocity[k].y : motion.velocity.y};
    const double omega = driven.held[dof_rotation] ? w.angular_velocity[k] : motion.angular_velocity;
    powers.push_back(constraint_power_of(driven, motion.force, motion.torque, v, omega));
  }
  return powers;
}

// The work of the walls' imposed motions over the step, by the trapezoid
// (and with vibrating walls the drive's work, and the first power taken
// anew with this step's wall velocities, as Engine::step does).
void DistributedEngine::book_wall_work(const std::vector<std::pair<GrainMotion, BodyConstraint>>& walls_at_start) {
  std::vector<double> powers = wall_powers();
  if (!vibrating_walls_.empty()) {
    wall_work_.add(EnginePart(*engine_).drive_work());
    wall_powers_ = driven_wall_powers(walls_at_start);
  }
  add_trapezoid_work(wall_work_, wall_powers_, powers, settings_.dt);
  wall_powers_ = std::move(powers);
}

std::vector<double> DistributedEngine::wall_powers() const {
  const World& w = engine_->world();
  std::vector<double> powers;
  for (int k : walls_) powers.push_back(constraint_power_of(w, static_cast<std::size_t>(k)));
  return powers;
}

// A wall's contacts are spread over the ranks that own the grains touching
// it: each sends its shares, and every rank adds all of them in the whole
// list's candidate order to the wall's loads, as the serial pass does.
void DistributedEngine::settle_wall_forces() {
  const NeighbourList& list = engine_->neighbour_list();
  const World& w = engine_->world();
  const std::vector<int>&start = list.body_candidate_start(), &incident = list.body_candidates();
  const WorldView view(w);
  std::vector<WallShare> mine;
  for (int k : walls_) {
    for (int j = start[static_cast<std::size_t>(k)]; j < start[static_cast<std::size_t>(k) + 1]; ++j) {
      const auto c = static_cast<std::size_t>(incident[static_cast<std::size_t>(j)]);
      const Candidate& key = list.candidates()[c];
      const bool vertex = key.vertex_body == k;
      const int other = vertex ? key.edge_body : key.vertex_body;
      if (!key.active || owner_[static_cast<std::size_t>(other)] != ranks_.rank()) continue;
      // The pass adds the forces of the contacts touching now: Gear's
      // re-evaluation of its corrected state leaves one that opened active,
      // its books to the next step, but adds no force for it.
      if (!contact_geometry(view, key).touching) continue;
      const ContactState& s = list.states()[c];
      const Vec2 centre =
          vertex ? w.position[static_cast<std::size_t>(k)] : w.position[static_cast<std::size_t>(k)] + key.edge_offset;
      // a − x and a + (−x) are the same number: the serial pass subtracts.
      const Vec2 f = vertex ? s.force : -s.force;
      const double t = vertex ? cross(s.point - centre, s.force) : -cross(s.point - centre, s.force);
      mine.push_back({held_[static_cast<std::size_t>(k)], sort_key(portable(key, w, held_)), f, t});
    }
  }
  std::vector<char> bytes;
  append_bytes(bytes, mine);
  std::vector<WallShare> all = records_of<WallShare>(ranks_.all_gather(bytes));
  std::sort(all.begin(), all.end(),
            [](const WallShare& a, const WallShare& b) { return a.wall != b.wall ? a.wall < b.wall : a.key < b.key; });
  World& out = EnginePart(*engine_).world_to_refresh();
  std::size_t at = 0;
  for (int k : walls_) {
    const auto i = static_cast<std::size_t>(k);
    // The loads first, as EngineCore::apply_loads sets them.
    const BodyConstraint& tag = out.constraint[i];
    out.force[i] = body_force(out, i);
    out.torque[i] = 0.0;
    if (!tag.held[dof_x]) out.force[i].x += tag.imposed_force.x;
    if (!tag.held[dof_y]) out.force[i].y += tag.imposed_force.y;
    if (!tag.held[dof_rotation]) out.torque[i] += tag.imposed_torque;
    for (; at < all.size() && all[at].wall == held_[i]; ++at) {
      out.force[i] += all[at].force;
      out.torque[i] += all[at].torque;
    }
  }
}

}  // namespace sphero
