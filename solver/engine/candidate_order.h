// The canonical order of a neighbour list's candidates, and the carry-over
// of contact state (tangential springs, last forces) from one list to the
// next. The order makes a rebuild's result independent of which thread
// found what, and every sum over candidates independent of the threads.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/contact.h"

namespace sphero {

// By body pair, periodic image (seen from the lower body), kind, which body
// holds the vertex, vertex, feature; compared as one 192-bit number.
using SortKey = std::array<std::uint64_t, 3>;
SortKey sort_key(const Candidate& c);

// Candidates and their states, parallel arrays in canonical order.
struct OrderedCandidates {
  std::vector<Candidate> candidates;
  std::vector<ContactState> states;
  std::vector<SortKey> keys;
};

// `found` in canonical order (bodies below `body_count`), each taking the
// flags and state of its equal in `previous` (itself in canonical order)
// where there is one: the history a contact keeps across a rebuild.
OrderedCandidates order_and_carry_over(const std::vector<Candidate>& found, std::size_t body_count,
                                       const std::vector<Candidate>& previous,
                                       const std::vector<ContactState>& previous_states);

// A partial rebuild: the previous candidates of pairs neither of whose
// bodies was relisted, merged in canonical order with the fresh ones.
void merge_kept(const std::vector<Candidate>& previous, const std::vector<ContactState>& previous_states,
                const std::vector<std::uint8_t>& relisted, OrderedCandidates& fresh);

}  // namespace sphero
