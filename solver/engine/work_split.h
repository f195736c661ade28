// How a step's passes share the work out between threads, run t to thread
// t: candidate chunks [first_chunk[t], first_chunk[t + 1]) in the contact
// pass and bodies [first_body[t], first_body[t + 1]) in the passes over
// bodies — the bodies whose candidates run t holds, so that a thread works
// on the same bodies from pass to pass and their data stay in its core's
// cache. The boundaries follow the measured time of each run's contacts (a
// floor's contacts or a dense corner make candidates unequal); results
// never depend on them.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/neighbour_list.h"

namespace sphero {

// Candidates per chunk of the energy sums, and the unit of the split
// between threads in the contact pass.
constexpr std::size_t kContactChunk = 64;
// The unit of the split between threads in the body passes: small, so that
// the body split falls near the contact split.
constexpr std::size_t kBodyChunk = 64;
// The body chunks that bodies [0, bodies) reach into.
inline std::size_t body_chunks(std::size_t bodies) { return (bodies + kBodyChunk - 1) / kBodyChunk; }

class WorkSplit {
 public:
  // Candidates of earlier runs that touch a body this run owns, in
  // candidate order, and this run's own copy of their tangential springs.
  // The run evaluates them again before its own chunks, so that such a body
  // receives every contact in candidate order without reading what another
  // thread wrote this step: cheaper than handing cache lines between the
  // cores. The copies advance as the originals do, to the bit.
  struct RecomputedContacts {
    std::vector<int> candidates;
    std::vector<Vec2> springs;
  };

  // Whether the split was made for this thread count, list and bodies.
  bool fits(int threads, const NeighbourList& list, std::size_t chunks, std::size_t bodies) const;
  // An even split of the candidate chunks; balance() moves it from there.
  void make(int threads, const NeighbourList& list, std::size_t chunks, std::size_t bodies);
  // Every kBalanceSteps, moves the boundaries toward equal contact times.
  void balance(const NeighbourList& list);
  // The body passes' parts: first_body when the split is current, else
  // an even split in whole body chunks.
  const std::vector<std::size_t>& body_parts(int threads, std::size_t bodies);
  void add_contact_time(int run, double seconds) { contact_time_[static_cast<std::size_t>(run)].seconds += seconds; }
  std::size_t memory_bytes() const;

  std::vector<std::size_t> first_chunk, first_body;  // threads + 1 each
  // Per body, the run that adds its contacts' forces: the last run holding
  // one of its candidates (-1 for a body without candidates).
  std::vector<int> owner;
  std::vector<RecomputedContacts> recomputed;  // per run

 private:
  void assign_owners(const NeighbourList& list);

  int threads_ = 0;
  long rebuild_ = -1;       // the list it was made for
  std::size_t chunks_ = 0;  // candidate chunks in that list
  std::size_t bodies_ = 0;
  struct alignas(64) Clock {
    double seconds = 0.0;
  };
  std::vector<Clock> contact_time_;  // per run, since the last balancing
  int timed_steps_ = 0;
  std::vector<std::size_t> even_parts_;
};

}  // namespace sphero
