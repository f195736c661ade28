// The benchmark's large scenes: copies of a settled block side by side must
// continue the block itself (its contacts' tangential springs and skin
// carried over), or the timing measures the copies settling again.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "bench/standard_scenes.h"

namespace sphero {
namespace {

TEST(BenchScenes, TiledCopiesOfABlockMoveAsTheBlockDoes) {
  // Frictional disks settled (grains slower than 1% of sqrt(g d)), then 3
  // copies side by side; both run 500 steps. Every grain of every copy
  // keeps its block grain's velocity and place (a period on): rounding
  // apart, as the copies' coordinates differ by whole block widths. Without
  // the springs, the copies' contacts start unloaded and the grains slide
  // until they load again (the test fails so, checked). A settled pile, as
  // a falling one would amplify the rounding: the symmetric columns that a
  // lattice dropped straight down makes are unstable.
  bench::SceneOptions o;
  o.particles = 1000;
  Engine block = bench::settled_scene(bench::scene_named("disks"), o, SPHERO_DATA_DIR);
  o.particles = 3000;
  Engine tiles = bench::settled_scene(bench::scene_named("disks"), o, SPHERO_DATA_DIR);
  int loaded = 0;
  for (const Contact& c : block.contacts()) loaded += c.active && norm(c.xi) > 0.0;
  EXPECT_GT(loaded, 1000);  // springs to carry
  block.run(500);
  tiles.run(500);
  const World &b = block.world(), &t = tiles.world();
  const std::size_t grains = b.size() - 1;  // body 0 is the floor in both
  ASSERT_EQ(t.size(), 3 * grains + 1);
  const double width = b.cell.size.x, speed_scale = std::sqrt(9.81 * 1.0);
  double fastest = 0.0;
  for (std::size_t copy = 0; copy < 3; ++copy)
    for (std::size_t g = 1; g <= grains; ++g) {
      const std::size_t k = copy * grains + g;
      fastest = std::max(fastest, norm(b.velocity[g]));
      ASSERT_NEAR(t.velocity[k].x, b.velocity[g].x, 1e-6 * speed_scale) << "copy " << copy << ", grain " << g;
      ASSERT_NEAR(t.velocity[k].y, b.velocity[g].y, 1e-6 * speed_scale) << "copy " << copy << ", grain " << g;
      ASSERT_NEAR(t.angular_velocity[k], b.angular_velocity[g], 1e-6 * speed_scale);
      const double along = t.position[k].x - b.position[g].x;
      EXPECT_NEAR(along - width * std::round(along / width), 0.0, 1e-9);
      EXPECT_NEAR(t.position[k].y, b.position[g].y, 1e-9);
    }
  EXPECT_GT(fastest, 1e-5 * speed_scale);  // not frozen: the comparison means something
}

}  // namespace
}  // namespace sphero
