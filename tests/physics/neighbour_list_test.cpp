// The O(N) neighbour search against the all-pairs reference, its cost per
// vertex count, and periodic boundaries.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "geometry/uniform.h"
#include "physics/scenes.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

using test::linear_law;
using test::world_of;

constexpr double kPi = std::numbers::pi;

// A dense random mix of disks, rice, peanuts, pebbles and L-shapes on a
// jittered lattice, overlapping a little, with random velocities and spins.
std::vector<BodySpec> dense_mix(int nx, int ny, double spacing, std::uint64_t seed) {
  const std::vector<Shape> shapes{
      make_shape("disk", SkeletonKind::point, {{0, 0}}, 0.45),
      make_shape("rice", SkeletonKind::segment, {{-0.3, 0}, {0.3, 0}}, 0.2),
      read_shape_file(SPHERO_DATA_DIR "/shapes/peanut.shape"),
      make_shape("pebble", SkeletonKind::polygon, {{-0.3, -0.2}, {0.35, -0.2}, {0.0, 0.3}}, 0.12),
      make_shape("ell", SkeletonKind::polygon,
                 {{-0.4, -0.4}, {0.4, -0.4}, {0.4, -0.1}, {-0.1, -0.1}, {-0.1, 0.4}, {-0.4, 0.4}}, 0.08),
  };
  std::mt19937_64 g(seed);
  std::vector<BodySpec> bodies;
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      BodySpec b;
      b.shape = shapes[g() % shapes.size()];
      b.position = {
          spacing * (i + 0.5) + 0.05 * (unit_uniform(g) - 0.5), spacing * (j + 0.5) + 0.05 * (unit_uniform(g) - 0.5)};
      b.angle = 2 * kPi * unit_uniform(g);
      b.velocity = {unit_uniform(g) - 0.5, unit_uniform(g) - 0.5};
      b.angular_velocity = unit_uniform(g) - 0.5;
      bodies.push_back(b);
    }
  return bodies;
}

Engine make_engine(const std::vector<BodySpec>& bodies, const PeriodicCell& cell, double verlet, bool brute) {
  EngineSettings s;
  s.dt = 2e-4;
  s.verlet_distance = verlet;
  s.brute_force_neighbours = brute;
  return Engine(world_of(bodies, linear_law(1e4, 5.0, 5e3, 0.4, 1.0), {0, -1}, cell), s);
}

void expect_same_trajectory(Engine& cells, Engine& brute, long steps) {
  for (long k = 0; k < steps; ++k) {
    cells.step();
    brute.step();
  }
  const World& a = cells.world();
  const World& b = brute.world();
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a.position[i].x, b.position[i].x) << "body " << i;
    ASSERT_EQ(a.position[i].y, b.position[i].y) << "body " << i;
    ASSERT_EQ(a.angular_velocity[i], b.angular_velocity[i]) << "body " << i;
  }
  EXPECT_GT(cells.neighbour_stats().rebuilds, 3);
  EXPECT_EQ(cells.neighbour_stats().feature_pairs_evaluated, brute.neighbour_stats().feature_pairs_evaluated);
}

TEST(NeighbourSearch, WithoutContactListsEveryVertexPairIsEvaluatedAndTheTrajectoryIsTheSame) {
  // Contact lists only decide which vertex pairs are looked at: listing all
  // M² of each neighbouring body pair (the cost the benchmark compares)
  // must give the same motion, at many times the pairs per step.
  const std::vector<BodySpec> bodies = dense_mix(7, 7, 0.95, 11);
  PeriodicCell cell;
  cell.periodic = {true, false};
  cell.low = {0, -1};
  cell.size = {7 * 0.95, 12};
  Engine lists = make_engine(bodies, cell, 0.05, false);
  EngineSettings s = lists.settings();
  s.contact_lists = false;
  Engine all(world_of(bodies, linear_law(1e4, 5.0, 5e3, 0.4, 1.0), {0, -1}, cell), s);
  for (int k = 0; k < 3000; ++k) lists.step(), all.step();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    EXPECT_NEAR(lists.world().position[i].x, all.world().position[i].x, 1e-12) << "body " << i;
    EXPECT_NEAR(lists.world().position[i].y, all.world().position[i].y, 1e-12) << "body " << i;
    EXPECT_NEAR(lists.world().angle[i], all.world().angle[i], 1e-12) << "body " << i;
  }
  EXPECT_GT(all.neighbour_stats().feature_pairs_evaluated, 3 * lists.neighbour_stats().feature_pairs_evaluated);
}

