// Force chains against answers computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "analysis/chains/force_chains.h"
#include "engine/stress.h"

namespace sphero::analysis {
namespace {

using sphero::Stress;

Stress uniaxial(double s, Vec2 d) { return {s * d.x * d.x, s * d.x * d.y, s * d.y * d.x, s * d.y * d.y}; }

TEST(ForceChains, ALoadedColumnInAWeakMatrixIsOneChain) {
  // A 7 × 7 lattice; the middle column (x = 3) carries a strong vertical
  // load, the rest a weak load in assorted directions.
  const int n = 7;
  std::vector<Stress> stress;
  for (int i = 0; i < n * n; ++i) {
    const int x = i % n;
    const double turn = 0.7 * i;
    stress.push_back(x == 3 ? uniaxial(10.0, {0, 1}) : uniaxial(1.0, {std::cos(turn), std::sin(turn)}));
  }
  std::vector<ParticleContact> contacts;
  for (int i = 0; i < n * n; ++i) {
    if (i % n + 1 < n) contacts.push_back({i, i + 1, {1, 0}});
    if (i + n < n * n) contacts.push_back({i, i + n, {0, 1}});
  }
  const ChainStatistics chains = find_force_chains(stress, contacts);
  ASSERT_EQ(chains.chains.size(), 1u);
  const ForceChain& chain = chains.chains[0];
  ASSERT_EQ(chain.particles.size(), 7u);
  for (std::size_t k = 0; k < 7; ++k) EXPECT_EQ(chain.particles[k] % n, 3);
  EXPECT_NEAR(chain.length, 6.0, 1e-12);
  EXPECT_NEAR(chain.mean_stress, 10.0, 1e-12);
  EXPECT_NEAR(std::abs(chain.orientation.y), 1.0, 1e-12);
  EXPECT_NEAR(chains.mean_orientation_degrees, 90.0, 1e-9);
  EXPECT_NEAR(chains.fraction_in_chains, 7.0 / 49.0, 1e-12);
  EXPECT_EQ(chains.chain_of[3], 0);
  EXPECT_EQ(chains.chain_of[0], -1);
}

TEST(ForceChains, UniformForcesMakeNoChains) {
  const int n = 5;
  std::vector<Stress> stress(n * n, uniaxial(2.0, {1, 0}));
  std::vector<ParticleContact> contacts;
  for (int i = 0; i + 1 < n * n; ++i) contacts.push_back({i, i + 1, {1, 0}});
  EXPECT_TRUE(find_force_chains(stress, contacts).chains.empty());  // nobody exceeds the mean
}

TEST(ForceChains, AContactTooFarFromTheMajorDirectionBreaksTheChain) {
  // Three strong particles in a row along x, but loaded along y: the contact
  // direction is 90° from the major direction: no links.
  std::vector<Stress> stress{
      uniaxial(9, {0, 1}), uniaxial(9, {0, 1}), uniaxial(9, {0, 1}), uniaxial(1, {1, 0}), uniaxial(1, {1, 0})};
  std::vector<ParticleContact> contacts{{0, 1, {1, 0}}, {1, 2, {1, 0}}};
  EXPECT_TRUE(find_force_chains(stress, contacts).chains.empty());
  // Within tolerance (40° off): linked.
  const Vec2 tilted{std::cos(40.0 * std::numbers::pi / 180), std::sin(40.0 * std::numbers::pi / 180)};
  for (int k = 0; k < 3; ++k) stress[static_cast<std::size_t>(k)] = uniaxial(9, tilted);
  EXPECT_EQ(find_force_chains(stress, contacts).chains.size(), 1u);
  EXPECT_TRUE(find_force_chains(stress, contacts, 30.0).chains.empty());
}

// A strong particle P loaded vertically with two strong neighbours above it,
// one straight above and one 29° off, and none below; six weak particles set
// the mean. As published (Peters et al.) P keeps one link ahead and one
// behind: only the straight one, and two particles make no chain. Keeping
// the two best-aligned links instead folds a chain back over P's upper side.
TEST(ForceChains, AsPublishedAChainDoesNotFoldBackOnOneSideOfAParticle) {
  std::vector<Stress> stress(9, uniaxial(1, {1, 0}));
  for (int k = 0; k < 3; ++k) stress[static_cast<std::size_t>(k)] = uniaxial(10, {0, 1});
  const std::vector<ParticleContact> contacts{{0, 1, {0.0, 1.0}}, {0, 2, {0.5, 0.9}}, {1, 2, {0.5, -0.1}}};
  EXPECT_TRUE(find_force_chains(stress, contacts).chains.empty());
  EXPECT_TRUE(find_force_chains(stress, contacts, 45.0, ChainLinks::ahead_and_behind).chains.empty());
  const ChainStatistics folded = find_force_chains(stress, contacts, 45.0, ChainLinks::two_best_aligned);
  ASSERT_EQ(folded.chains.size(), 1u);
  EXPECT_EQ(folded.chains[0].particles.size(), 3u);
  EXPECT_EQ(folded.chains[0].particles[1], 0);  // P in the middle, both neighbours above it
}

// With a third strong neighbour below P, the published rule runs the chain
// on through P: below, P, straight above — the tilted one left out.
TEST(ForceChains, AsPublishedAChainRunsOnThroughAParticle) {
  std::vector<Stress> stress(10, uniaxial(1, {1, 0}));
  for (int k = 0; k < 4; ++k) stress[static_cast<std::size_t>(k)] = uniaxial(10, {0, 1});
  const std::vector<ParticleContact> contacts{{0, 1, {0.0, 1.0}}, {0, 2, {0.5, 0.9}}, {3, 0, {0.1, 1.0}}};
  const ChainStatistics chains = find_force_chains(stress, contacts);
  ASSERT_EQ(chains.chains.size(), 1u);
  std::vector<int> members = chains.chains[0].particles;
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members, (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(chains.chain_of[2], -1);
}

TEST(ForceChains, TheLinkRulesAreNamedAsOnTheCommandLine) {
  EXPECT_EQ(chain_links_from_string("ahead-and-behind"), ChainLinks::ahead_and_behind);
  EXPECT_EQ(chain_links_from_string("two-best-aligned"), ChainLinks::two_best_aligned);
  EXPECT_EQ(to_string(ChainLinks::two_best_aligned), "two-best-aligned");
  EXPECT_THROW(chain_links_from_string("best"), std::invalid_argument);
}

}  // namespace
}  // namespace sphero::analysis
