#include "engine/engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <numbers>

#include "engine/thread_team.h"

namespace sphero {
namespace {

double dof_force(const World& w, int i, int k) {
  return k == dof_x ? w.force[i].x : (k == dof_y ? w.force[i].y : w.torque[i]);
}
double& dof_velocity(World& w, int i, int k) {
  return k == dof_x ? w.velocity[i].x : (k == dof_y ? w.velocity[i].y : w.angular_velocity[i]);
}
double& dof_position(World& w, int i, int k) {
  return k == dof_x ? w.position[i].x : (k == dof_y ? w.position[i].y : w.angle[i]);
}
double dof_inverse_mass(const World& w, int i, int k) { return k == dof_rotation ? w.inverse_inertia[i] : w.inverse_mass[i]; }

// Half a velocity-Verlet kick of a free body: the per-DOF update below
// without its branches, operation for operation (the same bits).
void kick(World& w, std::size_t i, double dt) {
  w.velocity[i].x += 0.5 * dt * w.force[i].x * w.inverse_mass[i];
  w.velocity[i].y += 0.5 * dt * w.force[i].y * w.inverse_mass[i];
  w.angular_velocity[i] += 0.5 * dt * w.torque[i] * w.inverse_inertia[i];
}

// An open contact forgets its tangential spring and last forces.
void forget_history(Candidate& key, ContactState& c) {
  key.active = key.sliding = false;
  c = {};
}

// Gear's corrector coefficients for second-order equations with five
// values (Allen & Tildesley, Computer Simulation of Liquids, table E.2).
constexpr double kGear[5] = {19.0 / 120.0, 3.0 / 4.0, 1.0, 1.0 / 2.0, 1.0 / 12.0};

}  // namespace

std::string_view to_string(Integrator integrator) {
  return integrator == Integrator::velocity_verlet ? "verlet" : "gear";
}

Integrator integrator_from_string(std::string_view word) {
  if (word == "verlet" || word == "velocity-verlet") return Integrator::velocity_verlet;
  if (word == "gear") return Integrator::gear;
  throw std::invalid_argument("unknown integrator '" + std::string(word) + "': use verlet or gear");
}

namespace {

// The shortest contact period 2π sqrt(m_min / k) and what sets it.
struct ContactPeriod {
  double period = INFINITY;  // infinite when no body moves freely
  double lightest = 0.0, stiffest = 0.0;
  int material_a = 0, material_b = 0;
};

ContactPeriod shortest_contact_period(const World& w) {
  ContactPeriod p;
  double lightest = INFINITY, thinnest = INFINITY;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w.constraint[i].holds_all()) continue;
    lightest = std::min(lightest, w.mass[i]);
    thinnest = std::min(thinnest, w.radius[i] > 0.0 ? w.radius[i] : w.bounding_radius[i]);
  }
  if (!std::isfinite(lightest)) return p;
  for (int a = 0; a < w.material_count; ++a)
    for (int b = 0; b < w.material_count; ++b) {
      // Hertz: tangent stiffness at an overlap of 10% of the thinnest radius.
      const double k = w.law[a * w.material_count + b].stiffness_for_time_step(0.1 * thinnest);
      if (k > p.stiffest) p.stiffest = k, p.material_a = a, p.material_b = b;
    }
  p.lightest = lightest;
  p.period = 2.0 * std::numbers::pi * std::sqrt(lightest / p.stiffest);
  return p;
}

}  // namespace

double check_time_step(const World& w, const EngineSettings& s) {
  if (!(s.dt > 0.0) || !std::isfinite(s.dt)) throw std::invalid_argument("the time step dt must be positive");
  if (!(s.verlet_distance > 0.0) || !std::isfinite(s.verlet_distance))
    throw std::invalid_argument("the Verlet distance must be positive");
  const ContactPeriod p = shortest_contact_period(w);
  const double limit = 0.1 * p.period;
  if (s.dt > limit && !s.allow_large_time_step)
    throw std::invalid_argument(fmt::format(
        "the time step dt = {:g} is above a tenth of the shortest contact period 2π sqrt(m_min/k_n) = {:g} "
        "(m_min = {:g}, k_n = {:g} between materials {} and {}); use dt <= {:g}, or allow it explicitly",
        s.dt, p.period, p.lightest, p.stiffest, p.material_a, p.material_b, limit));
  return limit;
}

// The neighbour list's part of the engine's settings.
static NeighbourSettings neighbour_settings(const EngineSettings& s) {
  return {s.verlet_distance, s.brute_force_neighbours, s.threads, s.adaptive_verlet_distance, s.contact_lists,
          s.partial_rebuilds};
}

// A fifth of check_time_step's limit, computed as that limit is.
double default_time_step(const World& world) { return 0.1 * shortest_contact_period(world).period / 5.0; }

Engine::Engine(World world, EngineSettings settings)
    : world_(std::move(world)),
      settings_(settings),
      neighbours_(neighbour_settings(settings)) {
  dt_limit_ = check_time_step(world_, settings_);
  find_span_followers();
  find_free_bodies();
  if (settings_.threads < 1) throw std::invalid_argument("the number of threads must be at least 1");
  for (std::size_t i = 0; i < world_.size(); ++i)
    for (int k = 0; k < 3; ++k)
      if (world_.constraint[i].held[k]) dof_velocity(world_, static_cast<int>(i), k) = world_.constraint[i].imposed_velocity[k];
  neighbours_.update(world_);
  compute_forces(0.0);
  if (settings_.integrator == Integrator::gear) start_gear();
  update_energy(true);
  ledger_.initial_mechanical = ledger_.mechanical();
}

