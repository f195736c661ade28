// The canonical order of candidates: independent of the order in which the
// threads found them, and the carry-over of contact state by key.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "engine/candidate_order.h"

namespace sphero {
namespace {

Candidate candidate(int vertex_body, int edge_body, int vertex, int feature,
                    ContactKind kind = ContactKind::vertex_edge, std::array<int, 2> image = {0, 0}) {
  Candidate c;
  c.vertex_body = vertex_body, c.edge_body = edge_body, c.vertex = vertex, c.feature = feature, c.kind = kind;
  c.image = image;
  return c;
}

std::vector<Candidate> some_candidates() {
  return {candidate(3, 1, 30, 10),
          candidate(1, 3, 11, 31),
          candidate(0, 2, 1, 20),
          candidate(2, 0, 21, 2),
          candidate(1, 3, 11, 31, ContactKind::vertex_vertex),
          candidate(1, 3, 11, 31, ContactKind::vertex_edge, {1, 0}),
          candidate(1, 3, 11, 31, ContactKind::vertex_edge, {-1, 0}),
          candidate(0, 1, 0, 12)};
}

TEST(CandidateOrder, TheOrderDoesNotDependOnHowTheCandidatesWereFound) {
  const std::vector<Candidate> found = some_candidates();
  const OrderedCandidates reference = order_and_carry_over(found, 4, {}, {});
  std::mt19937_64 g(11);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Candidate> shuffled = found;
    std::shuffle(shuffled.begin(), shuffled.end(), g);
    const OrderedCandidates ordered = order_and_carry_over(shuffled, 4, {}, {});
    ASSERT_EQ(ordered.keys, reference.keys);
  }
  // Sorted by the lower body of the pair first: the pair (0, 1), then (0, 2).
  EXPECT_TRUE(std::is_sorted(reference.keys.begin(), reference.keys.end()));
  EXPECT_EQ(std::min(reference.candidates[0].vertex_body, reference.candidates[0].edge_body), 0);
  EXPECT_EQ(std::max(reference.candidates[0].vertex_body, reference.candidates[0].edge_body), 1);
}

TEST(CandidateOrder, AContactKeepsItsSpringAndFlagsAcrossARebuildAndANewOneStartsAfresh) {
  const std::vector<Candidate> old_found = {candidate(1, 3, 11, 31), candidate(0, 2, 1, 20)};
  OrderedCandidates old = order_and_carry_over(old_found, 4, {}, {});
  for (std::size_t k = 0; k < old.candidates.size(); ++k) {
    old.candidates[k].active = true;
    old.candidates[k].sliding = k == 0;
    old.states[k].xi = {0.1 * static_cast<double>(k + 1), -0.2};
  }
  // The same two contacts, one in another periodic image (a new contact),
  // and a third.
  const std::vector<Candidate> again = {candidate(0, 2, 1, 20),
                                        candidate(1, 3, 11, 31, ContactKind::vertex_edge, {1, 0}),
                                        candidate(1, 3, 11, 31), candidate(0, 1, 0, 12)};
  const OrderedCandidates now = order_and_carry_over(again, 4, old.candidates, old.states);
  int carried = 0;
  for (std::size_t k = 0; k < now.candidates.size(); ++k) {
    const auto previous = std::find(old.keys.begin(), old.keys.end(), now.keys[k]);
    if (previous == old.keys.end()) {
      EXPECT_FALSE(now.candidates[k].active);
      EXPECT_EQ(now.states[k].xi, Vec2{});
      continue;
    }
    const auto o = static_cast<std::size_t>(previous - old.keys.begin());
    EXPECT_EQ(now.candidates[k].active, old.candidates[o].active);
    EXPECT_EQ(now.candidates[k].sliding, old.candidates[o].sliding);
    EXPECT_EQ(now.states[k].xi, old.states[o].xi);
    ++carried;
  }
  EXPECT_EQ(carried, 2);
}

TEST(CandidateOrder, APartialRebuildKeepsTheUnmovedPairsAndMergesInOrder) {
  OrderedCandidates old = order_and_carry_over(some_candidates(), 4, {}, {});
  for (std::size_t k = 0; k < old.states.size(); ++k) old.states[k].xi = {static_cast<double>(k), 0.0};
  // Body 3 moved: its pairs are listed anew (one of them only), the others kept.
  std::vector<std::uint8_t> relisted(4, 0);
  relisted[3] = 1;
  OrderedCandidates fresh = order_and_carry_over({candidate(3, 1, 30, 10)}, 4, old.candidates, old.states);
  merge_kept(old.candidates, old.states, relisted, fresh);
  std::vector<SortKey> keys;
  for (const Candidate& c : fresh.candidates) keys.push_back(sort_key(c));
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  int with_body_3 = 0;
  for (const Candidate& c : fresh.candidates) with_body_3 += c.vertex_body == 3 || c.edge_body == 3;
  EXPECT_EQ(with_body_3, 1);
  EXPECT_EQ(fresh.candidates.size(), 4u);  // (0,1), (0,2) twice, and (3,1)
  for (std::size_t k = 0; k < fresh.candidates.size(); ++k) {
    const auto o = std::find(old.keys.begin(), old.keys.end(), keys[k]);
    ASSERT_NE(o, old.keys.end());
    EXPECT_EQ(fresh.states[k].xi, old.states[static_cast<std::size_t>(o - old.keys.begin())].xi);
  }
}

}  // namespace
}  // namespace sphero
