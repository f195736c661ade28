// The order grains are listed in: a Hilbert curve through them, the
// measure of disorder `sphero run` warns on, and the generators that list
// their random grains along the curve.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "packing/generators.h"
#include "packing/spatial_order.h"
#include "packing/voronoi_minkowski.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

std::vector<Vec2> shuffled_grid(int side, double spacing, std::uint64_t seed) {
  std::vector<Vec2> points;
  for (int x = 0; x < side; ++x)
    for (int y = 0; y < side; ++y) points.push_back({1.5 + spacing * x, -2.0 + spacing * y});
  std::mt19937_64 random(seed);
  std::shuffle(points.begin(), points.end(), random);
  return points;
}

// On a 2^k × 2^k grid the Hilbert curve steps from each cell to an edge
// neighbour: every pair of consecutive points is one spacing apart.
TEST(SpatialOrder, AHilbertCurveThroughAGridStepsToANeighbourEveryTime) {
  for (int side : {2, 4, 16, 32}) {
    const std::vector<Vec2> points = shuffled_grid(side, 0.7, 11);
    const std::vector<std::size_t> order = hilbert_order(points);
    ASSERT_EQ(order.size(), points.size());
    std::vector<std::size_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], i) << "not a permutation";
    for (std::size_t k = 0; k + 1 < order.size(); ++k)
      EXPECT_NEAR(norm(points[order[k + 1]] - points[order[k]]), 0.7, 1e-9) << "side " << side << ", step " << k;
  }
}

TEST(SpatialOrder, TheOrderDependsOnThePointsOnlyAndKeepsCoincidentPointsInTurn) {
  const std::vector<Vec2> points = shuffled_grid(8, 1.0, 3);
  EXPECT_EQ(hilbert_order(points), hilbert_order(points));
  // Coincident points (one grid cell) keep their input order.
  const std::vector<Vec2> same = {{1, 1}, {0, 0}, {1, 1}, {1, 1}, {0, 0}};
  const std::vector<std::size_t> order = hilbert_order(same);
  std::vector<std::size_t> ones, zeros;
  for (std::size_t i : order) (same[i] == Vec2{1, 1} ? ones : zeros).push_back(i);
  EXPECT_EQ(ones, (std::vector<std::size_t>{0, 2, 3}));
  EXPECT_EQ(zeros, (std::vector<std::size_t>{1, 4}));
  EXPECT_TRUE(hilbert_order({}).empty());
  EXPECT_EQ(hilbert_order({{5, 5}}), (std::vector<std::size_t>{0}));
}

TEST(SpatialOrder, TheListingStepIsAboutOneAlongTheCurveAndLargeAtRandom) {
  const std::vector<Vec2> random = shuffled_grid(32, 2.0, 5);
  const std::vector<double> sizes(random.size(), 2.0);
  // 1024 grains at random: about √N / 2 = 16 sizes apart (a mean of
  // 0.52 box sides for two random points, a median a little less).
  EXPECT_GT(median_listing_step(random, sizes), 10.0);
  EXPECT_GT(median_listing_step(random, sizes), kDisorderedListing);
  std::vector<Vec2> listed;
  for (std::size_t i : hilbert_order(random)) listed.push_back(random[i]);
  EXPECT_DOUBLE_EQ(median_listing_step(listed, sizes), 1.0);
  // The median size is the unit, whatever a few odd ones are.
  std::vector<double> mixed = sizes;
  mixed[0] = 100.0, mixed[1] = 0.01;
  EXPECT_DOUBLE_EQ(median_listing_step(listed, mixed), 1.0);
  EXPECT_EQ(median_listing_step({{0, 0}}, {1.0}), 0.0);
}

TEST(SpatialOrder, RandomGasAndVoronoiSitesComeOutAlongTheCurve) {
  GasOptions gas;
  gas.box = {{0, 0}, {40, 40}};
  gas.shapes = {read_shape_file(SPHERO_DATA_DIR "/shapes/pebble.shape")};
  gas.count = 400;
  gas.packing_fraction = 0.2;
  gas.seed = 7;
  std::vector<Vec2> centres;
  std::vector<double> sizes;
  for (const BodySpec& b : gas_packing(gas).bodies) {
    centres.push_back(b.position);
    sizes.push_back(2.0 * mass_properties(b.shape).bounding_radius);
  }
  EXPECT_LT(median_listing_step(centres, sizes), 2.5);

  VoronoiMinkowskiOptions cells;
  cells.box = {{0, 0}, {20, 20}};
  cells.count = 400;
  cells.radius = 0.05;
  centres.clear(), sizes.clear();
  const VoronoiMinkowskiPacking random_sites = voronoi_minkowski(cells);
  for (const Grain& g : random_sites.grains) {
    const MassProperties m = mass_properties(g.shape);
    centres.push_back(m.centroid);
    sizes.push_back(2.0 * m.bounding_radius);
  }
  EXPECT_LT(median_listing_step(centres, sizes), 2.5);

  // Sites given by the user keep their order: grain k lies in site k's
  // cell, whose points are nearer site k than any other.
  std::vector<Vec2> sites;
  std::mt19937_64 random(9);
  std::uniform_real_distribution<double> along(0.5, 19.5);
  for (int k = 0; k < 50; ++k) sites.push_back({along(random), along(random)});
  cells.count = 0;
  cells.sites = sites;
  const VoronoiMinkowskiPacking given = voronoi_minkowski(cells);
  ASSERT_EQ(given.grains.size(), sites.size());
  for (std::size_t k = 0; k < sites.size(); ++k) {
    const Vec2 c = mass_properties(given.grains[k].shape).centroid;
    std::size_t nearest = 0;
    for (std::size_t j = 1; j < sites.size(); ++j)
      if (norm(sites[j] - c) < norm(sites[nearest] - c)) nearest = j;
    EXPECT_EQ(nearest, k);
  }
}

}  // namespace
}  // namespace sphero