Engine::Engine(EngineSnapshot s)
    : world_(std::move(s.world)),
      settings_(s.settings),
      neighbours_(neighbour_settings(s.settings), std::move(s.neighbours), world_),
      ledger_(s.ledger),
      time_(s.time),
      step_(s.step),
      power_(s.power),
      r2_(std::move(s.r2)),
      r3_(std::move(s.r3)),
      r4_(std::move(s.r4)),
      deepest_overlap_(s.deepest_overlap),
      deepest_overlap_time_(s.deepest_overlap_time) {
  // A checkpoint keeps the vertices but not the orientations derived from
  // the angles (the same numbers the running engine held).
  world_.orientation.resize(world_.size(), Vec2{1.0, 0.0});
  for (std::size_t i = 0; i < world_.size(); ++i) update_orientation(world_, i);
  mark_seams(world_);
  dt_limit_ = check_time_step(world_, settings_);
  find_span_followers();
  find_free_bodies();
}

// Gear's scaled derivatives, from the forces of the current state (the
// higher ones zero); velocity Verlet runs do without the 72 bytes a body.
void Engine::start_gear() {
  r2_.assign(world_.size(), {0.0, 0.0, 0.0});
  r3_ = r2_;
  r4_ = r2_;
  const double half_dt2 = 0.5 * settings_.dt * settings_.dt;
  for (std::size_t i = 0; i < world_.size(); ++i)
    for (int k = 0; k < 3; ++k)
      if (!world_.constraint[i].held[k])
        r2_[i][k] = dof_force(world_, static_cast<int>(i), k) * dof_inverse_mass(world_, static_cast<int>(i), k) * half_dt2;
}

void Engine::find_span_followers() {
  span_followers_.clear();
  for (std::size_t i = 0; i < world_.size(); ++i)
    if (world_.constraint[i].follows_span()) span_followers_.push_back(static_cast<int>(i));
}

void Engine::find_free_bodies() {
  const World& w = world_;
  free_.resize(w.size());
  constrained_.clear();
  for (std::size_t i = 0; i < w.size(); ++i) {
    const BodyConstraint& tag = w.constraint[i];
    free_[i] = !tag.held[0] && !tag.held[1] && !tag.held[2] && tag.imposed_force == Vec2{} && tag.imposed_torque == 0.0 &&
               !tag.follows_span();
    if (!free_[i]) constrained_.push_back(static_cast<int>(i));
  }
  constraints_may_have_changed_ = false;
}

EngineSnapshot Engine::snapshot() const {
  refresh_vertices();
  return {world_, settings_, neighbours_.state(world_), ledger_, time_, step_, power_, r2_, r3_, r4_, deepest_overlap_,
          deepest_overlap_time_};
}

void Engine::evaluate_forces_now() {
  if (constraints_may_have_changed_) find_free_bodies();
  update_world_vertices(world_);
  compute_forces(0.0);
  update_energy();
}

// An even split of the candidate chunks for the current list and thread
// count; balance_split moves it from there.
void Engine::make_split(std::size_t chunks) {
  const auto threads = static_cast<std::size_t>(settings_.threads);
  split_.threads = settings_.threads;
  split_.rebuild = neighbours_.stats().rebuilds;
  split_.chunks = chunks;
  split_.first_chunk.resize(threads + 1);
  for (std::size_t t = 0; t <= threads; ++t) split_.first_chunk[t] = chunks * t / threads;
  split_.contact_time.assign(threads, {});
  split_.timed_steps = 0;
  assign_owners();
}

// The bodies each run's candidates start from (the body passes' parts),
// which run adds each body's forces, and the candidates each run evaluates
// again for its bodies (Split::foreign).
void Engine::assign_owners() {
  const std::vector<Candidate>& candidates = neighbours_.candidates();
  const std::vector<ContactState>& states = neighbours_.states();
  const std::size_t n = world_.size(), threads = split_.first_chunk.size() - 1;
  // Candidates are sorted by their lower body: a run's first candidate
  // names the first body it holds, rounded to the body passes' chunks.
  split_.bodies = n;
  split_.first_body.assign(threads + 1, n);
  split_.first_body[0] = 0;
  for (std::size_t t = 1; t < threads; ++t) {
    const std::size_t k = split_.first_chunk[t] * kContactChunk;
    std::size_t body = n;
    if (k < candidates.size()) {
      const auto low = static_cast<std::size_t>(std::min(candidates[k].vertex_body, candidates[k].edge_body));
      body = std::min(n, (low + kBodyChunk / 2) / kBodyChunk * kBodyChunk);
    }
    split_.first_body[t] = std::max(body, split_.first_body[t - 1]);
  }
  const auto run_of = [&](std::size_t k) {
    const std::size_t chunk = k / kContactChunk;
    return static_cast<int>(std::upper_bound(split_.first_chunk.begin(), split_.first_chunk.end(), chunk) -
                            split_.first_chunk.begin()) - 1;
  };
  // A body's candidates are listed in candidate order: its last one lies
  // in the last run holding any.
  const std::vector<int>& start = neighbours_.body_candidate_start();
  const std::vector<int>& mine = neighbours_.body_candidates();
  split_.owner.assign(n, -1);
  for (std::size_t b = 0; b < n; ++b)
    if (start[b] != start[b + 1]) split_.owner[b] = run_of(static_cast<std::size_t>(mine[static_cast<std::size_t>(start[b + 1] - 1)]));
  // The springs are copied as they stand between two steps, where the
  // copies and the originals agree.
  split_.foreign.resize(threads);
  for (Split::Foreign& f : split_.foreign) f.candidates.clear(), f.springs.clear();
  std::size_t run = 0;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    while (run + 1 < threads && k >= split_.first_chunk[run + 1] * kContactChunk) ++run;
    const int v = split_.owner[static_cast<std::size_t>(candidates[k].vertex_body)];
    const int e = split_.owner[static_cast<std::size_t>(candidates[k].edge_body)];
    for (const int later : {v, e != v ? e : -1})
      if (later > static_cast<int>(run)) {
        Split::Foreign& f = split_.foreign[static_cast<std::size_t>(later)];
        f.candidates.push_back(static_cast<int>(k));
        f.springs.push_back(states[k].xi);
      }
  }
}

