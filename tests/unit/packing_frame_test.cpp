// A packing as a frame: every grain's rounded outline where the grain is,
// its exact area, and the walls apart.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "io/packing_frame.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

// The area of a closed polygon (shoelace).
double polygon_area(const std::vector<Vec2>& p) {
  double twice = 0.0;
  for (std::size_t k = 0; k < p.size(); ++k) twice += cross(p[k], p[(k + 1) % p.size()]);
  return 0.5 * twice;
}

TEST(PackingFrame, GrainsBecomeOutlinesWhereTheyAreAndWallsStayApart) {
  BodySpec disk;
  disk.shape = make_shape("disk", SkeletonKind::point, {{0, 0}}, 0.5);
  disk.position = {3, 4};
  disk.velocity = {2, 0};
  BodySpec square;
  square.shape = make_shape("square", SkeletonKind::polygon, {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}, 0.1);
  square.position = {10, 0};
  square.angle = 0.25 * std::numbers::pi;
  BodySpec floor;
  floor.shape = make_shape("wall", SkeletonKind::segment, {{-5, 0}, {5, 0}}, 0.05);
  floor.position = {0, -2};
  floor.is_wall = true;
  const FrameData f = packing_frame({disk, floor, square}, 64);
  ASSERT_EQ(f.particles.size(), 2u);
  ASSERT_EQ(f.outlines.size(), 2u);
  ASSERT_EQ(f.walls.size(), 1u);
  EXPECT_EQ(f.walls[0].id, 1);
  EXPECT_EQ(f.particles[0].id, 0);
  EXPECT_EQ(f.particles[1].id, 2);
  // Exact areas; the drawn outlines within their chords' error.
  EXPECT_NEAR(f.particles[0].area, std::numbers::pi * 0.25, 1e-12);
  EXPECT_NEAR(f.particles[1].area, 4.0 + 4 * 2.0 * 0.1 + std::numbers::pi * 0.01, 1e-12);
  EXPECT_NEAR(polygon_area(f.outlines[0]), f.particles[0].area, 2e-3 * f.particles[0].area);
  // Every outline point of the disk lies on its circle around (3, 4).
  for (Vec2 p : f.outlines[0]) EXPECT_NEAR(norm(p - Vec2{3, 4}), 0.5, 1e-9);
  // The square, turned 45°, reaches its rounded corners along the axes.
  double farthest_x = 0.0;
  for (Vec2 p : f.outlines[1]) farthest_x = std::max(farthest_x, p.x - 10.0);
  EXPECT_NEAR(farthest_x, std::sqrt(2.0) + 0.1, 1e-9);
  EXPECT_NEAR(f.particles[0].kinetic_energy, 0.5 * std::numbers::pi * 0.25 * 4.0, 1e-12);
  // The wall's skeleton in world coordinates.
  ASSERT_EQ(f.walls[0].skeleton.size(), 2u);
  EXPECT_NEAR(f.walls[0].skeleton[0].x, -5.0, 1e-12);
  EXPECT_NEAR(f.walls[0].skeleton[1].y, -2.0, 1e-12);
}

}  // namespace
}  // namespace sphero
