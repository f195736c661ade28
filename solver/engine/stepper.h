// The seam between the engine and a time integrator: a Stepper advances an
// EngineCore by one step. Chosen once per run from the scene's
// `integrator` (make_stepper); a new integrator is one new class here.
#pragma once

#include <array>
#include <cstddef>
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
  virtual std::size_t memory_bytes() const { return 0; }
};

std::unique_ptr<Stepper> make_stepper(Integrator integrator, StepperHistory history = {});

}  // namespace sphero
