// The link-cell grid: every pair of bodies whose bounding circles come
// within the skin lies in the same or neighbouring cells, whatever the
// periodic cell and however far a grain has escaped.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <set>
#include <utility>

#include "engine/link_cells.h"
#include "geometry/uniform.h"
#include "physics/scenes.h"

namespace sphero {
namespace {

using namespace sphero::test;

// Every pair within reach (centres closer than R_i + R_j + skin, through
// the minimum image) must be visited from either body.
void expect_every_close_pair_is_near(const World& w, double skin) {
  std::vector<int> all;
  for (std::size_t i = 0; i < w.size(); ++i) all.push_back(static_cast<int>(i));
  const LinkCells cells(w, all, skin);
  std::set<std::pair<int, int>> near;
  for (int i : all) cells.for_each_body_near(i, [&](int j) { near.insert({i, j}); });
  int close = 0;
  for (int i : all)
    for (int j : all) {
      if (j <= i) continue;
      Vec2 gap = w.position[static_cast<std::size_t>(j)] - w.position[static_cast<std::size_t>(i)];
      if (w.cell.periodic[0]) gap.x -= w.cell.size.x * std::round(gap.x / w.cell.size.x);
      if (w.cell.periodic[1]) gap.y -= w.cell.size.y * std::round(gap.y / w.cell.size.y);
      if (norm(gap) >=
          w.bounding_radius[static_cast<std::size_t>(i)] + w.bounding_radius[static_cast<std::size_t>(j)] + skin)
        continue;
      ++close;
      EXPECT_TRUE(near.count({i, j}) && near.count({j, i})) << "bodies " << i << " and " << j;
    }
  EXPECT_GT(close, 0);
}

std::vector<BodySpec> random_disks(int count, double box, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<BodySpec> bodies;
  for (int k = 0; k < count; ++k) {
    const double r = 0.2 + 0.3 * unit_uniform(g);
    bodies.push_back(disk({r + (box - 2 * r) * unit_uniform(g), r + (box - 2 * r) * unit_uniform(g)}, r));
  }
  return bodies;
}

TEST(LinkCells, EveryPairWithinReachIsInNeighbouringCells) {
  const World w = world_of(random_disks(400, 20.0, 3), linear_law(1e3));
  expect_every_close_pair_is_near(w, 0.1);
}

TEST(LinkCells, PeriodicCellsWrapTheNeighbourhoodAcrossTheSeam) {
  PeriodicCell cell;
  cell.periodic = {true, true};
  cell.low = {0, 0};
  cell.size = {20, 20};
  const World w = world_of(random_disks(400, 20.0, 5), linear_law(1e3), {}, cell);
  expect_every_close_pair_is_near(w, 0.1);
}

TEST(LinkCells, AGrainFarAwayKeepsTheGridSmallAndThePairsExact) {
  std::vector<BodySpec> bodies = random_disks(300, 15.0, 7);
  bodies.push_back(disk({1.0e6, -3.0e5}, 0.3));
  bodies.push_back(disk({1.0e6 + 0.5, -3.0e5}, 0.3));  // its neighbour out there
  const World w = world_of(bodies, linear_law(1e3));
  std::vector<int> all;
  for (std::size_t i = 0; i < w.size(); ++i) all.push_back(static_cast<int>(i));
  EXPECT_LE(LinkCells(w, all, 0.1).cell_count(), 4u * all.size() + 64u);
  expect_every_close_pair_is_near(w, 0.1);
}

// Grains a failing step threw beyond what an int counts in cells (the
// stability check stops the run only after the step), or left at NaN: the
// grid is still built, small, and the other pairs exact.
TEST(LinkCells, GrainsBeyondAnyCountOrAtNaNStillMakeASmallGrid) {
  std::vector<BodySpec> bodies = random_disks(300, 15.0, 9);
  bodies.push_back(disk({1.0e95, -3.0e5}, 0.3));
  bodies.push_back(disk({-1.0e300, 2.0e300}, 0.3));
  World w = world_of(bodies, linear_law(1e3));
  std::vector<int> all;
  for (std::size_t i = 0; i < w.size(); ++i) all.push_back(static_cast<int>(i));
  EXPECT_LE(LinkCells(w, all, 0.1).cell_count(), 4u * all.size() + 64u);
  expect_every_close_pair_is_near(w, 0.1);
  w.position.back() = {NAN, NAN};
  EXPECT_LE(LinkCells(w, all, 0.1).cell_count(), 4u * all.size() + 64u);
}

TEST(LinkCells, AGrainFarBeyondAPeriodicCellCountsABoundedNumberOfPeriods) {
  PeriodicCell cell;
  cell.periodic = {true, true};
  cell.size = {20, 20};
  World w = world_of(random_disks(10, 20.0, 11), linear_law(1e3), {}, cell);
  w.position[0] = {1.0e95, -1.0e95};
  EXPECT_EQ(periods_into_cell(w, 0), (std::array<int, 2>{-(1 << 22), 1 << 22}));  // kMostPeriods
  w.position[0] = {NAN, 25.0};
  EXPECT_EQ(periods_into_cell(w, 0), (std::array<int, 2>{0, -1}));
}

}  // namespace
}  // namespace sphero
