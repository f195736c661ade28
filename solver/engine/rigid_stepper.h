// The rigid model's time loop (docs/MODEL.md §7, "The time loop"). Each
// step of dt:
//  1. overlaps deeper than the tolerance are removed by a position
//     correction (position_correction.h), velocities untouched;
//  2. the contact points are the listed feature pairs within the gap
//     (gap_contacts.h); those that the step's free motion would close are
//     the collision's contacts;
//  3. one collision instant (rigid/collision.h) gives every body in contact
//     its velocity after the step, gravity's and the attractor's impulse
//     included; the others take that impulse alone;
//  4. every body moves at its new velocity, walls at their imposed one.
// Single-threaded but for the list rebuild: the same bits whatever the
// threads.
#pragma once

#include <vector>

#include "engine/gap_contacts.h"
#include "engine/stepper.h"
#include "rigid/collision.h"

namespace sphero {

class RigidStepper final : public Stepper {
 public:
  void start(EngineCore& core) override;
  void step(EngineCore& core) override;
  std::vector<Contact> contacts(const EngineCore& core) const override;
  CollisionStats collision_stats() const override { return stats_; }

 private:
  void correct_overlaps(EngineCore& core, std::vector<GapContact>& contacts);
  std::vector<CollisionContact> colliding(const EngineCore& core, const std::vector<GapContact>& near,
                                          std::vector<int>& chosen);
  void store_percussions(EngineCore& core, const std::vector<GapContact>& near, const std::vector<int>& chosen,
                         const std::vector<CollisionContact>& contacts, const CollisionResult& result);
  void move_bodies(EngineCore& core);

  CollisionStats stats_;
  // Per step, reused: each body's place among the collision's bodies (-1: none), and those bodies.
  std::vector<int> slot_;
  std::vector<int> members_;
  std::vector<RigidBodyState> states_;
};

}  // namespace sphero
