// The seam between the engine and a time integrator: a Stepper advances an
// EngineCore by one step. Chosen once per run from the scene's
// `model` and `integrator` (make_stepper); a new integrator is one new
// class here.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "engine/engine_core.h"

namespace sphero {

// What an integrator carries from step to step beyond the world (Gear's
// scaled higher derivatives, per body and DOF: r2 = a dt²/2,
// r3 = x''' dt³/6, r4 = x'''' dt⁴/24); empty for velocity Verlet.
struct StepperHistory {
  std::vector<std::array<double, 3>> r2, r3, r4;
};

// What the rigid model's collisions cost and found, since the engine was
// made (zero for the soft model): for `sphero bench` and the run summary.
struct CollisionStats {
  long steps = 0;                     // steps stepped
  long programs = 0;                  // steps with a collision (with contacts within reach)
  long groups = 0;                    // independent groups of bodies in contact, summed over those steps
  long group_programs = 0;            // programs the groups were solved in (large ones alone, small ones shared)
  long largest_group = 0;             // bodies in the largest group
  long iterations = 0;                // interior-point iterations, summed over the group programs
  long stalled = 0;                   // frictional group programs whose sweeps stalled (gauss_seidel.h)
  long contacts = 0;                  // collision contacts, summed over those steps
  long corrections = 0;               // position corrections
  double largest_kkt_residual = 0.0;  // of any program
  double seconds_detecting = 0.0;     // contact points and assembly
  double seconds_solving = 0.0;       // the collision programs
  double seconds_correcting = 0.0;    // the position corrections
  // stepping = events (event_stepper.h): collisions met at their instants,
  // steps handed to the time-stepping (whole, or what the events left),
  // and lists made anew within a step (a body flew its skin).
  long events = 0;
  long handed_over = 0;
  long relists = 0;
};

class Stepper {
 public:
  virtual ~Stepper() = default;
  // A new run, once the forces of its initial state are known.
  virtual void start(EngineCore& /*core*/) {}
  // One step of core.settings.dt: moves the bodies, evaluates the forces,
  // the ledger's energies and the external power (core.power), and leaves
  // core.previous_position and core.first_unstable for the stability check.
  virtual void step(EngineCore& core) = 0;
  virtual StepperHistory history() const { return {}; }
  // One body's part of it (Gear's r2, r3, r4 of its three DOFs; zeros for
  // velocity Verlet), to read, and to overwrite with what the rank that
  // owns the body computed (solver/parallel).
  using BodyHistory = std::array<double, 9>;
  virtual BodyHistory history_of(std::size_t /*body*/) const { return {}; }
  virtual void set_history_of(std::size_t /*body*/, const BodyHistory& /*history*/) {}
  // Every candidate feature pair as a full record (Engine::contacts()).
  virtual std::vector<Contact> contacts(const EngineCore& core) const { return core.neighbours.records(core.world); }
  // visit(c) for each of contacts() that touches, in its order
  // (Engine::for_each_touching_contact()).
  virtual void for_each_touching_contact(const EngineCore& core,
                                         const std::function<void(const Contact&)>& visit) const {
    core.neighbours.for_each_touching(core.world, visit);
  }
  virtual CollisionStats collision_stats() const { return {}; }
  // Whether the step's last contact pass runs at the positions the step
  // ends with, so that the geometry it finds may serve a frame after the
  // step (NeighbourList::request_contact_geometry).
  virtual bool ends_with_contact_pass() const { return false; }
  // Whether the last step flew every body from collision to collision
  // (events): a body that moved more than its size met every contact on
  // its way, which a time-stepped step cannot say.
  virtual bool swept_last_step() const { return false; }
  // A stepper that keeps the bodies elsewhere (on an OpenCL device) brings
  // core's world and the list's contact states up to date for a reader...
  virtual void sync_host(EngineCore& /*core*/) {}
  // ...and takes them anew from core after a writer changed them.
  virtual void host_changed(EngineCore& /*core*/) {}
  // Another stepper takes over: whatever this one lent core (a remote
  // lister for the neighbour list) is taken back, core brought up to date.
  virtual void leave(EngineCore& core) { sync_host(core); }
  virtual std::size_t memory_bytes() const { return 0; }
};

// The rigid model's stepper, or the soft model's integrator.
std::unique_ptr<Stepper> make_stepper(const EngineSettings& settings, StepperHistory history = {});

}  // namespace sphero
