// The rigid model stepped from collision to collision (docs/MODEL.md §8,
// "Event-driven stepping"; `stepping = events`). Within each step of dt
// the bodies fly freely — centres on parabolas, angles turning at a
// constant rate — to the first instant two listed features come within
// reach (triangulation/free_flight.h); every approaching contact at that
// instant collides with its rigid law (rigid/collision.h: a binary one in
// closed form), and the flight goes on to the next. No event sequence
// resolves a resting contact in finitely many collisions (inelastic
// collapse), so the grains of a pair touching and neither parting nor
// approaching faster than the field changes a speed in two steps are
// time-stepped by the RigidStepper's program, and move in straight lines
// at its velocities while the others fly; a flying grain that strikes one
// disturbs it, and its pairs are events from then on. A step that meets
// more collisions than a gas could is handed to the time-stepping whole
// from where the events left it (and with `events_whole_steps`, every
// step with a resting pair). The list holds the pairs within the skin;
// before any body (a driven wall at any speed) can have moved the skin
// since it was made, the flight stops, the list is made anew and the
// contacts are timed again, so that no pair is missed however far a body
// flies in a step.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <string_view>
#include <vector>

#include "engine/gap_contacts.h"
#include "engine/rigid_stepper.h"
#include "engine/stepper.h"

namespace sphero {

class EventStepper final : public Stepper {
 public:
  void start(EngineCore& core) override;
  void step(EngineCore& core) override;
  std::vector<Contact> contacts(const EngineCore& core) const override { return time_stepping_.contacts(core); }
  void for_each_touching_contact(const EngineCore& core,
                                 const std::function<void(const Contact&)>& visit) const override {
    time_stepping_.for_each_touching_contact(core, visit);
  }
  CollisionStats collision_stats() const override;
  bool swept_last_step() const override { return swept_; }

 private:
  // A candidate's next contact (`candidate` >= 0), or the instant body
  // −1 − `candidate` may have moved the skin since the list was made, at
  // `time` from the step's start; stale once the candidate's (the body's)
  // version has moved on.
  struct Event {
    double time = 0.0;
    int candidate = 0;
    std::uint32_t version = 0;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : candidate > o.candidate; }
  };
  static bool resting(const EngineCore& core, const GapContact& g);
  bool resting_contact(const EngineCore& core) const;
  void find_clusters(const EngineCore& core);
  long count_body_steps(EngineCore& core, double flown) const;
  static void refuse_walls_too_fast(const EngineCore& core, double seconds, std::string_view why);
  bool is_event_pair(const World& w, const Candidate& c) const;
  void fly_every_body(EngineCore& core);
  void step_clusters(EngineCore& core);
  void hand_over_the_rest(EngineCore& core, double now, long flying);
  void advance(World& w, int body, double to);
  void advance_all(World& w, double to);
  void schedule(EngineCore& core, int candidate, double now);
  void schedule_relist(EngineCore& core, int body, double now);
  void schedule_all(EngineCore& core, double now);
  int relist(EngineCore& core, double now);
  void index_candidates(const EngineCore& core);
  void start_events(EngineCore& core);
  int collide_rounds(EngineCore& core, std::vector<int> frontier, double now, std::vector<int>& moved);
  void reschedule(EngineCore& core, const std::vector<int>& bodies, double now);
  int collide_approaching(EngineCore& core, const std::vector<GapContact>& touching, double step_length,
                          std::vector<int>& moved, std::vector<int>& struck);
  void hand_over(EngineCore& core, double seconds);

  RigidStepper time_stepping_;
  bool swept_ = false;    // the last step flown by events, none of it handed over
  CollisionStats stats_;  // the events' own; the time-stepping keeps its
  std::vector<int> slot_;
  // Per body, this step: time-stepped with the resting clusters (1), or
  // flown by events (0; walls 0).
  std::vector<char> stepped_;
  // Time-stepped bodies whose velocity a collision with a flying one
  // changed this step: their every pair is an event's from then on.
  std::vector<char> disturbed_;
  long disturbed_count_ = 0;
  // The step's event queue: per body its clock and candidates, per
  // candidate its version and a mark for the collisions' sweeps.
  std::priority_queue<Event, std::vector<Event>, std::greater<>> queue_;
  std::vector<double> body_time_;
  std::vector<int> incident_begin_, incident_;
  std::vector<std::uint32_t> version_, seen_, body_version_;
  std::uint32_t epoch_ = 0;
};

}  // namespace sphero