// Every kBalanceSteps, each boundary between two runs moves toward equal
// contact times: by half the chunks that would even the last period out,
// at the cost per chunk of the two runs (half, so that a noisy period
// does not throw it about).
void Engine::balance_split() {
  constexpr int kBalanceSteps = 50;
  if (++split_.timed_steps < kBalanceSteps) return;
  std::vector<std::size_t>& first = split_.first_chunk;
  bool moved = false;
  for (std::size_t t = 1; t + 1 < first.size(); ++t) {
    const double left = split_.contact_time[t - 1].seconds, right = split_.contact_time[t].seconds;
    const auto left_chunks = static_cast<double>(first[t] - first[t - 1]);
    const auto right_chunks = static_cast<double>(first[t + 1] - first[t]);
    if (left_chunks < 1 || right_chunks < 1 || !(left + right > 0.0)) continue;
    const double per_chunk = 0.5 * (left / left_chunks + right / right_chunks);
    const double even_out = (right - left) / (2.0 * per_chunk);  // chunks to move from right to left
    const auto shift = static_cast<long>(std::lround(0.5 * even_out));
    if (shift == 0) continue;
    const long lowest = static_cast<long>(first[t - 1]) + 1, highest = static_cast<long>(first[t + 1]) - 1;
    const long boundary = std::clamp(static_cast<long>(first[t]) + shift, lowest, highest);
    moved = moved || boundary != static_cast<long>(first[t]);
    first[t] = static_cast<std::size_t>(boundary);
  }
  if (moved) assign_owners();
  for (Split::Clock& c : split_.contact_time) c.seconds = 0.0;
  split_.timed_steps = 0;
}

const std::vector<std::size_t>& Engine::body_parts() {
  const std::size_t n = world_.size();
  if (split_.threads == settings_.threads && split_.bodies == n) return split_.first_body;
  const auto threads = static_cast<std::size_t>(settings_.threads);
  even_parts_.resize(threads + 1);
  // Whole body chunks, so that the last pass can take the same parts.
  const std::size_t chunks = body_chunks(n);
  for (std::size_t t = 0; t <= threads; ++t) even_parts_[t] = std::min(n, chunks * t / threads * kBodyChunk);
  return even_parts_;
}

