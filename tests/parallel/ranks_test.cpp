// Byte buffers between ranks (parallel/ranks.h): every rank's bytes arrive
// whole and in rank order, whether they travel byte by byte or, past what
// one MPI count may stand for, in larger units.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "parallel/ranks.h"

namespace sphero {
namespace {

// The bytes rank `from` gives rank `to` (`to` −1: to everyone).
std::vector<char> bytes_from(int from, int to) {
  std::vector<char> bytes(static_cast<std::size_t>(3 + 5 * from + 11 * (to + 1)));
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<char>((from * 31 + to * 7 + static_cast<int>(i)) & 0x7f);
  return bytes;
}

std::vector<char> all_in_rank_order(int ranks) {
  std::vector<char> all;
  for (int r = 0; r < ranks; ++r) {
    const std::vector<char> part = bytes_from(r, -1);
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

TEST(Ranks, BuffersArriveWholeWhateverTheUnit) {
  for (const std::uint64_t limit : {std::uint64_t{1} << 30, std::uint64_t{7}, std::uint64_t{1}}) {
    SCOPED_TRACE(limit);
    Ranks ranks;
    ranks.limit_count_to(limit);
    const int me = ranks.rank(), p = ranks.size();
    std::vector<std::vector<char>> outgoing;
    for (int q = 0; q < p; ++q) outgoing.push_back(bytes_from(me, q));
    const std::vector<std::vector<char>> incoming = ranks.exchange(outgoing);
    ASSERT_EQ(incoming.size(), static_cast<std::size_t>(p));
    for (int q = 0; q < p; ++q)
      EXPECT_EQ(incoming[static_cast<std::size_t>(q)], bytes_from(q, me)) << "from rank " << q;
    EXPECT_EQ(ranks.all_gather(bytes_from(me, -1)), all_in_rank_order(p));
    EXPECT_EQ(ranks.gather(bytes_from(me, -1)), ranks.root() ? all_in_rank_order(p) : std::vector<char>{});
    // Nothing at all, from every rank.
    EXPECT_TRUE(ranks.all_gather({}).empty());
    EXPECT_EQ(ranks.exchange(std::vector<std::vector<char>>(static_cast<std::size_t>(p))),
              std::vector<std::vector<char>>(static_cast<std::size_t>(p)));
  }
}

// Point to point: rank 0 takes each other rank's bytes in the order it
// chooses (here the last rank first), whole in pieces of any size.
TEST(Ranks, RankZeroTakesEachRanksBytesInTheOrderItChooses) {
  for (const std::uint64_t limit : {std::uint64_t{1} << 30, std::uint64_t{7}, std::uint64_t{1}}) {
    SCOPED_TRACE(limit);
    Ranks ranks;
    ranks.limit_count_to(limit);
    ranks.send_to_root(bytes_from(ranks.rank(), -1));
    if (ranks.root()) {
      for (int q = ranks.size() - 1; q > 0; --q)
        EXPECT_EQ(ranks.receive_from(q), bytes_from(q, -1)) << "from rank " << q;
    }
    ranks.send_to_root({});  // nothing, too
    if (ranks.root()) {
      for (int q = 1; q < ranks.size(); ++q) EXPECT_TRUE(ranks.receive_from(q).empty());
    }
  }
}

}  // namespace
}  // namespace sphero