// Skeletons of 24 vertices or more are preselected chunk by chunk at each
// rebuild (only the chunks whose circles come within reach are scanned):
// cows and 40-gons colliding at random give the all-pairs motion.
TEST(NeighbourSearch, ChunkedSkeletonsMissNoContactOfTheAllPairsSearch) {
  const Shape cow = read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape");
  std::mt19937_64 g(17);
  std::vector<BodySpec> bodies;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      BodySpec b = (i + j) % 2 == 0 ? test::regular_polygon_body(40, 1.4, 0.08, {}) : BodySpec{};
      if ((i + j) % 2 == 1) b.shape = cow;
      b.position = {3.2 * (i + 0.5), 3.2 * (j + 0.5)};
      b.angle = 2 * kPi * unit_uniform(g);
      b.velocity = {6.0 * (unit_uniform(g) - 0.5), 6.0 * (unit_uniform(g) - 0.5)};
      b.angular_velocity = 4.0 * (unit_uniform(g) - 0.5);
      bodies.push_back(b);
    }
  PeriodicCell cell;
  cell.periodic = {true, false};
  cell.low = {0, -1};
  cell.size = {4 * 3.2, 40};
  bodies.push_back(test::wall({{-1, 0}, {14, 0}}, 0.1));
  Engine lists = make_engine(bodies, cell, 0.1, false);
  EngineSettings s = lists.settings();
  s.contact_lists = false;
  Engine all(world_of(bodies, linear_law(1e4, 5.0, 5e3, 0.4, 1.0), {0, -1}, cell), s);
  int touching = 0;
  for (int k = 0; k < 2000; ++k) {
    lists.step(), all.step();
    if (k % 100 == 0)
      for (const Contact& c : lists.contacts()) touching += c.active;
  }
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    ASSERT_NEAR(lists.world().position[i].x, all.world().position[i].x, 1e-12) << "body " << i;
    ASSERT_NEAR(lists.world().position[i].y, all.world().position[i].y, 1e-12) << "body " << i;
    ASSERT_NEAR(lists.world().angle[i], all.world().angle[i], 1e-12) << "body " << i;
  }
  std::printf(
      "chunked skeletons: %d touching contacts seen, %ld rebuilds\n", touching, lists.neighbour_stats().rebuilds);
  EXPECT_GT(touching, 50);
  EXPECT_GT(lists.neighbour_stats().rebuilds, 10);
}

// The list rebuild reads a closed skeleton's bends (which corners have an
// inner side) from its shape, not from the body as it lies: rotation does
// not change them, and a nearly straight corner is left to the full test.
TEST(NeighbourSearch, AClosedSkeletonsBendsAreKnownFromItsShapeAtAnyAngle) {
  const std::vector<Vec2> ell{{-0.4, -0.4}, {0.4, -0.4}, {0.4, -0.1}, {-0.1, -0.1}, {-0.1, 0.4}, {-0.4, 0.4}};
  const std::vector<Vec2> square_with_midpoint{{-0.5, -0.5}, {0.0, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}};
  std::vector<BodySpec> bodies;
  for (int k = 0; k < 12; ++k) {
    const double angle = 0.7 * k - 3.0;
    bodies.push_back(test::polygon_body(k % 2 ? ell : square_with_midpoint, 0.05, {2.0 * k, 0.0}, angle));
  }
  bodies.push_back(test::segment_body({30, 0}, {31, 0}, 0.1));
  const World w = world_of(bodies, linear_law(1e4, 0.0, 0.0, 0.0, 0.0), {0, 0});
  const std::vector<int> ell_bends{-1, -1, -1, 1, -1, -1}, square_bends{-1, 0, -1, -1, -1};
  for (std::size_t i = 0; i < w.size(); ++i) {
    const int begin = w.vertex_begin[i], count = w.vertex_count[i];
    for (int k = 0; k < count; ++k) {
      const int bend = w.local_bend[static_cast<std::size_t>(begin + k + w.local_shift[i])];
      if (count == 2) {
        EXPECT_EQ(bend, 0) << "a segment has no bends";
        continue;
      }
      EXPECT_EQ(bend, (i % 2 ? ell_bends : square_bends)[static_cast<std::size_t>(k)])
          << "body " << i << " vertex " << k;
      // The sign the body's world coordinates give, at its angle.
      const Vec2 before = w.world_vertex[static_cast<std::size_t>(begin + (k + count - 1) % count)];
      const Vec2 at = w.world_vertex[static_cast<std::size_t>(begin + k)];
      const Vec2 after = w.world_vertex[static_cast<std::size_t>(begin + (k + 1) % count)];
      const double turn = cross(at - before, after - at);
      if (bend != 0) {
        EXPECT_EQ(bend > 0, turn < 0.0) << "body " << i << " vertex " << k;
      }
    }
  }
}