void Engine::compute_forces(double dt, bool free_loads_set) {
  World& w = world_;
  const std::size_t n = w.size();
  const int threads = settings_.threads;
  for (int i : span_followers_) {
    BodyConstraint& plate = w.constraint[static_cast<std::size_t>(i)];
    plate.imposed_force = plate.pressure * plate_span(w, plate) * plate.inward;
  }
  const auto set_loads = [&w](std::size_t i) {
    w.force[i] = w.mass[i] * w.gravity;
    w.torque[i] = 0.0;
    const BodyConstraint& tag = w.constraint[i];
    if (!tag.held[dof_x]) w.force[i].x += tag.imposed_force.x;
    if (!tag.held[dof_y]) w.force[i].y += tag.imposed_force.y;
    if (!tag.held[dof_rotation]) w.torque[i] += tag.imposed_torque;
  };
  if (free_loads_set) {
    // The integrator's first pass set the free bodies' gravity.
    for (int i : constrained_) set_loads(static_cast<std::size_t>(i));
  } else {
    ThreadTeam::for_each(threads, n, [&](std::size_t i) {
      if (free_[i]) {
        w.force[i] = w.mass[i] * w.gravity;
        w.torque[i] = 0.0;
      } else {
        set_loads(i);
      }
    });
  }
  // Dissipation is booked as the work of the viscous and tangential-spring
  // forces over the step, trapezoidal in the force like velocity Verlet's
  // kicks, against the relative displacement Δ = v_rel dt at the contact
  // point; sliding = that spring work minus the change of spring energy.
  // Booking ½ k_t (|ξ_trial|² − |ξ_capped|²) instead overestimates by
  // ½ k_t |Δ|² per step: a first-order error in the first law.
  std::vector<Candidate>& candidates = neighbours_.candidates();
  std::vector<ContactState>& states = neighbours_.states();
  const std::size_t count = candidates.size();
  // Energies and dissipation are summed per fixed chunk of candidates, in
  // candidate order, and the chunks' sums in chunk order: the same numbers
  // whatever the number of threads, without a serial pass over all
  // candidates after the parallel one.
  const std::size_t chunks = (count + kContactChunk - 1) / kContactChunk;
  chunk_books_.assign(chunks, ContactBooks{});
  // Forces: each thread takes a contiguous run of chunks and adds to each
  // body it owns (Split::owner) the forces of that body's candidates, in
  // candidate order: first those of earlier runs, evaluated again from its
  // own copies of their springs (Split::foreign), then its own as it goes.
  // The same sums in the same order whatever the number of threads:
  // identical bits.
  if (threads > 1 && (split_.threads != threads || split_.rebuild != neighbours_.stats().rebuilds ||
                      split_.chunks != chunks || split_.bodies != n))
    make_split(chunks);
  // Every candidate on its own: geometry, the contact law, its own state.
  // Most candidates are not touching: they read only their packed
  // Candidate.
  ThreadTeam::run(threads, [&](int member, int team) {
    const WorldView view(w);
    Candidate* const keys = candidates.data();
    ContactState* const state = states.data();
    const int* const owner = split_.owner.data();
    Vec2* const force = w.force.data();
    double* const torque = w.torque.data();
    const bool alone = threads == 1;
    // A touching candidate's response (the spring advanced when dt > 0),
    // and its force on the bodies this run owns.
    struct Touch {
      Vec2 point, relative;
      ContactResponse response;
    };
    const auto respond = [&](const Candidate& key, const ContactLaw& law, const ContactGeometry& g, Vec2& spring) {
      const int v = key.vertex_body, e = key.edge_body;
      Touch t;
      // Middle of the overlap segment (MODEL.md §2).
      t.point = g.vertex_point + (view.radius[v] - 0.5 * g.overlap) * g.normal;
      t.relative = view.velocity_at(v, t.point, {}) - view.velocity_at(e, t.point, key.edge_offset);
      t.response = evaluate_contact(law, {g.overlap, g.normal, t.relative}, spring, dt);
      return t;
    };
    const auto add_force = [&](const Candidate& key, const Touch& t, int run) {
      const int v = key.vertex_body, e = key.edge_body;
      const Vec2 f = t.response.force_on_vertex_body;
      if (alone || owner[v] == run) {
        force[v] += f;
        torque[v] += cross(t.point - view.position[v], f);
      }
      if (alone || owner[e] == run) {
        force[e] -= f;
        torque[e] -= cross(t.point - (view.position[e] + key.edge_offset), f);
      }
    };
    // One run per requested thread, whatever the team (a run is never
    // split between two threads: its bodies stay its own).
    for (int run = member; run < threads; run += team) {
      const auto started = alone ? std::chrono::steady_clock::time_point{} : std::chrono::steady_clock::now();
      if (!alone) {
        // An opening contact's copy forgets its spring as the original does
        // (forget_history; a candidate not touching already holds none).
        Split::Foreign& foreign = split_.foreign[static_cast<std::size_t>(run)];
        for (std::size_t j = 0; j < foreign.candidates.size(); ++j) {
          const Candidate& key = keys[foreign.candidates[j]];
          const ContactGeometry g = contact_geometry(view, key);
          if (!g.touching) {
            if (dt > 0.0) foreign.springs[j] = {};
            continue;
          }
          Vec2 spring = foreign.springs[j];
          const Touch t = respond(key, view.law_between(key.vertex_body, key.edge_body), g, spring);
          if (dt > 0.0) foreign.springs[j] = spring;
          add_force(key, t, run);
        }
      }
      const std::size_t first_chunk = alone ? 0 : split_.first_chunk[static_cast<std::size_t>(run)];
      const std::size_t end_chunk = alone ? chunks : split_.first_chunk[static_cast<std::size_t>(run) + 1];
      for (std::size_t chunk = first_chunk; chunk < end_chunk; ++chunk) {
        ContactBooks sums;
        for (std::size_t k = chunk * kContactChunk; k < std::min(count, (chunk + 1) * kContactChunk); ++k) {
          Candidate& key = keys[k];
          const ContactGeometry g = contact_geometry(view, key);
          const int v = key.vertex_body, e = key.edge_body;
          if (!g.touching) {
            // A re-evaluation without a step (dt = 0) leaves the books of an
            // opening contact to the next real step.
            if (dt == 0.0 || !key.active) continue;
            // Closing the books of a contact that just opened: its last forces
            // acted over this step, and its spring's energy is let go.
            ContactState& c = state[k];
            const ContactLaw& law = view.law_between(v, e);
            const Vec2 step = dt * (view.velocity_at(v, c.point, {}) - view.velocity_at(e, c.point, key.edge_offset));
            sums.damping -= 0.5 * dot(c.viscous_force, step);
            if (law.kt > 0.0) sums.sliding += -0.5 * dot(-law.kt * c.xi, step) + 0.5 * law.kt * norm2(c.xi);
            forget_history(key, c);
            continue;
          }
          ContactState& c = state[k];
          const ContactLaw& law = view.law_between(v, e);
          // A re-evaluation without a step (dt = 0) works on a copy of the
          // spring, which it would otherwise turn and cap.
          Vec2 spring = c.xi;
          const Touch t = respond(key, law, g, spring);
          const ContactResponse& r = t.response;
          if (dt > 0.0) {
            const Vec2 step = dt * t.relative;
            sums.damping -= 0.5 * dot(c.viscous_force + r.viscous_force, step);
            // The spring's force and energy before this step: −k_t ξ, ½ k_t |ξ|².
            if (law.kt > 0.0)
              sums.sliding -= 0.5 * dot(-law.kt * c.xi + r.tangential_spring_force, step) +
                              (r.tangential_energy - 0.5 * law.kt * norm2(c.xi));
            c.xi = spring;
          }
          sums.normal_energy += r.normal_energy;
          sums.tangential_energy += r.tangential_energy;
          sums.deepest = std::max(sums.deepest, g.overlap / key.reach);
          // Flags written only when they change: a store would dirty the
          // candidate's cache line, and at 10⁵ grains writing the read-mostly
          // candidates back to memory every step costs bandwidth.
          if (!key.active) key.active = true;
          if (key.sliding != r.sliding) key.sliding = r.sliding;
          c.point = t.point;
          c.force = r.force_on_vertex_body;
          c.normal_force = r.normal_force;
          c.viscous_force = r.viscous_force;
          add_force(key, t, run);
        }
        chunk_books_[chunk] = sums;
      }
      if (!alone)
        split_.contact_time[static_cast<std::size_t>(run)].seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    }
  });
  // The chunks' energies in chunk order.
  double normal_energy = 0.0, tangential_energy = 0.0, damping = 0.0, sliding = 0.0, deepest = 0.0;
  for (const ContactBooks& b : chunk_books_) {
    normal_energy += b.normal_energy;
    tangential_energy += b.tangential_energy;
    damping += b.damping;
    sliding += b.sliding;
    deepest = std::max(deepest, b.deepest);
  }
  if (deepest > deepest_overlap_) deepest_overlap_ = deepest, deepest_overlap_time_ = time_ + dt;
  neighbours_.stats().feature_pairs_evaluated += static_cast<long>(count);
  ledger_.elastic_normal = normal_energy;
  ledger_.elastic_tangential = tangential_energy;
  ledger_.damping_dissipation += damping;
  ledger_.sliding_dissipation += sliding;
  // Only now, with the pass done: a new split copies the springs.
  if (threads > 1) balance_split();
}

