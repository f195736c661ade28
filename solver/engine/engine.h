// The step loop (MODEL.md §3–5): contact forces over the neighbour list,
// gravity and imposed loads, one of two integrators, constraints, the
// energy ledger, and the checks that stop a run going unstable.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/contacts.h"
#include "engine/world.h"

namespace sphero {

enum class Integrator {
  velocity_verlet,  // symplectic, one force evaluation per step
  gear,             // Gear's fourth-order predictor–corrector (5 values)
};
std::string_view to_string(Integrator integrator);
Integrator integrator_from_string(std::string_view word);  // throws std::invalid_argument

struct EngineSettings {
  double dt = 0.0;
  Integrator integrator = Integrator::velocity_verlet;
  double verlet_distance = 0.0;
  // δ adapts to the motion, up to verlet_distance (see NeighbourSettings).
  bool adaptive_verlet_distance = false;
  bool brute_force_neighbours = false;  // the O(N²) reference
  bool contact_lists = true;            // false: all vertex pairs of neighbours (NeighbourSettings)
  // false: every rebuild lists all pairs anew (NeighbourSettings; the forces
  // are the same either way; not part of a checkpoint).
  bool partial_rebuilds = true;
  // Accept a dt above a tenth of the shortest contact period.
  bool allow_large_time_step = false;
  // Threads for the force loop, the integrator and the vertex update. The
  // results are bit-identical whatever the number: every sum is taken in
  // the same order (not part of a checkpoint: a run may resume with more).
  int threads = 1;
};

// Energy bookkeeping (MODEL.md §2 "Energy"). All terms in joules (per unit
// thickness in 2D). mechanical() = kinetic + elastic + gravitational.
struct EnergyLedger {
  double kinetic_translational = 0.0;
  double kinetic_rotational = 0.0;
  double elastic_normal = 0.0;
  double elastic_tangential = 0.0;
  double gravitational = 0.0;       // −Σ m g·x over bodies with finite mass
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

// A run that went unstable: the message names the step, the body and the
// likely cause.
class InstabilityError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The time step against the stiffest contact: dt must not exceed a tenth of
// 2π sqrt(m_min / k_n). Throws std::invalid_argument with the numbers unless
// allowed; returns the limit.
double check_time_step(const World& world, const EngineSettings& settings);

// A safe default: a fiftieth of the shortest contact period (a fifth of the
// largest dt check_time_step accepts). Infinite when nothing moves freely.
double default_time_step(const World& world);

// Everything that decides the engine's future, as plain data: an engine
// rebuilt from it continues bit for bit (io/checkpoint.h stores it).
struct EngineSnapshot {
  World world;
  EngineSettings settings;
  NeighbourListState neighbours;
  EnergyLedger ledger;
  double time = 0.0;
  long step = 0;
  double power = 0.0;
  std::vector<std::array<double, 3>> r2, r3, r4;
  double deepest_overlap = 0.0, deepest_overlap_time = 0.0;
};

class Engine {
 public:
  Engine(World world, EngineSettings settings);
  // Continues a run exactly where the snapshot was taken.
  explicit Engine(EngineSnapshot snapshot);
  EngineSnapshot snapshot() const;

  void step();
  // `steps` steps. With velocity Verlet and two threads or more over
  // enough bodies, each step's last pass over the bodies and the next
  // step's first share one parallel region (one hand-off fewer a step);
  // the results are the same bits as step() called `steps` times. After an
  // InstabilityError the bodies may be half a step further than the step
  // the message names: keep a snapshot of the last good state.
  void run(long steps);