TEST(NeighbourSearch, AGrainFarAwayNeitherBreaksNorBloatsTheLinkCells) {
  // One grain escaped a kilometre away (as through a wall in a run with too
  // soft contacts): the grid must stay a few cells per grain, and the
  // search exact (the same motion as all pairs).
  std::vector<BodySpec> bodies = dense_mix(8, 8, 0.95, 5);
  bodies[7].position = {1500.0, -800.0};
  bodies[7].velocity = {3.0, 1.0};
  Engine cells = make_engine(bodies, PeriodicCell{}, 0.05, false);
  Engine brute = make_engine(bodies, PeriodicCell{}, 0.05, true);
  expect_same_trajectory(cells, brute, 2000);
  EXPECT_LE(cells.neighbour_stats().link_cells, 4u * bodies.size() + 64u);
  EXPECT_GT(cells.neighbour_stats().link_cells, 8u);
}

TEST(NeighbourSearch, LinkCellsGiveTheBruteForceTrajectoryBitForBitWhenPeriodic) {
  const int n = 12;
  const double spacing = 1.0;
  PeriodicCell cell;
  cell.periodic = {true, true};
  cell.low = {0, 0};
  cell.size = {n * spacing, n * spacing};
  for (double verlet : {0.01, 0.05, 0.2}) {
    SCOPED_TRACE(verlet);
    const auto bodies = dense_mix(n, n, spacing, 17);
    Engine cells = make_engine(bodies, cell, verlet, false);
    Engine brute = make_engine(bodies, cell, verlet, true);
    expect_same_trajectory(cells, brute, 1500);
  }
}

TEST(NeighbourSearch, LinkCellsGiveTheBruteForceTrajectoryInABoxWithWalls) {
  auto bodies = dense_mix(10, 8, 1.0, 23);
  bodies.push_back(test::wall({{-0.1, 12}, {-0.1, -0.1}, {10.1, -0.1}, {10.1, 12}}, 0.1));
  Engine cells = make_engine(bodies, {}, 0.05, false);
  Engine brute = make_engine(bodies, {}, 0.05, true);
  expect_same_trajectory(cells, brute, 1500);
}

TEST(NeighbourSearch, TangentialHistorySurvivesListRebuilds) {
  // A frictional pile run with a tiny Verlet distance (a rebuild every few
  // steps) and with a large one (few rebuilds): the active contacts and
  // their summation order are the same, so the trajectories agree bit for
  // bit only if every rebuild hands the tangential springs over.
  auto bodies = dense_mix(8, 8, 1.0, 31);
  bodies.push_back(test::wall({{-0.1, 12}, {-0.1, -0.1}, {8.1, -0.1}, {8.1, 12}}, 0.1));
  Engine often = make_engine(bodies, {}, 0.002, false);
  Engine rarely = make_engine(bodies, {}, 0.2, false);
  often.run(3000);
  rarely.run(3000);
  EXPECT_GT(often.neighbour_stats().rebuilds, 10 * rarely.neighbour_stats().rebuilds);
  double stored = 0.0;
  for (const Contact& c : often.contacts()) stored += norm(c.xi);
  EXPECT_GT(stored, 0.0);
  for (std::size_t i = 0; i < often.world().size(); ++i) {
    ASSERT_EQ(often.world().position[i].x, rarely.world().position[i].x) << "body " << i;
    ASSERT_EQ(often.world().position[i].y, rarely.world().position[i].y) << "body " << i;
  }
}

