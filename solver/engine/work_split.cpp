#include "engine/work_split.h"

#include <algorithm>
#include <cmath>

#include "engine/capacity.h"

namespace sphero {

bool WorkSplit::fits(int threads, const NeighbourList& list, std::size_t chunks, std::size_t bodies) const {
  return threads_ == threads && rebuild_ == list.stats().rebuilds && chunks_ == chunks && bodies_ == bodies;
}

void WorkSplit::make(int threads, const NeighbourList& list, std::size_t chunks, std::size_t bodies) {
  const auto count = static_cast<std::size_t>(threads);
  threads_ = threads;
  rebuild_ = list.stats().rebuilds;
  chunks_ = chunks;
  bodies_ = bodies;
  first_chunk.resize(count + 1);
  for (std::size_t t = 0; t <= count; ++t) first_chunk[t] = chunks * t / count;
  contact_time_.assign(count, {});
  timed_steps_ = 0;
  assign_owners(list);
}

// The bodies each run's candidates start from (the body passes' parts),
// which run adds each body's forces, and the candidates each run evaluates
// again for its bodies (RecomputedContacts).
void WorkSplit::assign_owners(const NeighbourList& list) {
  const std::vector<Candidate>& candidates = list.candidates();
  const std::vector<ContactState>& states = list.states();
  const std::size_t n = bodies_, threads = first_chunk.size() - 1;
  // Candidates are sorted by their lower body: a run's first candidate
  // names the first body it holds, rounded to the body passes' chunks.
  first_body.assign(threads + 1, n);
  first_body[0] = 0;
  for (std::size_t t = 1; t < threads; ++t) {
    const std::size_t k = first_chunk[t] * kContactChunk;
    std::size_t body = n;
    if (k < candidates.size()) {
      const auto low = static_cast<std::size_t>(std::min(candidates[k].vertex_body, candidates[k].edge_body));
      body = std::min(n, (low + kBodyChunk / 2) / kBodyChunk * kBodyChunk);
    }
    first_body[t] = std::max(body, first_body[t - 1]);
  }
  const auto run_of = [&](std::size_t k) {
    const std::size_t chunk = k / kContactChunk;
    return static_cast<int>(std::upper_bound(first_chunk.begin(), first_chunk.end(), chunk) - first_chunk.begin()) - 1;
  };
  // A body's candidates are listed in candidate order: its last one lies
  // in the last run holding any.
  const std::vector<int>& start = list.body_candidate_start();
  const std::vector<int>& mine = list.body_candidates();
  owner.assign(n, -1);
  for (std::size_t b = 0; b < n; ++b)
    if (start[b] != start[b + 1])
      owner[b] = run_of(static_cast<std::size_t>(mine[static_cast<std::size_t>(start[b + 1] - 1)]));
  // The springs are copied as they stand between two steps, where the
  // copies and the originals agree.
  recomputed.resize(threads);
  for (RecomputedContacts& r : recomputed) r.candidates.clear(), r.springs.clear();
  std::size_t run = 0;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    while (run + 1 < threads && k >= first_chunk[run + 1] * kContactChunk) ++run;
    const int v = owner[static_cast<std::size_t>(candidates[k].vertex_body)];
    const int e = owner[static_cast<std::size_t>(candidates[k].edge_body)];
    for (const int later : {v, e != v ? e : -1})
      if (later > static_cast<int>(run)) {
        RecomputedContacts& r = recomputed[static_cast<std::size_t>(later)];
        r.candidates.push_back(static_cast<int>(k));
        r.springs.push_back(states[k].xi);
      }
  }
}

// Each boundary between two runs moves toward equal contact times: by half
// the chunks that would even the last period out, at the cost per chunk of
// the two runs (half, so that a noisy period does not throw it about).
void WorkSplit::balance(const NeighbourList& list) {
  constexpr int kBalanceSteps = 50;
  if (++timed_steps_ < kBalanceSteps) return;
  std::vector<std::size_t>& first = first_chunk;
  bool moved = false;
  for (std::size_t t = 1; t + 1 < first.size(); ++t) {
    const double left = contact_time_[t - 1].seconds, right = contact_time_[t].seconds;
    const auto left_chunks = static_cast<double>(first[t] - first[t - 1]);
    const auto right_chunks = static_cast<double>(first[t + 1] - first[t]);
    if (left_chunks < 1 || right_chunks < 1 || !(left + right > 0.0)) continue;
    const double per_chunk = 0.5 * (left / left_chunks + right / right_chunks);
    const double even_out = (right - left) / (2.0 * per_chunk);  // chunks to move from right to left
    const auto shift = static_cast<long>(std::lround(0.5 * even_out));
    if (shift == 0) continue;
    const long lowest = static_cast<long>(first[t - 1]) + 1, highest = static_cast<long>(first[t + 1]) - 1;
    const long boundary = std::clamp(static_cast<long>(first[t]) + shift, lowest, highest);
    moved = moved || boundary != static_cast<long>(first[t]);
    first[t] = static_cast<std::size_t>(boundary);
  }
  if (moved) assign_owners(list);
  for (Clock& c : contact_time_) c.seconds = 0.0;
  timed_steps_ = 0;
}

const std::vector<std::size_t>& WorkSplit::body_parts(int threads, std::size_t n) {
  if (threads_ == threads && bodies_ == n) return first_body;
  const auto count = static_cast<std::size_t>(threads);
  even_parts_.resize(count + 1);
  // Whole body chunks, so that the last pass can take the same parts.
  const std::size_t chunks = body_chunks(n);
  for (std::size_t t = 0; t <= count; ++t) even_parts_[t] = std::min(n, chunks * t / count * kBodyChunk);
  return even_parts_;
}

std::size_t WorkSplit::memory_bytes() const {
  std::size_t bytes = capacity_bytes(owner) + capacity_bytes(recomputed);
  for (const RecomputedContacts& r : recomputed) bytes += capacity_bytes(r.candidates) + capacity_bytes(r.springs);
  return bytes;
}

}  // namespace sphero