template <class T> std::size_t capacity_bytes(const std::vector<T>& v) { return v.capacity() * sizeof(T); }

std::size_t Engine::memory_bytes() const {
  const World& w = world_;
  std::size_t foreign_bytes = capacity_bytes(split_.foreign);
  for (const Split::Foreign& f : split_.foreign) foreign_bytes += capacity_bytes(f.candidates) + capacity_bytes(f.springs);
  return capacity_bytes(w.position) + capacity_bytes(w.angle) + capacity_bytes(w.velocity) +
         capacity_bytes(w.angular_velocity) + capacity_bytes(w.force) + capacity_bytes(w.torque) + capacity_bytes(w.mass) +
         capacity_bytes(w.inertia) + capacity_bytes(w.density) + capacity_bytes(w.inverse_mass) +
         capacity_bytes(w.inverse_inertia) + capacity_bytes(w.radius) + capacity_bytes(w.bounding_radius) +
         capacity_bytes(w.material) + capacity_bytes(w.big) + capacity_bytes(w.closed) + capacity_bytes(w.constraint) +
         capacity_bytes(w.shape_name) + capacity_bytes(w.vertex_begin) + capacity_bytes(w.vertex_count) +
         capacity_bytes(w.local_vertex) + capacity_bytes(w.local_shift) + capacity_bytes(w.local_bend) +
         capacity_bytes(w.world_vertex) +
         capacity_bytes(w.orientation) + capacity_bytes(w.seam) +
         capacity_bytes(free_) + capacity_bytes(constrained_) + capacity_bytes(split_.owner) + foreign_bytes +
         capacity_bytes(body_books_) + neighbours_.memory_bytes() +
         capacity_bytes(previous_position_) + capacity_bytes(chunk_books_) + capacity_bytes(r2_) +
         capacity_bytes(r3_) + capacity_bytes(r4_);
}

void Engine::set_threads(int threads) {
  if (threads < 1) throw std::invalid_argument("the number of threads must be at least 1");
  settings_.threads = threads;
  neighbours_.set_threads(threads);
}

void Engine::update_lists_or_orientations() {
  // A whole rebuild brings every vertex up to date; otherwise (a partial
  // one, or none) only the bodies' orientations, from which the force loop
  // computes the vertices it reads (for a cow, a few of its 62).
  if (neighbours_.update(world_) && neighbours_.all_vertices_current())
    vertices_stale_ = false;
  else
    update_orientations();
}

void Engine::update_orientations() {
  World& w = world_;
  const int threads = settings_.threads;
  ThreadTeam::for_each(threads, w.size(), [&](std::size_t i) { update_orientation(w, i); });
  vertices_stale_ = true;
}

void Engine::refresh_vertices() const {
  if (!vertices_stale_) return;
  World& w = const_cast<World&>(world_);  // derived data only: what world() hands out is current
  const int threads = settings_.threads;
  ThreadTeam::for_each(threads, w.size(), [&](std::size_t i) { update_body_vertices(w, i); });
  vertices_stale_ = false;
}

// The power of body i's imposed loads and motions (nothing for a free body).
static double constraint_power_of(const World& w, std::size_t i) {
  const BodyConstraint& tag = w.constraint[i];
  const int b = static_cast<int>(i);
  double power = 0.0;
  for (int k = 0; k < 3; ++k) {
    // A held DOF's reaction is −(everything else on it), moving at u.
    if (tag.held[k]) power -= dof_force(w, b, k) * tag.imposed_velocity[k];
  }
  if (!tag.held[dof_x]) power += tag.imposed_force.x * w.velocity[i].x;
  if (!tag.held[dof_y]) power += tag.imposed_force.y * w.velocity[i].y;
  if (!tag.held[dof_rotation]) power += tag.imposed_torque * w.angular_velocity[i];
  return power;
}

