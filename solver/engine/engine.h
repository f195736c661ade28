// The engine (docs/MODEL.md): a World advanced step by step by one Stepper
// — the soft model's Verlet or Gear with contact forces over the neighbour
// list, or the rigid model's collisions (§7) — with gravity and imposed
// loads, constraints, the energy ledger, and the checks that stop a run
// going unstable.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "engine/contact.h"
#include "engine/energy_ledger.h"
#include "engine/engine_core.h"
#include "engine/engine_settings.h"
#include "engine/neighbour_list.h"
#include "engine/run_identity.h"
#include "engine/stability.h"
#include "engine/stepper.h"
#include "engine/world.h"

namespace sphero {

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
  std::vector<std::array<double, 3>> r2, r3, r4;  // Gear's history (StepperHistory)
  double deepest_overlap = 0.0, deepest_overlap_time = 0.0;
  // What the ledger keeps exactly from step to step; where absent (a
  // checkpoint written before it was kept), the ledger's values start it.
  std::optional<LedgerBooks> books;
  // The run this state is of (engine/run_identity.h): carried, not used,
  // by the engine, so that every checkpoint of a run says whose it is.
  RunLineage lineage;
  BodySteps body_steps;  // stepping = events
};

class Engine {
 public:
  Engine(World world, EngineSettings settings);
  // Continues a run exactly where the snapshot was taken.
  explicit Engine(EngineSnapshot snapshot);
  EngineSnapshot snapshot() const;
  // The same state, the engine spent: its world is moved out, not copied,
  // so that a caller that wants only the state holds the world once.
  static EngineSnapshot snapshot_of(std::unique_ptr<Engine> engine);

  // One step. After an InstabilityError the bodies are as the failed step
  // left them: keep a snapshot of the last good state.
  void step();
  void run(long steps);  // `steps` steps
  // The next step keeps each touching contact's normal and overlap as its
  // force pass finds them, so that a frame written right after it (or a
  // snapshot) need not compute them again: the same bits, faster. Where
  // the stepper's last pass is not at the step's final positions (Gear,
  // the rigid model, events, a device), they are computed as before.
  void keep_contact_geometry_next_step() { keep_contact_geometry_ = true; }