TEST(NeighbourSearch, PartialRebuildsAroundAFewMovingGrainsMissNoContact) {
  // Dense packings of moving grains, a few of them fast: the fastest end
  // the lists, and only their pairs (and those of the grains past half the
  // skin) are listed anew (a partial rebuild) while the others move on.
  // Small spinning triangles among grains four times their size turn
  // farthest for their size, the case a partial rebuild's skin must cover.
  const Shape small = make_shape("chip", SkeletonKind::polygon, {{-0.08, -0.06}, {0.1, -0.06}, {0.0, 0.09}}, 0.04);
  const auto scene = [&](std::uint64_t seed) {
    std::vector<BodySpec> bodies = dense_mix(12, 10, 1.05, seed);
    std::mt19937_64 g(seed);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      // Speeds up to 1, one grain in ten up to 2: at each trigger a few
      // grains are past half the skin, and many others on their way.
      BodySpec& b = bodies[i];
      const double speed = unit_uniform(g) < 0.1 ? 1.0 + unit_uniform(g) : unit_uniform(g),
                   heading = 2 * kPi * unit_uniform(g);
      b.velocity = {speed * std::cos(heading), speed * std::sin(heading)};
      b.angular_velocity = 2.0 * (unit_uniform(g) - 0.5);
      if (i % 7 == 3) {
        b.shape = small;
        b.angular_velocity = 20.0 * (unit_uniform(g) - 0.5);
      }
    }
    return bodies;
  };
  EngineSettings partial;
  partial.dt = 2e-4;
  partial.verlet_distance = 0.05;
  partial.adaptive_verlet_distance = true;
  EngineSettings whole = partial;
  whole.adaptive_verlet_distance = false;
  whole.partial_rebuilds = false;
  whole.brute_force_neighbours = true;
  const ContactLaw law = linear_law(1e4, 5.0, 5e3, 0.4, 1.0);
  const auto report = [](const Engine& e) {
    std::printf("%ld rebuilds, %ld of them partial; skin %g\n", e.neighbour_stats().rebuilds,
                e.neighbour_partial_rebuilds(), e.neighbour_verlet_distance());
    EXPECT_GT(e.neighbour_partial_rebuilds(), 20);
  };
  for (Integrator integrator : {Integrator::velocity_verlet, Integrator::gear}) {
    // In a box: the trajectory of whole rebuilds of the all-pairs search,
    // bit for bit (a missed contact changes the bits), with either
    // integrator (Gear's corrector re-evaluates the forces).
    SCOPED_TRACE(to_string(integrator));
    std::vector<BodySpec> bodies = scene(43);
    bodies.push_back(test::wall({{-0.1, 14}, {-0.1, -0.1}, {12.7, -0.1}, {12.7, 14}}, 0.1));
    EngineSettings fast_settings = partial, reference_settings = whole;
    fast_settings.integrator = reference_settings.integrator = integrator;
    Engine fast(world_of(bodies, law, {0, -1}), fast_settings);
    fast_settings.threads = 2;  // the partial rebuild's search shared out too
    Engine two_threads(world_of(bodies, law, {0, -1}), fast_settings);
    Engine reference(world_of(bodies, law, {0, -1}), reference_settings);
    for (int block = 0; block < 6; ++block) {
      fast.run(500);
      two_threads.run(500);
      reference.run(500);
      for (std::size_t i = 0; i < bodies.size(); ++i)
        for (const Engine* e : {&fast, &two_threads}) {
          ASSERT_EQ(e->world().position[i].x, reference.world().position[i].x) << "body " << i << ", block " << block;
          ASSERT_EQ(e->world().position[i].y, reference.world().position[i].y) << "body " << i << ", block " << block;
          ASSERT_EQ(e->world().angle[i], reference.world().angle[i]) << "body " << i << ", block " << block;
        }
    }
    report(fast);
    EXPECT_EQ(reference.neighbour_partial_rebuilds(), 0);
  }
  {
    // Periodic both ways, grains crossing the seams: a partial rebuild
    // wraps only the bodies it relists, so the rounding of positions (and
    // the bits) follow when each body was wrapped. Every 50 steps, the
    // touching contacts must be those a whole all-pairs search finds in
    // the same configuration.
    PeriodicCell cell;
    cell.periodic = {true, true};
    cell.low = {0, 0};
    cell.size = {12.6, 10.5};
    Engine fast(world_of(scene(41), law, {}, cell), partial);
    const auto touching = [](const Engine& e) {
      std::vector<std::array<int, 5>> keys;
      for (const Contact& c : e.contacts())
        if (c.active) keys.push_back({c.vertex_body, c.edge_body, c.vertex, c.feature, static_cast<int>(c.kind)});
      std::sort(keys.begin(), keys.end());
      return keys;
    };
    std::size_t checked = 0;
    for (int block = 0; block < 60; ++block) {
      fast.run(50);
      Engine reference(fast.world(), whole);
      const auto listed = touching(fast), all = touching(reference);
      ASSERT_EQ(listed, all) << "after " << 50 * (block + 1) << " steps";
      checked += all.size();
    }
    EXPECT_GT(checked, 1000u);
    report(fast);
  }
}

