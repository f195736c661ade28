// What a rank's part of a world spread over MPI ranks needs of its engine
// (parallel/distributed_engine.h), beyond what a stepper and a run driver
// need (engine.h): the bodies' motion refreshed from the ranks that own
// them, their integrator histories, what each body counts for, the shared
// forces' completion, the lists' agreement, the last pass made again and
// the imposed work booked again.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/engine.h"

namespace sphero {

class EnginePart {
 public:
  explicit EnginePart(Engine& engine) : e_(engine) {}

  // The bodies' motion to overwrite between steps with what the rank that
  // owns them computed: the state the step itself would have left with all
  // of their contacts, so nothing is reclassified.
  World& world_to_refresh() {
    e_.stepper_->sync_host(e_.core_);
    e_.core_.neighbours.forget_contact_geometry();  // the ghosts move
    return e_.core_.world;
  }
  // A body's integrator history (Stepper::history_of), read and refreshed alike.
  Stepper::BodyHistory history_of(std::size_t body) const { return e_.stepper_->history_of(body); }
  void set_history_of(std::size_t body, const Stepper::BodyHistory& h) { e_.stepper_->set_history_of(body, h); }
  // Each body counts for what `counted` says (PartCount, world.h) in the
  // ledger and the list's counts, the energy check, which needs every
  // rank's ledger, is left to the caller, and messages name each body by
  // its number in the whole world.
  void count_only(std::vector<std::uint8_t> counted, std::vector<int> body_numbers) {
    e_.core_.counted = std::move(counted);
    e_.body_numbers_ = std::move(body_numbers);
    e_.check_energy_ = false;
    if (e_.core_.settings.model == Model::soft) e_.core_.take_constraint_powers();  // of the bodies counted
  }
  // What completes the shared bodies' forces before Gear's corrector
  // (EngineCore::complete_shared_forces).
  void complete_shared_forces_with(std::function<void()> complete) {
    e_.core_.complete_shared_forces = std::move(complete);
  }
  // Once the forces of the last step's end state are complete (after the
  // ghosts were corrected): the external power taken again from them, and
  // the step's work of imposed loads and motions booked again with it, by
  // the same trapezoid as step().
  void retake_constraint_power() { e_.retake_constraint_power(); }
  // The soft model's last contact pass of the step made again, in its
  // place (its deepest overlap forgotten first), once the ghosts that pass
  // read are corrected.
  void evaluate_last_pass_again() { e_.evaluate_last_pass_again(); }
  // The list's rebuilds decided with the other parts (NeighbourList::
  // agree_with; null: alone), each part counting what count_only's mask
  // gives it; takes effect at the next list rebuild.
  void agree_lists_with(const ListAgreement* agreement) {
    e_.core_.neighbours.agree_with(agreement, agreement ? &e_.core_.counted : nullptr);
  }
  // The ledger a step keeps running (its sums per chunk; the energy
  // check's), and what it keeps exactly.
  const EnergyLedger& running_ledger() const { return e_.core_.ledger; }
  const LedgerBooks& books() const { return e_.core_.books; }
  // The work the last step's drive did on the vibrating walls' inertia
  // (in the ledger, unless count_only left the walls to the caller).
  double drive_work() const { return e_.drive_work_; }
  // How far a pressure plate may move in one step before the run stops
  // (wall_steps.h): a part takes the whole world's.
  double wall_step_bound() const { return e_.wall_step_bound_; }
  void set_wall_step_bound(double bound) { e_.wall_step_bound_ = bound; }

 private:
  Engine& e_;
};

}  // namespace sphero
