// The engine (docs/MODEL.md): a World advanced step by step by one Stepper
// — the soft model's Verlet or Gear with contact forces over the neighbour
// list, or the rigid model's collisions (§7) — with gravity and imposed
// loads, constraints, the energy ledger, and the checks that stop a run
// going unstable.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/contact.h"
#include "engine/energy_ledger.h"
#include "engine/engine_core.h"
#include "engine/engine_settings.h"
#include "engine/neighbour_list.h"
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
    return core_.world;
  }
  // The bodies' motion to overwrite between steps with what the rank that
  // owns them computed (solver/parallel): the state the step itself would
  // have left with all of their contacts, so nothing is reclassified.
  World& world_to_refresh() {
    stepper_->sync_host(core_);
    return core_.world;
  }
  // A body's integrator history (Stepper::history_of), read and refreshed alike.
  Stepper::BodyHistory history_of(std::size_t body) const { return stepper_->history_of(body); }
  void set_history_of(std::size_t body, const Stepper::BodyHistory& h) { stepper_->set_history_of(body, h); }
  // A rank's part of a world shared by ranks: each body counts for what
  // `counted` says (PartCount, world.h) in the ledger and the list's
  // counts, the energy check, which needs every rank's ledger, is left to
  // the caller, and messages name each body by its number in the whole
  // world.
  void count_only(std::vector<std::uint8_t> counted, std::vector<int> body_numbers) {
    core_.counted = std::move(counted);
    body_numbers_ = std::move(body_numbers);
    check_energy_ = false;
    if (core_.settings.model == Model::soft) core_.take_constraint_powers();  // of the bodies counted
  }
  // On a rank's part: what completes the shared bodies' forces before
  // Gear's corrector (EngineCore::complete_shared_forces).
  void complete_shared_forces_with(std::function<void()> complete) {
    core_.complete_shared_forces = std::move(complete);
  }
  // On a rank's part, once the forces of the last step's end state are
  // complete (after the ghosts were corrected): the external power taken
  // again from them, and the step's work of imposed loads and motions
  // booked again with it, by the same trapezoid as step().
  void retake_constraint_power();
  // Every candidate feature pair as a full record, assembled now from the
  // list (the step keeps only what the next step needs): call it per
  // frame, not per contact.
  // In the rigid model a contact's force is its last percussion over dt.
  std::vector<Contact> contacts() const {
    stepper_->sync_host(core_);
    return stepper_->contacts(core_);
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
  // The ledger a step keeps running (its sums per chunk; the energy
  // check's), and what it keeps exactly.
  const EnergyLedger& running_ledger() const { return core_.ledger; }
  const LedgerBooks& books() const { return core_.books; }
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
  // Every later force evaluation of a soft-model run by `backend` instead
  // of the CPU's contact pass (the same bits; contact_evaluator.h).
  void set_contact_backend(std::unique_ptr<ContactEvaluator> backend) { core_.contact_backend = std::move(backend); }
  // Every later step by `stepper` (one that keeps the bodies on a device:
  // the same bits), started from the state now.
  void use_stepper(std::unique_ptr<Stepper> stepper);
  void set_neighbour_strategy(NeighbourStrategy strategy);
  // The list's rebuilds decided with the other parts of a world spread
  // over ranks (NeighbourList::agree_with; null: alone).
  // Each part counts what count_only's mask gives it.
  void agree_lists_with(const ListAgreement* agreement) {
    core_.neighbours.agree_with(agreement, agreement ? &core_.counted : nullptr);
  }                                                                           // takes effect at the next list rebuild
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
  double deepest_overlap_time() const { return core_.deepest_overlap_time; }
  double time() const { return core_.time; }
  // The work the last step's drive did on the vibrating walls' inertia
  // (in the ledger, unless count_only left the walls to the caller).
  double drive_work() const { return drive_work_; }
  long step_count() const { return core_.step; }
  double time_step_limit() const { return dt_limit_; }
  // How far a pressure plate may move in one step before the run stops
  // (wall_steps.h); a part of a world spread over ranks takes the whole
  // world's.
  double wall_step_bound() const { return wall_step_bound_; }
  void set_wall_step_bound(double bound) { wall_step_bound_ = bound; }

  // Re-evaluates forces and energies in the current state without moving
  // anything (tangential springs untouched): for tests and output. The
  // rigid model keeps its last percussions and takes only the energies anew.
  void evaluate_forces_now();
  // The soft model's last contact pass of the step made again, in its
  // place (its deepest overlap forgotten first): for a part of a world
  // spread over ranks, once the ghosts that pass read are corrected.
  void evaluate_last_pass_again();

 private:
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
};

}  // namespace sphero