  // With every vertex's world coordinates current (the step itself keeps
  // only the orientations current between list rebuilds).
  const World& world() const {
    refresh_vertices();
    return world_;
  }
  // Handing the world out mutable may change constraints: the next step
  // sorts the bodies into free and constrained again (keep no reference to
  // it across steps to change constraints through).
  World& world() {
    refresh_vertices();
    constraints_may_have_changed_ = true;
    return world_;
  }
  // Every candidate feature pair as a full record, assembled now from the
  // list (the step keeps only what the next step needs): call it per
  // frame, not per contact.
  std::vector<Contact> contacts() const {
    refresh_vertices();
    return neighbours_.records(world_);
  }
  const EnergyLedger& ledger() const { return ledger_; }
  const NeighbourStats& neighbour_stats() const { return neighbours_.stats(); }
  long neighbour_partial_rebuilds() const { return neighbours_.partial_rebuilds(); }  // among neighbour_stats().rebuilds
  double neighbour_verlet_distance() const { return neighbours_.verlet_distance(); }
  const EngineSettings& settings() const { return settings_; }
  void set_threads(int threads);
  // What the engine holds, by the capacity of its arrays (shape names and
  // contact laws aside): world, neighbour list, scratch, Gear's derivatives.
  std::size_t memory_bytes() const;
  // The deepest overlap of any contact so far, as a fraction of the sum of
  // its two sphero-radii, and when. From 1 on, the skeletons have crossed:
  // the contact's normal can flip and the forces no longer derive from a
  // potential (energy is not conserved). The cure is a stiffer kn (overlaps
  // scale as v sqrt(m / kn)) or slower grains.
  double deepest_overlap() const { return deepest_overlap_; }
  double deepest_overlap_time() const { return deepest_overlap_time_; }
  double time() const { return time_; }
  long step_count() const { return step_; }
  double time_step_limit() const { return dt_limit_; }

  // Re-evaluates forces and energies in the current state without moving
  // anything (tangential springs untouched): for tests and output.
  void evaluate_forces_now();

 private:
  // free_loads_set: the free bodies' gravity is already in their force
  // (Verlet's first pass sets it).
  void compute_forces(double dt_for_springs, bool free_loads_set = false);
  void find_span_followers();
  void find_free_bodies();
  void start_gear();
  void update_energy(bool with_power = false);  // and the external power (power_)
  void close_body_books(bool with_power);
  void check_stability();
  // Per body and step, so inline and cheap first: a NaN or infinity
  // anywhere makes the sum non-finite, and a raw step within the bound is
  // within it after taking out a periodic wrap too (which only shortens
  // it). The rest (rare) out of line.
  static bool looks_unstable(const World& w, const std::vector<Vec2>& previous, std::size_t i) {
    if (std::isfinite(state_sum(w, i))) {
      if (w.big[i]) return false;
      const double bound = 2.0 * w.bounding_radius[i];
      if (!(norm2(w.position[i] - previous[i]) > bound * bound)) return false;
    }
    return looks_unstable_after_all(w, previous, i);
  }
  // Not finite if any of body i's coordinates or velocities is not.
  static double state_sum(const World& w, std::size_t i) {
    return w.position[i].x + w.position[i].y + w.velocity[i].x + w.velocity[i].y + w.angle[i] + w.angular_velocity[i];
  }
  [[gnu::pure]] static bool looks_unstable_after_all(const World& w, const std::vector<Vec2>& previous, std::size_t i);
  void step_verlet();
  // Verlet's passes over the bodies (engine.cpp, "Velocity Verlet").
  bool fuses_steps() const;
  double move_bodies(std::size_t first, std::size_t end, bool measure, bool free_only);
  std::size_t finish_chunk(std::size_t chunk);
  void forces_after_move(double largest_motion, bool measured);
  void move_and_force();
  std::size_t finish_bodies();
  void close_step(double previous_power);
  void step_gear();
  void update_lists_or_orientations();  // after the bodies moved, before the forces
  void update_orientations();
  void refresh_vertices() const;

  // What the parallel pass over candidates leaves for the ordered sum (per
  // chunk of candidates).
  struct ContactBooks {
    double damping = 0.0, sliding = 0.0, normal_energy = 0.0, tangential_energy = 0.0, deepest = 0.0;
  };

