// What ranks send each other of the grains and the list (parallel/): a
// grain's motion, a grain with its list reference, the candidates as
// packed keys with the states that hold something, and the helpers that
// renumber and merge them.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/contact.h"
#include "engine/world.h"

namespace sphero {

// What an owner sends of a grain: its motion and the forces of its last
// evaluation (the next step's first kick reads them).
struct GrainMotion {
  Vec2 position;
  double angle;
  Vec2 velocity;
  double angular_velocity;
  Vec2 force;
  double torque;
};

// A grain as its owner gathers it: its motion and what its list keeps.
struct OwnedBody {
  int body;   // whole-world index
  int owner;  // its rank (after a sharing out, the next one)
  GrainMotion motion;
  Vec2 reference_position;
  double reference_angle;
  std::array<int, 2> wraps;
  std::array<double, 9> history;  // the integrator's (Gear's r2, r3, r4; zeros for Verlet)
};

// A candidate's stream to one rank: portable keys in canonical order, and only the states that hold something
// (a candidate not touching holds none).
struct CandidateStream {
  std::vector<Candidate> keys;
  std::vector<std::uint8_t> stated;
  std::vector<ContactState> states;
  void add(const Candidate& key, const ContactState& state);
};

GrainMotion motion_of(const World& w, std::size_t i);
void set_motion(World& w, std::size_t i, const GrainMotion& m);
// A candidate of world w (whose bodies are numbered `numbers` in the run)
// as ranks pass it on: its bodies by their numbers in the run, its vertex
// and features counted from their bodies' first vertices. Within a pair of
// bodies that keeps the canonical order (candidate_order.h), which
// compares vertices only of the same body.
Candidate portable(const Candidate& k, const World& w, const std::vector<int>& numbers);
// A portable candidate as a candidate of world w, where its bodies are v and e.
Candidate localized(const Candidate& k, const World& w, int v, int e);
// Whether a contact state holds anything (a candidate not touching holds none).
bool holds_state(const ContactState& s);
// Runs of candidates each in canonical order, one after the other, merged
// into one canonical list (the states follow their candidates).
void merge_runs(std::vector<Candidate>& keys, std::vector<ContactState>& states,
                const std::vector<std::size_t>& run_ends);

}  // namespace sphero
