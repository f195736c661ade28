// What every stepper works on: the world, its neighbour list and contact
// pass, the loads, the energy ledger and its partial sums, and the scratch
// of the stability check. Engine (engine.h) owns one and a Stepper
// (stepper.h) advances it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/contact_evaluator.h"
#include "engine/contact_pass.h"
#include "engine/energy_ledger.h"
#include "engine/engine_settings.h"
#include "engine/neighbour_list.h"
#include "engine/stability.h"
#include "engine/thread_team.h"
#include "engine/world.h"
#include "rigid/collision_components.h"

namespace sphero {

NeighbourSettings neighbour_settings(const EngineSettings& s);

// stepping = events: the grains' steps since the run began, flown by
// events and time-stepped (resting clusters, and steps handed over; a step
// handed over partway counts its flying grains in proportion). Carried by
// checkpoints: energy.csv's columns go on across a restart.
struct BodySteps {
  double flown = 0.0;
  double time_stepped = 0.0;
};

struct EngineCore {
  EngineCore(World w, EngineSettings s) : world(std::move(w)), settings(s), neighbours(neighbour_settings(s)) {}
  EngineCore(World w, EngineSettings s, NeighbourListState list)
      : world(std::move(w)), settings(s), neighbours(neighbour_settings(s), std::move(list), world) {}

  // Gravity and imposed loads, then the contacts' forces and the ledger's
  // elastic energies and dissipation (see ContactPass::evaluate for dt).
  // With unconstrained_loads_set, the unconstrained bodies' gravity is
  // already in their force (a stepper's pass over them set it).
  // The deepest overlap met is stamped with the state's time, time + dt.
  void evaluate_forces(double dt, bool unconstrained_loads_set = false);
  // The same for a state at state_time.
  void evaluate_forces_at(double dt, double state_time, bool unconstrained_loads_set = false);
  // Forces and every energy of the current state, springs untouched; the
  // state stands state_ahead past `time` (Gear's corrected state, within
  // its step).
  void evaluate_forces_now(double state_ahead = 0.0);
  // The last contact pass made again in the current state, in its place:
  // the deepest overlap that pass met is forgotten first.
  void evaluate_last_pass_again();
  // The kinetic and gravitational energies (and, with_power, the external
  // power of the constrained bodies), summed per chunk in chunk order.
  void sum_body_energies(bool with_power);
  // The chunks' sums (body_sums, filled by a stepper's pass) into the ledger.
  void close_body_energy_sums(bool with_power);
  // Sorts the bodies into unconstrained and constrained, and finds the
  // plates whose force follows their span and the vibrating walls.
  void classify_bodies();
  // The external power of the constrained bodies now, per body (in
  // `constrained`'s order, zero for those not counted).
  std::vector<double> constraint_powers_now() const;
  // constraint_powers, and power (their sum in that order), from the
  // bodies as they are now; or zero.
  void take_constraint_powers();
  void clear_constraint_powers();
  // A contact pass's sums (of a state at state_time) into the ledger.
  void book_contact_sums(const StepContactSums& sums, double state_time);
  // A rigid collision's dissipation, and work of imposed loads and
  // motions, into the ledger and its books.
  void book_dissipation(double dissipated);
  void book_work(double work);
  // Every term of the ledger of the current state, summed exactly (what
  // this part counts); a pass over the bodies and candidates.
  ExactLedger exact_ledger() const;

  // The threads the passes over bodies use: one below kParallelBodies,
  // where a pass is too short to share out.
  static constexpr std::size_t kParallelBodies = 512;
  int body_threads() const { return world.size() >= kParallelBodies ? settings.threads : 1; }
  const std::vector<std::size_t>& body_parts() { return contacts.split().body_parts(settings.threads, world.size()); }

  // After the bodies moved, before the forces: the list rebuilt (which
  // brings every vertex up to date) or only the orientations, from which
  // the contact pass computes the vertices it reads.
  void update_lists_or_orientations();
  void update_orientations();
  std::size_t memory_bytes() const;

  World world;
  EngineSettings settings;
  NeighbourList neighbours;
  ContactPass contacts;
  // When set, evaluates the contacts in the CPU pass's place (another backend).
  std::unique_ptr<ContactEvaluator> contact_backend;
  // Read inside long passes (the rigid model's programs): nonzero gives
  // the step up with Interrupted (rigid/interruption.h). Not state.
  const volatile int* interruption = nullptr;
  // The rigid model's collision settings, with the interruption.
  CollisionSettings collision_settings() const {
    CollisionSettings c = settings.rigid.collision();
    c.program.interrupt = interruption;
    return c;
  }
  // How the collision programs of separate groups share the threads: each
  // member takes every members-th program, the largest first (results do
  // not depend on it).
  RunApart programs_apart() const {
    if (settings.threads <= 1) return {};
    return [threads = settings.threads](std::size_t count, const std::function<void(std::size_t)>& job) {
      ThreadTeam::run(threads, [&](int member, int members) {
        for (auto k = static_cast<std::size_t>(member); k < count; k += static_cast<std::size_t>(members)) job(k);
      });
    };
  }
  // The running ledger, summed per chunk every step (the energy check's);
  // exact_ledger() is the one the run books.
  EnergyLedger ledger;
  LedgerBooks books;
  double time = 0.0;
  long step = 0;
  double power = 0.0;                     // external power at the end of the last step
  std::vector<double> constraint_powers;  // the same per constrained body (each one's trapezoid is booked exactly)
  double deepest_overlap = 0.0, deepest_overlap_time = 0.0;
  BodySteps body_steps;  // stepping = events
  // As they stood before the last contact pass (evaluate_last_pass_again).
  double deepest_before_pass = 0.0, deepest_time_before_pass = 0.0;

  // Per body: nothing held, no imposed force or torque — the hot loops then
  // skip its constraint record.
  std::vector<std::uint8_t> unconstrained;
  std::vector<int> constrained;     // the others, in order
  std::vector<int> span_followers;  // plates whose force follows their span (BodyConstraint)
  std::vector<int> vibrating;       // walls with a Vibration
  bool constraints_may_have_changed = false;

  std::vector<Vec2> previous_position;  // the stability check's reference, kept to avoid allocation
  // The lowest body looks_unstable found this step, the body count if none;
  // kNotChecked: check_stability looks for itself.
  std::size_t first_unstable = kNotChecked;
  std::vector<BodyEnergySums> body_sums;  // per body chunk
  std::size_t fastest_body = 0;           // from the sums, for the energy check
  bool vertices_stale = false;            // world.world_vertex behind the positions (snapshot() updates its copy)
  // Set on a rank's part of a world spread over ranks (solver/parallel):
  // completes the forces of the bodies whose contacts the ranks share (the
  // walls) before a corrector uses them. Collective: every rank calls it.
  std::function<void()> complete_shared_forces;
  // Empty, or per body what it counts for (PartCount, world.h): a rank's
  // part of a world shared by ranks counts only what it owns
  // (solver/parallel).
  std::vector<std::uint8_t> counted;
  bool counts(std::size_t i) const { return counted.empty() || (counted[i] & counts_energy); }

  // Gravity, the attractor and imposed loads into the bodies' forces (with
  // unconstrained_loads_set, the constrained bodies' only).
  void apply_loads(bool unconstrained_loads_set);
};

}  // namespace sphero