  World world_;
  EngineSettings settings_;
  NeighbourList neighbours_;
  EnergyLedger ledger_;
  double time_ = 0.0;
  long step_ = 0;
  double dt_limit_ = 0.0;
  double power_ = 0.0;  // external power at the end of the last step
  std::vector<int> span_followers_;  // plates whose force follows their span (BodyConstraint)
  // Per body: nothing held, no imposed force or torque — the hot loops then
  // skip its constraint record.
  std::vector<std::uint8_t> free_;
  bool constraints_may_have_changed_ = false;
  std::vector<Vec2> previous_position_;  // scratch for the stability check, kept to avoid allocation
  // The lowest body looks_unstable found this step, the body count if none;
  // kNotChecked: check_stability looks for itself.
  static constexpr std::size_t kNotChecked = static_cast<std::size_t>(-1);
  std::size_t first_unstable_ = kNotChecked;
  std::vector<int> constrained_;  // the bodies that are not free_, in order
  // The ledger's kinetic and gravitational energies, per fixed chunk of
  // bodies (summed in chunk order: the same bits whatever the threads).
  // With them, the fastest body (the first of the largest speed), which the
  // energy check names.
  struct BodyBooks {
    double translational = 0.0, rotational = 0.0, gravitational = 0.0;
    double fastest_speed2 = -1.0;
    std::size_t fastest = 0;
    void add(const World& w, std::size_t i) {  // inline: every body, every step
      const double speed2 = norm2(w.velocity[i]);
      if (speed2 > fastest_speed2) fastest_speed2 = speed2, fastest = i;
      translational += 0.5 * w.mass[i] * speed2;
      rotational += 0.5 * w.inertia[i] * w.angular_velocity[i] * w.angular_velocity[i];
      gravitational -= w.mass[i] * dot(w.gravity, w.position[i]);
    }
  };
  // The unit of the split between threads in the body passes (Split):
  // small, so that the body split falls near the contact split.
  static constexpr std::size_t kBodyChunk = 64;
  // Fewer bodies than this: the integrator's body passes run on one thread
  // (at 200 cows two threads took 5.5 µs a pass against 3.6 on one; at
  // 1000 disks 6.2 against 8.2).
  static constexpr std::size_t kParallelBodies = 512;
  // The threads the passes over bodies use.
  int body_threads() const { return world_.size() >= kParallelBodies ? settings_.threads : 1; }
  // The body chunks that bodies [0, bodies) reach into.
  static std::size_t body_chunks(std::size_t bodies) { return (bodies + kBodyChunk - 1) / kBodyChunk; }
  std::vector<BodyBooks> body_books_;
  std::size_t fastest_body_ = 0;  // from the books, for the energy check
  std::vector<ContactBooks> chunk_books_;
  // Candidates per chunk of the ledger's sums, and the unit of the split
  // between threads (10³ hexagons: 45 chunks).
  static constexpr std::size_t kContactChunk = 64;
  // How the step's passes share the work out, run t to thread t: candidate
  // chunks [first_chunk[t], first_chunk[t + 1]) in the contact pass and
  // bodies [first_body[t], first_body[t + 1]) in the passes over bodies,
  // the bodies whose candidates run t holds. A thread thus works on the
  // same bodies from pass to pass and their data stay in its core's
  // cache: on this project's VM one cache line handed from core to core
  // takes 0.5-0.7 µs (a job hand-off). The boundaries follow the measured time of each
  // run's contacts (a floor's contacts or a dense corner make candidates
  // unequal); results never depend on them.
  struct Split {
    int threads = 0;
    long rebuild = -1;        // the list it was made for
    std::size_t chunks = 0;   // candidate chunks in that list
    std::size_t bodies = 0;
    std::vector<std::size_t> first_chunk, first_body;  // threads + 1 each
    // Per body, the run that adds its contacts' forces: the last run
    // holding one of its candidates (-1 for a body without candidates).
    std::vector<int> owner;
    // Per run, the earlier runs' candidates that touch a body it owns, in
    // candidate order, and its own copy of their tangential springs. The
    // run evaluates them again before its own chunks, so that such a body
    // receives every contact in candidate order without reading what
    // another thread wrote this step: at 10³ grains, lines handed between
    // the cores (a gather of the shared bodies after the pass) cost more
    // than evaluating ~3% of the candidates twice. The copies advance as
    // the originals do, to the bit.
    struct Foreign {
      std::vector<int> candidates;
      std::vector<Vec2> springs;
    };
    std::vector<Foreign> foreign;
    struct alignas(64) Clock {
      double seconds = 0.0;
    };
    std::vector<Clock> contact_time;  // per run, since the last balancing
    int timed_steps = 0;
  };
  Split split_;
  void make_split(std::size_t chunks);
  void balance_split();
  void assign_owners();
  // The body passes' parts: Split::first_body when current, else even.
  const std::vector<std::size_t>& body_parts();
  std::vector<std::size_t> even_parts_;
  // Gear's scaled higher derivatives, per body and DOF: r2 = a dt²/2,
  // r3 = x''' dt³/6, r4 = x'''' dt⁴/24.
  std::vector<std::array<double, 3>> r2_, r3_, r4_;
  double deepest_overlap_ = 0.0, deepest_overlap_time_ = 0.0;
  mutable bool vertices_stale_ = false;  // world_.world_vertex behind the positions (refresh_vertices)
};

}  // namespace sphero
