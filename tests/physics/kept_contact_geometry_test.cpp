// A frame's contacts after a step that kept their geometry
// (Engine::keep_contact_geometry_next_step) are those computed afresh,
// bit for bit, and the geometry is never kept past what moved the bodies.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "physics/scenes.h"

namespace sphero {
namespace {

using test::linear_law;
using test::regular_polygon_body;
using test::world_of;

// Hexagons and squares piled in a box of three walls, falling and
// settling: contacts open, close and slide while the test runs.
Engine settling_pile(Integrator integrator, int threads) {
  std::vector<BodySpec> bodies{test::wall({{-0.2, 7.0}, {-0.2, -0.2}, {6.2, -0.2}, {6.2, 7.0}}, 0.1)};
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      bodies.push_back(
          regular_polygon_body((i + j) % 2 ? 6 : 4, 0.45, 0.05, {0.55 + i * 1.01, 0.6 + j * 1.02}, 0.1 * j));
  EngineSettings s;
  s.dt = 2e-4;
  s.verlet_distance = 0.05;
  s.integrator = integrator;
  s.threads = threads;
  return Engine(world_of(bodies, linear_law(1e5, 150.0, 5e4, 0.5, 20.0), {0, -9.81}), s);
}

// The pile settled a while, then one step that asked to keep its geometry.
Engine after_a_kept_step(Integrator integrator) {
  Engine engine = settling_pile(integrator, 1);
  engine.run(2500);
  engine.keep_contact_geometry_next_step();
  engine.step();
  return engine;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every candidate's record and every touching contact as a restored copy
// of the engine computes them (it keeps no geometry).
void expect_records_of_a_recomputation(const Engine& engine) {
  const Engine recomputed(engine.snapshot());
  ASSERT_FALSE(recomputed.neighbour_list().contact_geometry_current());
  const std::vector<Contact> kept = engine.contacts(), fresh = recomputed.contacts();
  ASSERT_EQ(kept.size(), fresh.size());
  long touching = 0;
  for (std::size_t k = 0; k < kept.size(); ++k) {
    ASSERT_EQ(kept[k].active, fresh[k].active) << k;
    ASSERT_TRUE(same_bits(kept[k].overlap, fresh[k].overlap)) << k;
    ASSERT_TRUE(same_bits(kept[k].normal.x, fresh[k].normal.x)) << k;
    ASSERT_TRUE(same_bits(kept[k].normal.y, fresh[k].normal.y)) << k;
    touching += kept[k].active;
  }
  EXPECT_GE(touching, 10) << "too few contacts to test";
  std::vector<Contact> visited_kept, visited_fresh;
  engine.for_each_touching_contact([&](const Contact& c) { visited_kept.push_back(c); });
  recomputed.for_each_touching_contact([&](const Contact& c) { visited_fresh.push_back(c); });
  ASSERT_EQ(visited_kept.size(), visited_fresh.size());
  for (std::size_t k = 0; k < visited_kept.size(); ++k) {
    EXPECT_TRUE(same_bits(visited_kept[k].overlap, visited_fresh[k].overlap)) << k;
    EXPECT_TRUE(same_bits(visited_kept[k].normal.x, visited_fresh[k].normal.x)) << k;
  }
}

TEST(KeptContactGeometry, IsWhatARecomputationGivesOnOneThreadAndTwo) {
  for (int threads : {1, 2}) {
    Engine engine = settling_pile(Integrator::velocity_verlet, threads);
    engine.run(2000);  // landed
    for (int frame = 0; frame < 6; ++frame) {
      engine.run(150);
      engine.keep_contact_geometry_next_step();
      engine.step();
      ASSERT_TRUE(engine.neighbour_list().contact_geometry_current()) << "the kept geometry would go unused";
      expect_records_of_a_recomputation(engine);
    }
  }
}

TEST(KeptContactGeometry, LastsOnlyUntilTheNextStepOrAnEdit) {
  Engine engine = after_a_kept_step(Integrator::velocity_verlet);
  ASSERT_TRUE(engine.neighbour_list().contact_geometry_current());
  engine.step();
  EXPECT_FALSE(engine.neighbour_list().contact_geometry_current());

  engine.keep_contact_geometry_next_step();
  engine.step();
  ASSERT_TRUE(engine.neighbour_list().contact_geometry_current());
  // A grain pushed into its neighbour between steps: its contacts' overlap
  // is that of where it is now.
  engine.edit_world().position[20].x += 0.02;
  EXPECT_FALSE(engine.neighbour_list().contact_geometry_current());
  expect_records_of_a_recomputation(engine);

  // A re-evaluation at the same positions keeps nothing either.
  engine.keep_contact_geometry_next_step();
  engine.step();
  engine.evaluate_forces_now();
  EXPECT_FALSE(engine.neighbour_list().contact_geometry_current());
}

TEST(KeptContactGeometry, IsNotKeptWhereTheLastPassIsNotAtTheStepsEnd) {
  // Gear's corrector moves the bodies after its force pass.
  Engine engine = after_a_kept_step(Integrator::gear);
  EXPECT_FALSE(engine.neighbour_list().contact_geometry_current());
  expect_records_of_a_recomputation(engine);
}

}  // namespace
}  // namespace sphero
