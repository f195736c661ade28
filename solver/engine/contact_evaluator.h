// Another backend's contact pass, put in the place of the engine's own
// (ContactPass) for every force evaluation of a soft-model run: the OpenCL
// backend's (docs/OPENCL.md). It must give ContactPass::evaluate's results —
// the forces and torques added to the loads already in the world, the
// candidates' flags and states, the energy sums — bit for bit.
#pragma once

#include "engine/energy_ledger.h"
#include "engine/neighbour_list.h"
#include "engine/world.h"

namespace sphero {

class ContactEvaluator {
 public:
  virtual ~ContactEvaluator() = default;
  virtual StepContactSums evaluate(World& world, NeighbourList& list, double dt) = 0;
};

}  // namespace sphero
