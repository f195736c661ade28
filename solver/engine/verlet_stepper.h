// Velocity Verlet (symplectic, one force evaluation per step), in three
// passes over the bodies and candidates, each one parallel region:
//  1. kick, drift, orientation, the motion since the list was built, and
//     the gravity of unconstrained bodies for the coming evaluation;
//  2. the list (rebuilt, mended or kept) and the contacts;
//  3. kick, the energies (per fixed chunk of bodies), the stability check.
// Passes 1 and 3 give each thread the bodies whose forces it adds in pass 2.
#pragma once

#include "engine/stepper.h"

namespace sphero {

class VerletStepper final : public Stepper {
 public:
  void step(EngineCore& core) override;
  // The kick after the pass changes velocities only.
  bool ends_with_contact_pass() const override { return true; }

 private:
  static double move_bodies(EngineCore& core, std::size_t first, std::size_t end, bool measure);
  static std::size_t finish_chunk(EngineCore& core, std::size_t chunk);
  static void move_and_force(EngineCore& core);
  static std::size_t finish_bodies(EngineCore& core);
};

}  // namespace sphero
