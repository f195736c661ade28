#include "engine/candidate_order.h"

#include <algorithm>

namespace sphero {

SortKey sort_key(const Candidate& c) {
  const bool vertex_first = c.vertex_body < c.edge_body;
  const auto low = static_cast<std::uint32_t>(vertex_first ? c.vertex_body : c.edge_body);
  const auto high = static_cast<std::uint32_t>(vertex_first ? c.edge_body : c.vertex_body);
  const int sign = vertex_first ? 1 : -1;
  // Images count periods crossed (±2²³ is beyond any run); biased so that
  // unsigned order is signed order.
  const auto biased = [](int v) {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(v) + (1 << 23)) & 0xFFFFFF;
  };
  return {
      (static_cast<std::uint64_t>(low) << 32) | high,
      (biased(sign * c.image[0]) << 40) | (biased(sign * c.image[1]) << 16) |
          (static_cast<std::uint64_t>(c.kind) << 1) | (vertex_first ? 0u : 1u),
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.vertex)) << 32) | static_cast<std::uint32_t>(c.feature)};
}

namespace {

// The key leads with the lower body: candidates are first bucketed by it
// (a counting sort), then each bucket, a few dozen at most, sorted whole —
// the order of one sort of all the keys, at a fraction of its comparisons.
std::vector<std::pair<SortKey, std::uint32_t>> canonical_order(const std::vector<Candidate>& found, std::size_t n) {
  std::vector<std::pair<SortKey, std::uint32_t>> order(found.size());
  std::vector<std::uint32_t> bucket(n + 1, 0);
  const auto lower_body = [](const Candidate& c) {
    return static_cast<std::size_t>(std::min(c.vertex_body, c.edge_body));
  };
  for (const Candidate& c : found) ++bucket[lower_body(c) + 1];
  for (std::size_t b = 0; b < n; ++b) bucket[b + 1] += bucket[b];
  std::vector<std::uint32_t> fill(bucket.begin(), bucket.end() - 1);
  for (std::size_t k = 0; k < found.size(); ++k)
    order[fill[lower_body(found[k])]++] = {sort_key(found[k]), static_cast<std::uint32_t>(k)};
  for (std::size_t b = 0; b < n; ++b)
    if (bucket[b + 1] - bucket[b] > 1) std::sort(order.begin() + bucket[b], order.begin() + bucket[b + 1]);
  return order;
}

}  // namespace

OrderedCandidates order_and_carry_over(const std::vector<Candidate>& found, std::size_t body_count,
                                       const std::vector<Candidate>& previous,
                                       const std::vector<ContactState>& previous_states) {
  const std::vector<std::pair<SortKey, std::uint32_t>> order = canonical_order(found, body_count);
  OrderedCandidates out;
  out.candidates.resize(found.size());
  out.keys.resize(found.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    out.candidates[k] = found[order[k].second], out.keys[k] = order[k].first;
  // Both lists are in canonical order: one merge walk.
  out.states.resize(found.size());
  std::size_t o = 0;
  SortKey old_key = previous.empty() ? SortKey{} : sort_key(previous[0]);
  for (std::size_t k = 0; k < out.candidates.size(); ++k) {
    const SortKey& key = out.keys[k];
    while (o < previous.size() && old_key < key)
      if (++o < previous.size()) old_key = sort_key(previous[o]);
    if (o < previous.size() && old_key == key) {
      out.candidates[k].active = previous[o].active;
      out.candidates[k].sliding = previous[o].sliding;
      out.states[k] = previous_states[o];
    }
  }
  return out;
}

void merge_kept(const std::vector<Candidate>& previous, const std::vector<ContactState>& previous_states,
                const std::vector<std::uint8_t>& relisted, OrderedCandidates& fresh) {
  std::vector<Candidate> merged;
  std::vector<ContactState> merged_states;
  merged.reserve(previous.size() + fresh.candidates.size());
  merged_states.reserve(previous.size() + fresh.candidates.size());
  std::size_t next = 0;
  const auto take_fresh = [&] {
    merged.push_back(fresh.candidates[next]);
    merged_states.push_back(fresh.states[next]);
    ++next;
  };
  for (std::size_t k = 0; k < previous.size(); ++k) {
    const Candidate& c = previous[k];
    if (relisted[static_cast<std::size_t>(c.vertex_body)] || relisted[static_cast<std::size_t>(c.edge_body)]) continue;
    const SortKey key = sort_key(c);
    while (next < fresh.candidates.size() && fresh.keys[next] < key) take_fresh();
    merged.push_back(c);
    merged_states.push_back(previous_states[k]);
  }
  while (next < fresh.candidates.size()) take_fresh();
  fresh.candidates = std::move(merged);
  fresh.states = std::move(merged_states);
  fresh.keys.clear();
}

}  // namespace sphero
