// A run's state in parts, one per rank, as ranks keep their share of the
// last good state and write a checkpoint in parts (io/checkpoint.h): each
// part holds some grains whole (parallel/body_records.h) and the
// candidates they are home to; a header holds what the whole run shares
// (settings, laws and fields, the list's counts, the ledger and its books,
// time and step) as a snapshot of no bodies. Put together, the parts give
// the serial engine's snapshot, to the bit. No MPI here: reading a
// checkpoint in parts needs none.
#pragma once

#include <cmath>
#include <functional>
#include <vector>

#include "engine/engine.h"
#include "parallel/body_records.h"
#include "parallel/grain_records.h"

namespace sphero {

// The list's counts and settings, which every rank's list starts from.
struct ListScalars {
  NeighbourStats stats;
  bool built = false;
  double verlet_distance = 0.0;
  long steps_since_rebuild = 0;
  double listed_at_half_skin = INFINITY;
  static ListScalars of(const NeighbourListState& list) {
    return {list.stats, list.built, list.verlet_distance, list.steps_since_rebuild, list.listed_at_half_skin};
  }
  void set_in(NeighbourListState& list) const {
    list.stats = stats, list.built = built, list.verlet_distance = verlet_distance;
    list.steps_since_rebuild = steps_since_rebuild, list.listed_at_half_skin = listed_at_half_skin;
  }
};

struct StatePart {
  std::vector<BodyRecord> bodies;  // in increasing order of their numbers
  CandidateStream candidates;      // portable, in canonical order, each home to one of `bodies`
};

// The whole state from its header and its parts. Throws
// std::invalid_argument where the parts do not make one state: a body
// missing or held twice, a candidate naming a body or vertex that is not
// there, candidates out of canonical order, states that do not match.
// `check`, where given, sees the state with its bodies and no contacts
// before the contacts are made from the candidates (a reader's checks of
// what it cannot trust yet).
EngineSnapshot assemble_state(EngineSnapshot header, std::vector<StatePart> parts,
                              const std::function<void(const EngineSnapshot&)>& check = {});

// Per-body integrator histories into a snapshot's Gear arrays, and back.
void split_history(const std::vector<Stepper::BodyHistory>& per_body, EngineSnapshot& s);
std::vector<Stepper::BodyHistory> joined_history(const EngineSnapshot& s, std::size_t bodies);

// A whole snapshot's header: its world without bodies, its list's counts
// without contacts or references, everything else as it is.
EngineSnapshot header_of(const EngineSnapshot& whole);
// A whole snapshot cut into `parts` parts, body i going to part
// part_of_body[i] with the candidates it is home to.
std::vector<StatePart> cut_into_parts(const EngineSnapshot& whole, const std::vector<int>& part_of_body, int parts);

}  // namespace sphero