// An 8 × 8 square lattice of grains of diameter 1 (64-gons of sphero-radius
// 0.1, or disks), just touching without overlap: without gravity or
// velocities nothing moves, so no list expires and, below 1/64 of the
// ceiling, only the count of what half the skin would list decides.
std::vector<BodySpec> resting_lattice(bool polygons) {
  std::vector<BodySpec> bodies;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      bodies.push_back(polygons ? test::regular_polygon_body(64, 0.4, 0.1, {1.0 * i, 1.0 * j}, 0.1 * (i + 8 * j))
                                : test::disk({1.0 * i, 1.0 * j}, 0.5));
  return bodies;
}

Engine adaptive_engine(const std::vector<BodySpec>& bodies, Vec2 gravity, double verlet) {
  EngineSettings s;
  s.dt = 2e-4;
  s.verlet_distance = verlet;
  s.adaptive_verlet_distance = true;
  return Engine(world_of(bodies, linear_law(1e4, 50.0, 5e3, 0.4, 1.0), gravity), s);
}

TEST(AdaptiveSkin, ThinsBelowASixtyFourthOnlyWhereThatSavesCandidatesAndWidensWhenGrainsMove) {
  // At rest, lists never expire and the skin halves every 200 steps down
  // to 1/64 of its ceiling. Below, only where half the skin lists at most
  // 80% of the candidates: 64-gons, whose rim vertices drop out of the
  // list halving after halving; not disks, whose skin lists each touching
  // pair once, and no others.
  Engine polygons = adaptive_engine(resting_lattice(true), {}, 0.05);
  Engine disks = adaptive_engine(resting_lattice(false), {}, 0.05);
  const std::size_t listed = polygons.contacts().size();
  polygons.run(3000);
  disks.run(3000);
  EXPECT_LE(polygons.neighbour_verlet_distance(), 0.05 / 256);
  EXPECT_LT(polygons.contacts().size(), listed / 2);
  EXPECT_GT(polygons.contacts().size(), 0u);  // those whose rims meet
  EXPECT_EQ(disks.neighbour_verlet_distance(), 0.05 / 64);
  EXPECT_EQ(disks.neighbour_stats().rebuilds, 7);  // the first list and six halvings
  // All moving at 1 (2·10⁻⁴ a step): the thin lists expire within a few
  // steps, and the skin widens again until a list lasts.
  // (A run restarted from the thinned lattice, with the kinetic energy
  // given booked as the energy it started with.)
  const double thin = polygons.neighbour_verlet_distance();
  EngineSnapshot moving = polygons.snapshot();
  for (std::size_t i = 0; i < moving.world.size(); ++i) {
    moving.world.velocity[i] = {1.0, 0.0};
    moving.ledger.initial_mechanical += 0.5 * moving.world.mass[i];
  }
  Engine restarted(std::move(moving));
  restarted.run(500);
  EXPECT_GE(restarted.neighbour_verlet_distance(), 8 * thin);
  EXPECT_GE(restarted.neighbour_verlet_distance(), 10 * 2e-4);
}

