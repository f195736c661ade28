#include "engine/verlet_stepper.h"

#include <algorithm>
#include <functional>

#include "engine/dof.h"
#include "engine/thread_team.h"

namespace sphero {
namespace {

// Half a kick of an unconstrained body: the per-DOF update below without
// its branches, operation for operation (the same bits).
void kick(World& w, std::size_t i, double dt) {
  w.velocity[i].x += 0.5 * dt * w.force[i].x * w.inverse_mass[i];
  w.velocity[i].y += 0.5 * dt * w.force[i].y * w.inverse_mass[i];
  w.angular_velocity[i] += 0.5 * dt * w.torque[i] * w.inverse_inertia[i];
}

}  // namespace

// Pass 1 over bodies [first, end); returns how far any of them may have
// moved since the list was built when measured (0 otherwise).
double VerletStepper::move_bodies(EngineCore& core, std::size_t first, std::size_t end, bool measure) {
  World& w = core.world;
  const double dt = core.settings.dt;
  double largest = 0.0;
  for (std::size_t i = first; i < end; ++i) {
    core.previous_position[i] = w.position[i];
    // Unconstrained bodies (nearly all) take a straight path without the
    // per-DOF branches and without reading their constraint records; the
    // arithmetic is the same, so are the bits.
    if (core.unconstrained[i]) {
      kick(w, i, dt);
      w.position[i] += w.velocity[i] * dt;
      w.angle[i] += w.angular_velocity[i] * dt;
      w.force[i] = body_force(w, i);
      w.torque[i] = 0.0;
    } else {
      const int b = static_cast<int>(i);
      for (int k = 0; k < 3; ++k) {
        double& v = dof_velocity(w, b, k);
        if (w.constraint[i].held[k]) v = w.constraint[i].imposed_velocity[k];
        else v += 0.5 * dt * dof_force(w, b, k) * dof_inverse_mass(w, b, k);
        dof_position(w, b, k) += v * dt;
      }
    }
    update_orientation(w, i);
    if (measure) largest = std::max(largest, core.neighbours.motion_of(w, i));
  }
  return largest;
}

// Pass 3 for one chunk of bodies: the kick, the chunk's energy sums, and
// the lowest body in it that looks unstable (the body count if none).
std::size_t VerletStepper::finish_chunk(EngineCore& core, std::size_t c) {
  World& w = core.world;
  const double dt = core.settings.dt;
  const std::size_t n = w.size();
  std::size_t first_bad = n;
  BodyEnergySums sums;
  for (std::size_t i = c * kBodyChunk; i < std::min(n, (c + 1) * kBodyChunk); ++i) {
    if (core.unconstrained[i]) {
      kick(w, i, dt);
    } else {
      const int b = static_cast<int>(i);
      for (int k = 0; k < 3; ++k)
        if (!w.constraint[i].held[k])
          dof_velocity(w, b, k) += 0.5 * dt * dof_force(w, b, k) * dof_inverse_mass(w, b, k);
    }
    if (core.counts(i)) sums.add(w, i);
    if (first_bad == n && looks_unstable(w, core.previous_position, i)) first_bad = i;
  }
  core.body_sums[c] = sums;
  return first_bad;
}

// Passes 1 and 2.
void VerletStepper::move_and_force(EngineCore& core) {
  World& w = core.world;
  const std::size_t n = w.size();
  core.previous_position.resize(n);
  const bool measure = core.neighbours.ready(w);
  const int threads = core.body_threads();
  const std::vector<std::size_t>& parts = core.body_parts();
  const auto body_bound = [&](std::size_t t) { return threads == 1 ? (t == 0 ? 0 : n) : parts[t]; };
  // One item per part: member t moves part t.
  const double largest = ThreadTeam::reduce_parts(
      threads, [](int t) { return static_cast<std::size_t>(t); }, 0.0,
      [&](std::size_t t) { return move_bodies(core, body_bound(t), body_bound(t + 1), measure); }, std::greater<>());
  // A whole rebuild brings every vertex up to date; otherwise the contact
  // pass computes the vertices it reads from the orientations.
  const bool rebuilt = measure ? core.neighbours.update(w, largest) : core.neighbours.update(w);
  core.vertices_stale = !(rebuilt && core.neighbours.all_vertices_current());
  // Velocity-dependent forces see the half-step velocities, which are also
  // exactly the mean velocities over the step for the tangential springs.
  core.evaluate_forces(core.settings.dt, /*unconstrained_loads_set=*/true);
}

// Pass 3, with the same parts as pass 1 (whole chunks, as body_parts()
// says after this step's list): the bodies whose forces this thread added.
std::size_t VerletStepper::finish_bodies(EngineCore& core) {
  const std::size_t n = core.world.size(), chunks = body_chunks(n);
  core.body_sums.assign(chunks, BodyEnergySums{});
  const int threads = core.body_threads();
  const std::vector<std::size_t>& parts = core.body_parts();
  const auto chunk_bound = [&](int t) {
    return threads == 1 ? (t == 0 ? 0 : chunks) : body_chunks(parts[static_cast<std::size_t>(t)]);
  };
  const std::size_t first_bad = ThreadTeam::reduce_parts(
      threads, chunk_bound, n, [&](std::size_t c) { return finish_chunk(core, c); }, std::less<>());
  core.close_body_energy_sums(true);
  return first_bad;
}

void VerletStepper::step(EngineCore& core) {
  move_and_force(core);
  core.first_unstable = finish_bodies(core);
}

}  // namespace sphero