  // The bodies as they are now. Their skeletons' world coordinates
  // (World::world_vertex) are the neighbour list's copy, current only at
  // list rebuilds: read a vertex with vertex_position(world, body, k).
  const World& world() const {
    stepper_->sync_host(core_);
    return core_.world;
  }
  // The world to change (constraints, loads, laws) between steps: the next
  // step sorts the bodies into constrained and not again. Keep no
  // reference to it across steps.
  World& edit_world() {
    stepper_->sync_host(core_);
    stepper_->host_changed(core_);
    core_.constraints_may_have_changed = true;
    core_.neighbours.forget_contact_geometry();
    return core_.world;
  }
  // Every candidate feature pair as a full record, assembled now from the
  // list (the step keeps only what the next step needs): call it per
  // frame, not per contact.
  // In the rigid model a contact's force is its last percussion over dt.
  std::vector<Contact> contacts() const {
    stepper_->sync_host(core_);
    return stepper_->contacts(core_);
  }
  // visit(c) for each of contacts() that touches, in its order, c living
  // for the call only: a frame's sums without a copy of every contact.
  void for_each_touching_contact(const std::function<void(const Contact&)>& visit) const {
    stepper_->sync_host(core_);
    stepper_->for_each_touching_contact(core_, visit);
  }
  // The rigid model's collision counts and times (zero for the soft model).
  CollisionStats collision_stats() const { return stepper_->collision_stats(); }
  // The energy ledger of the current state, every term summed exactly, so
  // the same bits whatever the threads or ranks (a pass over the bodies and
  // candidates: call it when a row is wanted, not every step).
  EnergyLedger ledger() const;
  ExactLedger exact_ledger() const {
    stepper_->sync_host(core_);
    return core_.exact_ledger();
  }
  // The list as the last step left it (candidates, their states and each
  // body's incidences); its world coordinates are as world()'s.
  const NeighbourList& neighbour_list() const {
    stepper_->sync_host(core_);
    return core_.neighbours;
  }
  const NeighbourStats& neighbour_stats() const { return core_.neighbours.stats(); }
  double neighbour_rebuild_seconds() const { return core_.neighbours.rebuild_seconds(); }  // wall clock, this engine's
  long neighbour_partial_rebuilds() const {
    return core_.neighbours.partial_rebuilds();
  }  // among neighbour_stats().rebuilds
  double neighbour_verlet_distance() const { return core_.neighbours.verlet_distance(); }
  const NeighbourSettings& neighbour_settings() const { return core_.neighbours.settings(); }
  // The void-space triangulation (neighbours = triangulation), once a list rebuild has used it.
  const TriangulationNeighbours* neighbour_triangulation() const { return core_.neighbours.triangulation(); }
  const EngineSettings& settings() const { return core_.settings; }
  void set_threads(int threads);
  // Where given, a flag read inside the step's long passes (the rigid
  // model's programs): nonzero gives the step up with Interrupted
  // (rigid/interruption.h), leaving the state part-stepped; its caller
  // restores it from a snapshot taken before (run/serial_run.h).
  void set_interruption(const volatile int* flag) { core_.interruption = flag; }
  void set_neighbour_strategy(NeighbourStrategy strategy);
  void prepare_neighbour_search() { core_.neighbours.prepare(core_.world); }  // see NeighbourList::prepare
  // What the engine holds, by the capacity of its arrays (shape names and
  // contact laws aside): world, neighbour list, scratch, the stepper's history.
  std::size_t memory_bytes() const { return core_.memory_bytes() + stepper_->memory_bytes(); }
  // The deepest overlap of any contact so far, as a fraction of the sum of
  // its two sphero-radii, and when. From 1 on, the skeletons have crossed:
  // the contact's normal can flip and the forces no longer derive from a
  // potential (energy is not conserved). The cure is a stiffer kn (overlaps
  // scale as v sqrt(m / kn)) or slower grains.
  double deepest_overlap() const { return core_.deepest_overlap; }
  BodySteps body_steps() const { return core_.body_steps; }
  double deepest_overlap_time() const { return core_.deepest_overlap_time; }
  double time() const { return core_.time; }
  // The run whose state this is, which its snapshots carry.
  const RunLineage& lineage() const { return lineage_; }
  void set_lineage(const RunLineage& lineage) { lineage_ = lineage; }
  long step_count() const { return core_.step; }
  double time_step_limit() const { return dt_limit_; }

  // Re-evaluates forces and energies in the current state without moving
  // anything (tangential springs untouched): for tests and output. The
  // rigid model keeps its last percussions and takes only the energies anew.
  void evaluate_forces_now();

 private:
  // The ranks' and the devices' hooks (engine/engine_part.h,
  // engine/engine_device.h): kept out of the face a stepper and a driver see.
  friend class EnginePart;
  friend class EngineDevice;
  void retake_constraint_power();
  void evaluate_last_pass_again();
  void use_stepper(std::unique_ptr<Stepper> stepper);

  void book_constraint_work();
  void check_wall_motions();

  // mutable: a stepper that keeps the bodies on a device brings the
  // host's copy up to date when a const reader asks (Stepper::sync_host);
  // the engine's state is the same either way.
  mutable EngineCore core_;
  std::unique_ptr<Stepper> stepper_;
  double dt_limit_ = 0.0;
  double wall_step_bound_ = 0.0;
  std::vector<std::size_t> plates_;  // walls that move as the grains push them
  bool check_energy_ = true;
  double drive_work_ = 0.0;
  // The step's external work before its trapezoid, and the trapezoid's
  // first power: book_constraint_work() adds the step's share to the first.
  ExactSum work_before_trapezoid_;
  std::vector<double> trapezoid_first_powers_;  // per constrained body
  std::vector<int> body_numbers_;               // empty: the bodies are the whole world
  RunLineage lineage_;
  bool keep_contact_geometry_ = false;  // for the next step
};

}  // namespace sphero