TEST(AdaptiveSkin, ThinsWhereListsEndByMotionIfHalfTheSkinListsFarFewer) {
  // The lattices above, all moving together at 1 (2·10⁻⁴ a step): each
  // list ends by motion after 250 steps at the ceiling 0.05, too fast for
  // the rate rule, which wants 200 steps of motion under δ/4. The 64-gons'
  // rims list far fewer candidates at half the skin, which pays for the
  // rebuilds twice as often: the skin thins, but not to where a list lasts
  // under ten steps. The disks' touching pairs are listed at any skin.
  const auto moving = [](bool polygons) {
    std::vector<BodySpec> bodies = resting_lattice(polygons);
    for (BodySpec& b : bodies) b.velocity = {1.0, 0.0};
    return adaptive_engine(bodies, {}, 0.05);
  };
  Engine polygons = moving(true);
  Engine disks = moving(false);
  const std::size_t listed = polygons.contacts().size();
  polygons.run(3000);
  disks.run(3000);
  std::printf("moving 64-gons: skin %g, %zu candidates (%zu at the ceiling), %ld rebuilds\n",
              polygons.neighbour_verlet_distance(), polygons.contacts().size(), listed,
              polygons.neighbour_stats().rebuilds);
  EXPECT_LE(polygons.neighbour_verlet_distance(), 0.05 / 4);
  EXPECT_GE(polygons.neighbour_verlet_distance(), 10 * 2e-4);
  EXPECT_LT(polygons.contacts().size(), listed / 2);
  EXPECT_EQ(disks.neighbour_verlet_distance(), 0.05);
}

TEST(AdaptiveSkin, WidensWhenMendingListsForAFewGrainsCostsMoreThanTheContacts) {
  // 576 disks at rest thin their skin to 1/64 of the ceiling; then one in
  // 32 moves at 1. Each list ends within a few steps and is mended for the
  // few movers, but each mending walks all 576 grains: more work per step
  // than the touching pairs. The skin widens until lists last.
  std::vector<BodySpec> bodies;
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 24; ++j) bodies.push_back(test::disk({1.0 * i, 1.0 * j}, 0.5));
  Engine resting = adaptive_engine(bodies, {}, 0.05);
  resting.run(3000);
  const double thin = resting.neighbour_verlet_distance();
  ASSERT_EQ(thin, 0.05 / 64);
  EngineSnapshot moving = resting.snapshot();
  for (std::size_t i = 5; i < moving.world.size(); i += 32) {
    moving.world.velocity[i] = {std::cos(0.7 * static_cast<double>(i)), std::sin(0.7 * static_cast<double>(i))};
    moving.ledger.initial_mechanical += 0.5 * moving.world.mass[i];
  }
  Engine restarted(std::move(moving));
  const long rebuilds = restarted.neighbour_stats().rebuilds;
  restarted.run(400);
  std::printf("skin %g → %g; %ld rebuilds, %ld partial\n", thin, restarted.neighbour_verlet_distance(),
              restarted.neighbour_stats().rebuilds - rebuilds, restarted.neighbour_partial_rebuilds());
  EXPECT_GT(restarted.neighbour_partial_rebuilds(), 0);
  EXPECT_GE(restarted.neighbour_verlet_distance(), 4 * thin);
}

TEST(AdaptiveSkin, AThinningSkinGivesTheTrajectoryOfAFixedOne) {
  // 32-gons settling in a box: the adaptive skin thins as they come to
  // rest, and lists far fewer candidates, and the last few moving grains
  // are relisted alone (partial rebuilds); which contacts touch, and the
  // order their forces are added in, stay those of the widest fixed skin
  // rebuilt whole.
  std::mt19937_64 g(7);
  std::vector<BodySpec> bodies;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      bodies.push_back(
          test::regular_polygon_body(32, 0.4, 0.1, {1.0 * i + 0.6, 0.98 * j + 0.55}, 2 * kPi * unit_uniform(g)));
  bodies.push_back(test::wall({{0, 12}, {0, 0}, {8.2, 0}, {8.2, 12}}, 0.05));
  Engine adaptive = adaptive_engine(bodies, {0, -10}, 0.05);
  EngineSettings fixed_settings = adaptive.settings();
  fixed_settings.adaptive_verlet_distance = false;
  fixed_settings.partial_rebuilds = false;
  Engine fixed(world_of(bodies, linear_law(1e4, 50.0, 5e3, 0.4, 1.0), {0, -10}), fixed_settings);
  for (int k = 0; k < 12; ++k) {
    adaptive.run(1000);
    fixed.run(1000);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      ASSERT_EQ(adaptive.world().position[i].x, fixed.world().position[i].x)
          << "body " << i << " after " << 1000 * (k + 1);
      ASSERT_EQ(adaptive.world().position[i].y, fixed.world().position[i].y)
          << "body " << i << " after " << 1000 * (k + 1);
      ASSERT_EQ(adaptive.world().angle[i], fixed.world().angle[i]) << "body " << i << " after " << 1000 * (k + 1);
    }
  }
  std::printf("adaptive skin %g after %ld rebuilds (%ld partial): %zu candidates against %zu\n",
              adaptive.neighbour_verlet_distance(), adaptive.neighbour_stats().rebuilds,
              adaptive.neighbour_partial_rebuilds(), adaptive.contacts().size(), fixed.contacts().size());
  EXPECT_LE(adaptive.neighbour_verlet_distance(), 0.05 / 8);
  EXPECT_LT(adaptive.contacts().size(), fixed.contacts().size() / 2);
}

