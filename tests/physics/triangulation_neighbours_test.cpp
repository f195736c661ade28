// Neighbours from the void-space triangulation list exactly the link cells'
// candidates: the same forces, bit for bit, on the same runs.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/triangulation_neighbours.h"
#include "physics/reproducibility.h"
#include "physics/scenes.h"
#include "triangulation/constrained_triangulation.h"
#include "triangulation/triangulation_check.h"

namespace sphero {
namespace {

using namespace test;

const TriangulationStats& stats_of(const Engine& e, TriangulationStats& out) {
  out = e.neighbour_triangulation()->stats();
  return out;
}

// Cows, hexagons and disks falling in a cell periodic in x, the skin
// adaptive and the rebuilds partial: the grains cross the periodic border,
// so the copies near it are made anew as they drift.
// Skeletons whose own segments meet other than end to end cannot be
// triangulation edges: a polyline folding back along itself, one crossing
// itself, a closed bow tie; a hairpin and a square can.
TEST(TriangulationNeighbours, SkeletonsThatMeetThemselvesAreFoundWithTheirSegments) {
  const auto pair = [](std::vector<Vec2> skeleton, bool closed) { return self_meeting_segments(skeleton, closed); };
  EXPECT_EQ(pair({{0, 0}, {1, 0}, {0.3, 0}}, false), (std::array<int, 2>{1, 2}));        // folds back
  EXPECT_EQ(pair({{0, 0}, {1, 1}, {1, 0}, {0, 1}}, false), (std::array<int, 2>{1, 3}));  // crosses
  EXPECT_EQ(pair({{0, 0}, {1, 1}, {1, 0}, {0, 1}}, true), (std::array<int, 2>{1, 3}));   // a bow tie
  EXPECT_FALSE(pair({{0, 0}, {1, 0}, {0, 0.15}}, false));                                // a hairpin
  EXPECT_FALSE(pair({{0, 0}, {1, 0}, {1, 1}, {0, 1}}, true));                            // a square
  EXPECT_FALSE(pair({{0, 0}, {1, 0}, {2, 0}}, false));  // straight on: collinear, not folding
}

TEST(TriangulationNeighbours, AFallingPeriodicMixtureRunsBitForBitAsWithLinkCells) {
  for (Integrator integrator : {Integrator::velocity_verlet, Integrator::gear}) {
    Engine cells = falling_mixture(1, integrator);
    Engine triangulation = falling_mixture(1, integrator, 16, false, NeighbourStrategy::triangulation);
    for (int chunk = 0; chunk < 4; ++chunk) {
      cells.run(2500), triangulation.run(2500);
      expect_identical(cells, triangulation);
    }
    expect_not_trivial(triangulation);
    EXPECT_EQ(cells.neighbour_stats().rebuilds, triangulation.neighbour_stats().rebuilds);
    TriangulationStats s;
    stats_of(triangulation, s);
    EXPECT_GT(s.moves, 5);
    EXPECT_GT(s.flips, 0);
    EXPECT_GT(s.builds, 1);  // the periodic copies were made anew
    EXPECT_EQ(triangulation_problem(triangulation.neighbour_triangulation()->triangulation()), "");
  }
}

// A lid driven down onto the grains, two threads: the same bits as link
// cells on one.
TEST(TriangulationNeighbours, TwoThreadsAndADrivenLidKeepTheBits) {
  Engine cells = falling_mixture(1, Integrator::velocity_verlet, 20, true);
  Engine triangulation = falling_mixture(2, Integrator::velocity_verlet, 20, true, NeighbourStrategy::triangulation);
  for (int chunk = 0; chunk < 3; ++chunk) {
    cells.run(2000), triangulation.run(2000);
    expect_identical(cells, triangulation);
  }
  expect_not_trivial(triangulation);
}

// Disks of sizes 1 to 10 thrown about in a box, falling onto its floor:
// the walk of a small disk reaches the large ones beside it (through
// R + r_max + skin).
Engine polydisperse_gas(NeighbourStrategy neighbours) {
  std::vector<BodySpec> bodies;
  bodies.push_back(wall({{0, 0}, {60, 0}, {60, 60}, {0, 60}, {0, 0}}, 0.1));
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> speed(-3.0, 3.0);
  for (int k = 0; k < 400; ++k) {
    const double radius = k % 40 == 0 ? 2.5 : 0.25;
    const Vec2 at{1.5 + 2.9 * (k % 20), 1.5 + 2.9 * (k / 20)};
    if (k % 40 == 0 && (at.x > 55.0 || at.y > 55.0)) continue;
    bodies.push_back(disk(at, radius, {speed(random), speed(random)}));
  }
  EngineSettings s;
  s.dt = 2e-4;
  s.verlet_distance = 0.05;
  s.adaptive_verlet_distance = true;
  s.neighbours = neighbours;
  return Engine(world_of(bodies, linear_law(1e4, 1.0, 5e3, 0.3), {0.0, -30.0}), s);
}

TEST(TriangulationNeighbours, PolydisperseDisksRunBitForBitAsWithLinkCells) {
  Engine cells = polydisperse_gas(NeighbourStrategy::cells),
         triangulation = polydisperse_gas(NeighbourStrategy::triangulation);
  for (int chunk = 0; chunk < 4; ++chunk) {
    cells.run(2500), triangulation.run(2500);
    expect_identical(cells, triangulation);
  }
  expect_not_trivial(triangulation);
}

// The strategy is not part of a checkpoint: a run resumed with the other
// one goes on with the same bits.
TEST(TriangulationNeighbours, ARunResumedWithTheOtherStrategyGoesOnWithTheSameBits) {
  Engine steady = falling_mixture(1, Integrator::velocity_verlet);
  steady.run(3000);
  Engine resumed{steady.snapshot()};
  resumed.set_neighbour_strategy(NeighbourStrategy::triangulation);
  steady.run(3000), resumed.run(3000);
  expect_identical(steady, resumed);
  EXPECT_NE(resumed.neighbour_triangulation(), nullptr);
}

// Two segments driven through each other: their skeletons cross, which the
// triangulation cannot hold. The run stops with a message naming a body.
TEST(TriangulationNeighbours, SkeletonsDrivenThroughEachOtherStopTheRunWithAMessage) {
  BodySpec lying = segment_body({-1.0, 0.0}, {1.0, 0.0}, 0.05);
  BodySpec falling = segment_body({0.0, 0.3}, {0.0, 2.3}, 0.05);
  falling.velocity = {0.0, -400.0};
  EngineSettings s;
  s.dt = 1e-4;
  s.verlet_distance = 0.05;
  s.allow_large_time_step = true;
  s.neighbours = NeighbourStrategy::triangulation;
  Engine e(world_of({lying, falling}, linear_law(10.0)), s);
  try {
    e.run(200);
    FAIL() << "the segments passed through each other unnoticed";
  } catch (const InstabilityError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("neighbours = triangulation"), std::string::npos) << what;
    EXPECT_NE(what.find("body"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace sphero
