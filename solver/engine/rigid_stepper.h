// The rigid model's time loop (docs/MODEL.md §7, "The time loop"). Each
// step of dt:
//  1. overlaps deeper than the tolerance are removed by a position
//     correction (RigidStepper::correct_overlaps), velocities untouched;
//  2. the contact points are the listed feature pairs within reach
//     (gap_contacts.h). Those that the step's free motion closes to within
//     the gap, and that are not parting now, collide with their law; every
//     other one that twice its bodies' free speeds could close within the
//     step is guarded: its mean relative normal velocity held at
//     d(x) ≥ min(0, ½ (d(U⁻) − gap/dt)), free to close its gap within the
//     step, never to work, without dissipation (ξ_n would brake parting);
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
  void for_each_touching_contact(const EngineCore& core,
                                 const std::function<void(const Contact&)>& visit) const override {
    for (const Contact& c : contacts(core))
      if (c.active) visit(c);
  }
  CollisionStats collision_stats() const override { return stats_; }
  // Steps 1-3 of a step for the bodies that `part` marks (one entry per
  // body; empty: every body) and the walls: the overlaps corrected (every
  // body's), then one collision program of the contacts among them, which
  // gives them their velocities after the step and books its forces; no
  // body moves. The others keep their velocities, forces and contacts.
  void collide_part(EngineCore& core, const std::vector<char>& part);

 private:
  void correct_overlaps(EngineCore& core, std::vector<GapContact>& contacts);
  // The bodies of the next program: none yet; body b joins (world index,
  // -1 for a wall's side) with its velocity and impulse, and gets its slot.
  void begin_program(std::size_t bodies);
  int join(const World& w, int b, Vec2 velocity, double spin, Vec2 impulse);
  // `guarded`: the contact is not colliding, only held from closing its gap.
  CollisionContact collision_contact(const World& w, const GapContact& g, double dt, double gap, bool& guarded);
  std::vector<CollisionContact> program_contacts(const EngineCore& core, const std::vector<GapContact>& near);
  void start_warm(const EngineCore& core, const GapContact& g, CollisionContact& c) const;
  bool give_held_guards_their_law(const EngineCore& core, const std::vector<GapContact>& near,
                                  const CollisionResult& result, std::vector<CollisionContact>& contacts);
  CollisionResult collide(const EngineCore& core, const std::vector<GapContact>& near,
                          const std::vector<CollisionContact>& contacts);
  void store_percussions(EngineCore& core, const std::vector<GapContact>& near,
                         const std::vector<CollisionContact>& contacts, const CollisionResult& result);
  void move_bodies(EngineCore& core);

  CollisionStats stats_;
  // Per step, reused: each body's place among the collision's bodies (-1: none), and those bodies.
  std::vector<int> slot_;
  std::vector<int> members_;
  std::vector<RigidBodyState> states_;
  std::vector<char> guarded_;  // per contact of the step's program
  // A program solved again at most this many times for the guarded
  // contacts it pressed.
  static constexpr int kLawPasses = 4;
  // A guard is pressed when its percussion changes its relative velocity by
  // more than this many tolerances of the program's velocities.
  static constexpr double kPressedAbove = 1e3;
};

}  // namespace sphero