// Grains of 400 vertices (edges about 6 mm, where the ceiling is 50 mm):
// the adaptive skin starts at four mean edge lengths, listing a fraction
// of the pairs the ceiling would, and the grains settle as with the fixed
// ceiling, bit for bit. Hexagons start at the ceiling.
TEST(AdaptiveSkin, StartsAtTheEdgesOfManyVertexGrainsWithTheFixedSkinsTrajectory) {
  std::mt19937_64 g(3);
  std::vector<BodySpec> bodies;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      std::vector<Vec2> wiggly;
      for (int k = 0; k < 400; ++k) {
        const double a = 2 * kPi * k / 400, radius = 0.4 + 0.03 * std::sin(20 * a);
        wiggly.push_back({radius * std::cos(a), radius * std::sin(a)});
      }
      bodies.push_back(test::polygon_body(wiggly, 0.02, {1.0 * i + 0.6, 0.95 * j + 0.55}, 2 * kPi * unit_uniform(g)));
    }
  bodies.push_back(test::wall({{0, 8}, {0, 0}, {4.2, 0}, {4.2, 8}}, 0.05));
  double perimeter = 0.0;
  const std::vector<Vec2>& v = bodies[0].shape.vertices;
  for (std::size_t k = 0; k < v.size(); ++k) perimeter += norm(v[(k + 1) % v.size()] - v[k]);
  Engine adaptive = adaptive_engine(bodies, {0, -10}, 0.05);
  const double edges = 4.0 * perimeter / 400.0;
  EXPECT_NEAR(adaptive.neighbour_verlet_distance(), edges, 1e-12 * edges);
  EngineSettings fixed_settings = adaptive.settings();
  fixed_settings.adaptive_verlet_distance = false;
  Engine fixed(world_of(bodies, linear_law(1e4, 50.0, 5e3, 0.4, 1.0), {0, -10}), fixed_settings);
  EXPECT_LT(5 * adaptive.contacts().size(), fixed.contacts().size());
  for (int k = 0; k < 3; ++k) {
    adaptive.run(500);
    fixed.run(500);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      ASSERT_EQ(adaptive.world().position[i].x, fixed.world().position[i].x) << "body " << i;
      ASSERT_EQ(adaptive.world().position[i].y, fixed.world().position[i].y) << "body " << i;
      ASSERT_EQ(adaptive.world().angle[i], fixed.world().angle[i]) << "body " << i;
    }
  }
  // From a snapshot of a world never listed, as `sphero run` starts, alike;
  // from a checkpoint, the skin it had.
  EngineSnapshot unlisted = adaptive.snapshot();
  unlisted.neighbours = {};
  EXPECT_EQ(Engine(unlisted).neighbour_verlet_distance(),
            adaptive_engine(bodies, {0, -10}, 0.05).neighbour_verlet_distance());
  EXPECT_EQ(Engine(adaptive.snapshot()).neighbour_verlet_distance(), adaptive.neighbour_verlet_distance());
  std::vector<BodySpec> hexagons;
  for (int i = 0; i < 4; ++i) hexagons.push_back(test::regular_polygon_body(6, 0.4, 0.02, {1.0 * i + 0.6, 0.5}));
  EXPECT_EQ(adaptive_engine(hexagons, {0, -10}, 0.05).neighbour_verlet_distance(), 0.05);
}

