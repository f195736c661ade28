// The contact pass of a step: every candidate's geometry, its contact law
// and its history, the forces and torques on the bodies, and the energy
// sums — shared between threads by a WorkSplit, with every force added in
// candidate order, so that the bits do not depend on the thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/energy_ledger.h"
#include "engine/neighbour_list.h"
#include "engine/work_split.h"
#include "engine/world.h"

namespace sphero {

class ContactPass {
 public:
  // Adds every touching candidate's force to the bodies' force and torque
  // (which already hold the loads). With dt > 0 the tangential springs
  // advance, contacts that opened forget their history and the
  // dissipation over the step is booked; dt = 0 re-evaluates the forces
  // of the current state only. Returns the sums over all candidates, or
  // with `counted` (PartCount) over those whose home body it marks.
  StepContactSums evaluate(World& world, NeighbourList& list, int threads, double dt,
                           const std::uint8_t* counted = nullptr);

  WorkSplit& split() { return split_; }
  std::size_t memory_bytes() const;

 private:
  WorkSplit split_;
  std::vector<ContactEnergySums> chunk_sums_;
  std::vector<EndedContacts> ended_by_member_;  // per member of the team
};

}  // namespace sphero