// The chunks' sums in chunk order (the same bits whatever the threads that
// filled them), and the external power of the constrained bodies in body
// order.
void Engine::close_body_books(bool with_power) {
  double translational = 0.0, rotational = 0.0, gravitational = 0.0, power = 0.0, fastest_speed2 = -1.0;
  for (const BodyBooks& b : body_books_) {
    translational += b.translational;
    rotational += b.rotational;
    gravitational += b.gravitational;
    if (b.fastest_speed2 > fastest_speed2) fastest_speed2 = b.fastest_speed2, fastest_body_ = b.fastest;
  }
  if (with_power)
    for (int i : constrained_) power += constraint_power_of(world_, static_cast<std::size_t>(i));
  ledger_.kinetic_translational = translational;
  ledger_.kinetic_rotational = rotational;
  ledger_.gravitational = gravitational;
  if (with_power) power_ = power;
}

void Engine::update_energy(bool with_power) {
  const World& w = world_;
  const std::size_t n = w.size(), chunks = body_chunks(n);
  body_books_.assign(chunks, BodyBooks{});
  const int threads = settings_.threads;
  ThreadTeam::for_each(threads, chunks, [&](std::size_t c) {
    for (std::size_t i = c * kBodyChunk; i < std::min(n, (c + 1) * kBodyChunk); ++i) body_books_[c].add(w, i);
  });
  close_body_books(with_power);
}

void Engine::step() {
  if (constraints_may_have_changed_) find_free_bodies();
  const double previous_power = power_;
  first_unstable_ = kNotChecked;
  if (settings_.integrator == Integrator::velocity_verlet) {
    step_verlet();  // energies and the per-body stability check included
  } else {
    previous_position_ = world_.position;
    step_gear();
    update_energy(true);
  }
  close_step(previous_power);
}

// After a step's last pass: the trapezoidal rule for the work of imposed
// loads and motions, the clock, the stability check.
void Engine::close_step(double previous_power) {
  ledger_.external_work += 0.5 * (previous_power + power_) * settings_.dt;
  time_ += settings_.dt;
  ++step_;
  check_stability();
}

// Velocity Verlet, in three passes over the bodies and candidates, each
// one parallel region:
//  1. kick, drift, orientation, the motion since the list was built, and
//     the gravity and torque of free bodies for the coming evaluation
//     (move_bodies);
//  2. the contacts (compute_forces);
//  3. kick, the energies (per fixed chunk of bodies), the stability check
//     (finish_chunk).
// Every region costs a hand-off, and with it the lines the other core
// touched: at 10³ bodies a few per cent of a step each. So run() does
// pass 3 of one step and pass 1 of the next in one region, each thread on
// the same bodies; a constrained body moves only after that region, once
// the external power has been read from it as pass 3 left it.

// Pass 1 over bodies [first, end), only the free ones with free_only;
// returns how far any of them may have moved since the list was built
// when measured (0 otherwise).
double Engine::move_bodies(std::size_t first, std::size_t end, bool measure, bool free_only) {
  World& w = world_;
  const double dt = settings_.dt;
  double largest = 0.0;
  for (std::size_t i = first; i < end; ++i) {
    // Free bodies (nearly all) take a straight path without the per-DOF
    // branches and without reading their (88-byte) constraint records; the
    // arithmetic is the same, so are the bits.
    if (free_[i]) {
      previous_position_[i] = w.position[i];
      kick(w, i, dt);
      w.position[i] += w.velocity[i] * dt;
      w.angle[i] += w.angular_velocity[i] * dt;
      w.force[i] = w.mass[i] * w.gravity;
      w.torque[i] = 0.0;
    } else {
      if (free_only) continue;
      previous_position_[i] = w.position[i];
      const int b = static_cast<int>(i);
      for (int k = 0; k < 3; ++k) {
        double& v = dof_velocity(w, b, k);
        if (w.constraint[i].held[k])
          v = w.constraint[i].imposed_velocity[k];
        else
          v += 0.5 * dt * dof_force(w, b, k) * dof_inverse_mass(w, b, k);
        dof_position(w, b, k) += v * dt;
      }
    }
    update_orientation(w, i);
    if (measure) {
      const double motion = neighbours_.motion_of(w, i);
      if (motion > largest) largest = motion;
    }
  }
  return largest;
}

// Pass 3 for one chunk of bodies: the kick, the chunk's books, and the
// lowest body in it that looks unstable (the body count if none).
std::size_t Engine::finish_chunk(std::size_t c) {
  World& w = world_;
  const double dt = settings_.dt;
  const std::size_t n = w.size();
  std::size_t first_bad = n;
  BodyBooks books;
  for (std::size_t i = c * kBodyChunk; i < std::min(n, (c + 1) * kBodyChunk); ++i) {
    if (free_[i]) {
      kick(w, i, dt);
    } else {
      const int b = static_cast<int>(i);
      for (int k = 0; k < 3; ++k)
        if (!w.constraint[i].held[k]) dof_velocity(w, b, k) += 0.5 * dt * dof_force(w, b, k) * dof_inverse_mass(w, b, k);
    }
    books.add(w, i);
    if (first_bad == n && looks_unstable(w, previous_position_, i)) first_bad = i;
  }
  body_books_[c] = books;
  return first_bad;
}