TEST(NeighbourSearch, ContactListCostGrowsLinearlyNotQuadraticallyWithVertices) {
  // Regular polygons of the same size on a lattice, just touching, for 4 to
  // 64 vertices: feature pairs evaluated per body and step.
  std::vector<double> per_pair;
  const std::vector<int> vertex_counts{4, 8, 16, 32, 64};
  for (int m : vertex_counts) {
    std::mt19937_64 g(m);
    std::vector<BodySpec> bodies;
    for (int i = 0; i < 10; ++i)
      for (int j = 0; j < 10; ++j)
        bodies.push_back(test::regular_polygon_body(m, 0.5, 0.05, {1.08 * i, 1.08 * j}, 2 * kPi * unit_uniform(g)));
    EngineSettings s;
    s.dt = 1e-4;
    s.verlet_distance = 0.02;
    Engine e(world_of(bodies, linear_law(1e4)), s);
    const long before = e.neighbour_stats().feature_pairs_evaluated;
    e.run(10);
    const double pairs = static_cast<double>(e.neighbour_stats().feature_pairs_evaluated - before) / 10.0;
    per_pair.push_back(pairs / static_cast<double>(e.neighbour_stats().body_pairs));
  }
  for (std::size_t k = 0; k < per_pair.size(); ++k) {
    const int m = vertex_counts[k];
    std::printf("%d vertices: %.1f feature pairs evaluated per neighbouring body pair and step (all pairs: %d)\n", m,
                per_pair[k], 3 * m * m);
    // Linear in M: the vertices near the contact, each against the one to
    // three edges whose slab it is in.
    EXPECT_LT(per_pair[k], 2.0 * m);
  }
  // Against all pairs: under 1% of them at 64 vertices.
  EXPECT_LT(per_pair.back(), 0.01 * 3 * 64 * 64);
}

TEST(PeriodicBoundary, ABodyCrossingTheSeamKeepsItsContactAndTangentialHistory) {
  // Two disks pressed together (one above the other), spinning against each
  // other so that their frictional contact stores a tangential spring, both
  // drifting right at 2 m/s. One pair crosses x = 10 of a 10-periodic cell;
  // the other starts 6 to the left and stays inside. Same physics.
  const auto run = [](double x0, Engine*& out) {
    PeriodicCell cell;
    cell.periodic = {true, false};
    cell.low = {0, -5};
    cell.size = {10, 10};
    std::vector<BodySpec> bodies{test::disk({x0, 0}, 0.5, {2, 0}), test::disk({x0, 0.997}, 0.5, {2, 0})};
    bodies[0].angular_velocity = 1.0;
    bodies[1].angular_velocity = 1.0;              // their surfaces slide past each other at the contact
    bodies[0].constraint.imposed_force = {0, 30};  // press them together
    bodies[1].constraint.imposed_force = {0, -30};
    EngineSettings s;
    s.dt = 1e-4;
    s.verlet_distance = 0.02;
    out = new Engine(world_of(bodies, linear_law(1e4, 0.0, 5e3, 2.0), {}, cell), s);
    out->run(5000);  // 0.5 s: the crossing pair moves from 9.3 to 10.3
  };
  Engine* crossing = nullptr;
  Engine* inside = nullptr;
  run(9.3, crossing);
  run(3.3, inside);
  const World& a = crossing->world();
  const World& b = inside->world();
  EXPECT_LT(a.position[0].x, 1.0);  // it did wrap
  Vec2 gap_a = a.position[1] - a.position[0], gap_b = b.position[1] - b.position[0];
  gap_a.x -= 10.0 * std::round(gap_a.x / 10.0);  // minimum image
  gap_b.x -= 10.0 * std::round(gap_b.x / 10.0);
  EXPECT_NEAR(gap_a.x, gap_b.x, 1e-9);
  EXPECT_NEAR(gap_a.y, gap_b.y, 1e-9);
  EXPECT_NEAR(a.angular_velocity[1], b.angular_velocity[1], 1e-9);
  const auto spring = [](const Engine& e) {
    for (const Contact& c : e.contacts())
      if (c.active) return c.xi;
    return Vec2{};
  };
  EXPECT_GT(norm(spring(*inside)), 1e-6);  // there is history to keep
  EXPECT_NEAR(spring(*crossing).x, spring(*inside).x, 1e-9);
  EXPECT_NEAR(spring(*crossing).y, spring(*inside).y, 1e-9);
  delete crossing;
  delete inside;
}

TEST(PeriodicBoundary, ABodyLongerThanHalfThePeriodIsRefused) {
  PeriodicCell cell;
  cell.periodic = {true, false};
  cell.size = {3, 3};
  const std::vector<BodySpec> bodies{test::segment_body({0, 1}, {1.5, 1}, 0.2)};
  try {
    world_of(bodies, linear_law(1e4), {}, cell);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("longer than half the period"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sphero