// Between passes 1 and 3: the list (rebuilt, mended or kept) and pass 2.
void Engine::forces_after_move(double largest_motion, bool measured) {
  World& w = world_;
  // A whole rebuild brings every vertex up to date; otherwise (a partial
  // one, or none) the force loop computes the vertices it reads from the
  // orientations.
  const bool rebuilt = measured ? neighbours_.update(w, largest_motion) : neighbours_.update(w);
  vertices_stale_ = !(rebuilt && neighbours_.all_vertices_current());
  // Velocity-dependent forces see the half-step velocities, which are also
  // exactly the mean velocities over the step for the tangential springs.
  compute_forces(settings_.dt, /*free_loads_set=*/true);
}

// Pass 3 on its own, then the books; returns the first unstable body.
std::size_t Engine::finish_bodies() {
  const std::size_t n = world_.size(), chunks = body_chunks(n);
  body_books_.assign(chunks, BodyBooks{});
  // The same parts as the first pass (whole chunks), as body_parts() says
  // after this step's list: the bodies whose forces this thread added.
  const int threads = body_threads();
  const std::vector<std::size_t>& parts = body_parts();
  const auto chunk_bound = [&](int t) {
    return threads == 1 ? (t == 0 ? 0 : chunks) : body_chunks(parts[static_cast<std::size_t>(t)]);
  };
  const std::size_t first_bad = ThreadTeam::reduce_parts(
      threads, chunk_bound, n, [&](std::size_t c) { return finish_chunk(c); }, std::less<>());
  close_body_books(true);
  return first_bad;
}

// Passes 1 and 2 of a step.
void Engine::move_and_force() {
  World& w = world_;
  const std::size_t n = w.size();
  previous_position_.resize(n);
  const bool measure = neighbours_.ready(w);
  // Below kParallelBodies the body passes are too short to share out.
  const int threads = body_threads();
  const std::vector<std::size_t>& parts = body_parts();
  const auto body_bound = [&](std::size_t t) { return threads == 1 ? (t == 0 ? 0 : n) : parts[t]; };
  // One item per part: member t moves part t.
  const double largest = ThreadTeam::reduce_parts(
      threads, [](int t) { return static_cast<std::size_t>(t); }, 0.0,
      [&](std::size_t t) { return move_bodies(body_bound(t), body_bound(t + 1), measure, false); }, std::greater<>());
  forces_after_move(largest, measure);
}

void Engine::step_verlet() {
  move_and_force();
  first_unstable_ = finish_bodies();
}

bool Engine::fuses_steps() const {
  return settings_.integrator == Integrator::velocity_verlet && body_threads() > 1;
}

void Engine::run(long steps) {
  if (steps < 2 || !fuses_steps()) {
    for (long k = 0; k < steps; ++k) step();
    return;
  }
  // The first step up to its pass 3, as step() does it.
  if (constraints_may_have_changed_) find_free_bodies();
  double previous_power = power_;
  first_unstable_ = kNotChecked;
  move_and_force();
  const World& w = world_;
  const std::size_t n = w.size(), chunks = body_chunks(n);
  const int threads = settings_.threads;
  for (long k = 1; k < steps; ++k) {
    // Pass 3 of step k and pass 1 of step k + 1 (free bodies), each member
    // on its own part. A member that finds an unstable body in its part
    // does not move on, so that the message reads the body as step k left
    // it.
    body_books_.assign(chunks, BodyBooks{});
    const bool measure = neighbours_.ready(w);
    const std::vector<std::size_t>& parts = body_parts();
    struct alignas(64) Slot {
      std::size_t first_bad;
      double largest;
    };
    std::array<Slot, ThreadTeam::kMaxMembers> slots;
    int used = 1;
    ThreadTeam::run(threads, [&](int member, int members) {
      if (member == 0) used = members;
      Slot mine{n, 0.0};
      for (int p = member; p < threads; p += members) {
        const std::size_t first = parts[static_cast<std::size_t>(p)], end = parts[static_cast<std::size_t>(p) + 1];
        for (std::size_t c = body_chunks(first); c < body_chunks(end); ++c)
          mine.first_bad = std::min(mine.first_bad, finish_chunk(c));
      }
      if (mine.first_bad == n)
        for (int p = member; p < threads; p += members)
          mine.largest = std::max(mine.largest, move_bodies(parts[static_cast<std::size_t>(p)],
                                                            parts[static_cast<std::size_t>(p) + 1], measure, true));
      slots[static_cast<std::size_t>(member)] = mine;
    });
    std::size_t first_bad = n;
    double largest = 0.0;
    for (int m = 0; m < used; ++m) {
      first_bad = std::min(first_bad, slots[static_cast<std::size_t>(m)].first_bad);
      largest = std::max(largest, slots[static_cast<std::size_t>(m)].largest);
    }
    close_body_books(true);  // the constrained bodies have not moved on
    first_unstable_ = first_bad;
    close_step(previous_power);  // throws for an unstable step k
    // Step k + 1.
    previous_power = power_;
    first_unstable_ = kNotChecked;
    for (int i : constrained_) {
      const auto b = static_cast<std::size_t>(i);
      largest = std::max(largest, move_bodies(b, b + 1, measure, false));
    }
    forces_after_move(largest, measure);
  }
  first_unstable_ = finish_bodies();
  close_step(previous_power);
}

void Engine::step_gear() {
  if (r2_.size() != world_.size()) start_gear();
  World& w = world_;
  const double dt = settings_.dt;
  const int threads = settings_.threads;
  ThreadTeam::for_each(threads, w.size(), [&](std::size_t i) {
    const int b = static_cast<int>(i);
    for (int k = 0; k < 3; ++k) {
      double& x = dof_position(w, b, k);
      double& v = dof_velocity(w, b, k);
      if (w.constraint[i].held[k]) {
        v = w.constraint[i].imposed_velocity[k];
        x += v * dt;
        r2_[i][k] = r3_[i][k] = r4_[i][k] = 0.0;
        continue;
      }
      // Predictor: Taylor series (Pascal's triangle) on scaled derivatives.
      double r1 = v * dt;
      double& r2 = r2_[i][k];
      double& r3 = r3_[i][k];
      double& r4 = r4_[i][k];
      x += r1 + r2 + r3 + r4;
      r1 += 2.0 * r2 + 3.0 * r3 + 4.0 * r4;
      r2 += 3.0 * r3 + 6.0 * r4;
      r3 += 4.0 * r4;
      v = r1 / dt;
    }
  });
  update_lists_or_orientations();
  compute_forces(dt);
  const double half_dt2 = 0.5 * dt * dt;
  ThreadTeam::for_each(threads, w.size(), [&](std::size_t i) {
    const int b = static_cast<int>(i);
    for (int k = 0; k < 3; ++k) {
      if (w.constraint[i].held[k]) continue;
      const double correction = dof_force(w, b, k) * dof_inverse_mass(w, b, k) * half_dt2 - r2_[i][k];
      dof_position(w, b, k) += kGear[0] * correction;
      dof_velocity(w, b, k) += kGear[1] * correction / dt;
      r2_[i][k] += kGear[2] * correction;
      r3_[i][k] += kGear[3] * correction;
      r4_[i][k] += kGear[4] * correction;
    }
  });
  // Energies belong to the corrected state: re-evaluate the contacts there
  // without advancing their springs (the cost of a second contact pass).
  evaluate_forces_now();
}

namespace {

// How far body i moved this step; a wrap into the periodic cell is not a move.
double moved_of(const World& w, const std::vector<Vec2>& previous, std::size_t i) {
  Vec2 step = w.position[i] - previous[i];
  if (w.cell.periodic[0]) step.x -= w.cell.size.x * std::round(step.x / w.cell.size.x);
  if (w.cell.periodic[1]) step.y -= w.cell.size.y * std::round(step.y / w.cell.size.y);
  return norm(step);
}

bool not_finite(const World& w, std::size_t i) {
  return !is_finite(w.position[i]) || !is_finite(w.velocity[i]) || !std::isfinite(w.angle[i]) ||
         !std::isfinite(w.angular_velocity[i]);
}

}  // namespace

// What looks_unstable's quick tests left open: a non-finite value
// somewhere, or a raw step beyond the bound (a wrap, or a real jump).
bool Engine::looks_unstable_after_all(const World& w, const std::vector<Vec2>& previous, std::size_t i) {
  if (!std::isfinite(state_sum(w, i))) return not_finite(w, i) || (!w.big[i] && moved_of(w, previous, i) > 2.0 * w.bounding_radius[i]);
  if (w.big[i]) return false;
  const double bound = 2.0 * w.bounding_radius[i];
  return norm2(w.position[i] - previous[i]) > bound * bound && moved_of(w, previous, i) > bound;
}

void Engine::check_stability() {
  const World& w = world_;
  const std::vector<Vec2>& previous = previous_position_;
  const auto fail = [&](std::size_t i, const std::string& what) {
    throw InstabilityError(fmt::format(
        "unstable at step {} (t = {:g}): body {} ('{}') {}. Likely cause: the time step dt = {:g} is too large "
        "for the contact stiffness (stable limit about {:g}) or the overlaps grew deeper than the sphero-radius; "
        "lower dt or the velocities",
        step_, time_, i, w.shape_name[i], what, settings_.dt, dt_limit_));
  };
  // Found in parallel (by the integrator's last pass, or here), reported
  // for the lowest such body: the same message whatever the threads.
  std::size_t first_bad = first_unstable_;
  if (first_bad == kNotChecked) {
    first_bad = w.size();
    const int threads = settings_.threads;
    first_bad = ThreadTeam::reduce(
        threads, w.size(), first_bad, [&](std::size_t i) { return looks_unstable(w, previous, i) ? i : w.size(); },
        std::less<>());
  }
  if (first_bad < w.size()) {
    const std::size_t i = first_bad;
    if (not_finite(w, i)) fail(i, "has a position or velocity that is not a finite number");
    fail(i, fmt::format("moved {:g}, more than its own size {:g}, in one step", moved_of(w, previous, i),
                        2.0 * w.bounding_radius[i]));
  }
  // Kinetic + elastic energy can only come from the initial kinetic and
  // elastic energy, released gravitational energy and external work.
  const double supply = ledger_.initial_mechanical - ledger_.gravitational + std::abs(ledger_.external_work);
  const double held = ledger_.kinetic() + ledger_.elastic();
  if (held > 100.0 * std::abs(supply) + 1e-300 && held > 1e-12 * std::abs(ledger_.initial_mechanical) + 1e-300) {
    // From the books: with fused steps (run) the bodies have moved on.
    fail(fastest_body_, fmt::format("is the fastest body while the kinetic + elastic energy {:g} exceeds a hundred times "
                              "all the energy the system was given ({:g})",
                              held, supply));
  }
}

}  // namespace sphero
