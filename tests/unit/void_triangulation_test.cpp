#include "triangulation/void_triangulation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <span>
#include <vector>

#include "geometry/polygon.h"
#include "geometry/segment.h"
#include "triangulation/disc_walk.h"
#include "triangulation/triangulation_check.h"

namespace sphero {
namespace {

// Grains wandering about the sites of a square lattice (spacing 1), each
// within 0.2 of its site and no larger than 0.25 across its own centre:
// they never meet, so every change of the triangulation is a flip.
struct WanderingGrains {
  std::vector<std::vector<Vec2>> outline;  // about the grain's centre
  std::vector<std::uint8_t> closed;
  std::vector<Vec2> site, offset, velocity;
  std::vector<double> angle, spin;

  WanderingGrains(int side, unsigned seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int i = 0; i < side * side; ++i) {
      const int kind = i % 5;
      std::vector<Vec2> shape;
      if (kind == 0) shape = {{0.0, 0.0}};                                // a disc
      if (kind == 1) shape = {{-0.22, 0.0}, {0.22, 0.0}};                 // a segment
      if (kind == 2) shape = {{-0.2, -0.15}, {0.2, -0.15}, {0.0, 0.22}};  // a triangle
      if (kind == 3)
        for (int k = 0; k < 6; ++k) shape.push_back(0.22 * Vec2{std::cos(k * M_PI / 3), std::sin(k * M_PI / 3)});
      if (kind == 4) shape = {{-0.2, -0.2}, {0.2, -0.2}, {0.2, 0.2}, {0.0, 0.0}, {-0.2, 0.2}};  // non-convex
      outline.push_back(shape);
      closed.push_back(shape.size() >= 3);
      site.push_back({static_cast<double>(i % side), static_cast<double>(i / side)});
      offset.push_back({0.1 * unit(random), 0.1 * unit(random)});
      velocity.push_back({unit(random), unit(random)});
      angle.push_back(M_PI * unit(random));
      spin.push_back(3.0 * unit(random));
    }
  }
  std::size_t size() const { return site.size(); }
  // Moves every grain by dt, bouncing off the circle of radius 0.2 about its site.
  void advance(double dt) {
    for (std::size_t i = 0; i < size(); ++i) {
      offset[i] += dt * velocity[i];
      if (norm(offset[i]) > 0.2) {
        const Vec2 n = offset[i] / norm(offset[i]);
        velocity[i] -= 2.0 * dot(velocity[i], n) * n;
        offset[i] = 0.2 * n;
      }
      angle[i] += dt * spin[i];
    }
  }
  std::vector<Vec2> world_outline(std::size_t i) const {
    std::vector<Vec2> world;
    for (Vec2 p : outline[i]) world.push_back(site[i] + offset[i] + rotated(p, angle[i]));
    return world;
  }
  Skeletons skeletons() const {
    Skeletons s;
    for (std::size_t i = 0; i < size(); ++i) s.add(world_outline(i), closed[i], static_cast<int>(i));
    return s;
  }
};

double skeleton_area(const WanderingGrains& g) {
  double area = 0.0;
  for (std::size_t i = 0; i < g.size(); ++i)
    if (g.closed[i]) area += std::abs(signed_area(g.world_outline(i)));
  return area;
}

TEST(VoidTriangulation, ABuiltTriangulationHasEveryPropertyOfAValidOne) {
  const WanderingGrains grains(12, 1);
  const VoidTriangulation tri(grains.skeletons());
  EXPECT_EQ(triangulation_problem(tri), "");
  const auto [low, high] = tri.frame();
  EXPECT_NEAR(void_area(tri), (high.x - low.x) * (high.y - low.y) - skeleton_area(grains), 1e-9);
  // F = 2V − h − 2 for a triangulation whose hull is the frame (h = 4).
  EXPECT_EQ(tri.triangles().size(), 2 * tri.vertices().size() - 6);
}

// Hundreds of grains moving for thousands of steps: flips alone keep the
// triangulation valid, it matches one built from scratch at the end, and
// the void area follows the grains exactly.
TEST(VoidTriangulation, FlipsKeepItValidOverALongRun) {
  WanderingGrains grains(15, 2);
  VoidTriangulation tri(grains.skeletons());
  for (int step = 1; step <= 3000; ++step) {
    grains.advance(0.004);
    ASSERT_TRUE(tri.move_to(grains.skeletons().points)) << "step " << step << " had to build anew";
    if (step % 500 == 0) {
      ASSERT_EQ(triangulation_problem(tri), "") << "step " << step;
      const auto [low, high] = tri.frame();
      EXPECT_NEAR(void_area(tri), (high.x - low.x) * (high.y - low.y) - skeleton_area(grains), 1e-9) << "step " << step;
    }
  }
  EXPECT_GT(tri.stats().flips, 1000);
  EXPECT_EQ(tri.stats().rebuilds, 0);
  const VoidTriangulation fresh(grains.skeletons());
  EXPECT_EQ(tri.triangles().size(), fresh.triangles().size());
  std::set<std::pair<int, int>> moved_constraints, fresh_constraints;
  for (const VoidTriangulation* t : {static_cast<const VoidTriangulation*>(&tri), &fresh})
    for (const auto& T : t->triangles())
      for (int k = 0; k < 3; ++k)
        if (T.is_constrained(k))
          (t == &tri ? moved_constraints : fresh_constraints)
              .insert(std::minmax(
                  T.vertex[static_cast<std::size_t>((k + 1) % 3)], T.vertex[static_cast<std::size_t>((k + 2) % 3)]));
  EXPECT_EQ(moved_constraints, fresh_constraints);
}

// Large moves (a whole lattice spacing at once) flip many edges in one
// move, in the order their triangles flatten.
TEST(VoidTriangulation, LongMovesFlipInTheOrderOfFlattening) {
  WanderingGrains grains(10, 3);
  VoidTriangulation tri(grains.skeletons());
  for (int step = 0; step < 40; ++step) {
    grains.advance(0.15);
    tri.move_to(grains.skeletons().points);
    ASSERT_EQ(triangulation_problem(tri), "") << "step " << step;
  }
  EXPECT_EQ(tri.stats().rebuilds, 0);
  EXPECT_GT(tri.stats().flips, 500);
}

// The grains' free flight as the paths of their vertices: the centre on a
// straight line (velocity held over the move), the outline turning.
std::vector<PointPath> flight_paths(const WanderingGrains& g, double h) {
  std::vector<PointPath> paths;
  for (std::size_t i = 0; i < g.size(); ++i) {
    FreeFlight f;
    f.position = g.site[i] + g.offset[i];
    f.velocity = g.velocity[i];
    f.angular_velocity = g.spin[i];
    for (Vec2 p : g.outline[i]) paths.push_back(point_path(f, rotated(p, g.angle[i]), h));
  }
  return paths;
}

// Along the grains' own turning paths rather than straight lines: flips at
// the flattening instants keep it valid, and it ends where the exact motion
// puts the vertices.
TEST(VoidTriangulation, FlipsFollowTheGrainsFreeFlight) {
  WanderingGrains grains(12, 6);
  VoidTriangulation tri(grains.skeletons());
  const double h = 0.02;
  for (int step = 1; step <= 600; ++step) {
    const std::vector<PointPath> paths = flight_paths(grains, h);
    grains.advance(h);
    ASSERT_TRUE(tri.move_along(paths, h, grains.skeletons().points)) << "step " << step << " had to build anew";
    if (step % 100 == 0) {
      ASSERT_EQ(triangulation_problem(tri), "") << "step " << step;
    }
  }
  EXPECT_GT(tri.stats().flips, 300);
  EXPECT_EQ(tri.stats().rebuilds, 0);
}

TEST(VoidTriangulation, AVertexLeavingTheFrameBuildsAnew) {
  Skeletons s;
  s.add({{0.0, 0.0}, {1.0, 0.0}, {1.0, 1.0}, {0.0, 1.0}}, true, 0);
  s.add({{3.0, 0.0}}, false, 1);
  VoidTriangulation tri(s);
  std::vector<Vec2> points = s.points;
  points[4] = {40.0, 0.5};
  EXPECT_FALSE(tri.move_to(points));
  EXPECT_EQ(tri.stats().rebuilds, 1);
  EXPECT_EQ(triangulation_problem(tri), "");
}

TEST(VoidTriangulation, SkeletonsThatCrossAreRefusedWithTheBody) {
  Skeletons s;
  s.add({{0.0, 0.0}, {1.0, 0.0}, {1.0, 1.0}, {0.0, 1.0}}, true, 7);
  s.add({{2.0, 0.5}, {3.0, 0.5}}, false, 9);
  VoidTriangulation tri(s);
  std::vector<Vec2> points = s.points;
  points[4] = {0.5, 0.5};  // the segment's end inside the square, its edge across the square's
  try {
    tri.move_to(points);
    FAIL() << "no error";
  } catch (const TriangulationError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.find("body 7") != std::string::npos || what.find("body 9") != std::string::npos) << what;
  }
  s.points[4] = s.points[0];
  EXPECT_THROW(VoidTriangulation{s}, TriangulationError);
}

// Every skeleton that reaches into a disc has a vertex on a triangle the
// walk visits, however thin or long the triangles, though the walk goes
// round the skeleton it starts from rather than through it.
TEST(DiscWalk, FindsEverySkeletonThatReachesIntoTheDisc) {
  WanderingGrains grains(12, 4);
  VoidTriangulation tri(grains.skeletons());
  for (int step = 0; step < 20; ++step) grains.advance(0.05), tri.move_to(grains.skeletons().points);
  const Skeletons& s = tri.skeletons();
  DiscWalk walk;
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> size(0.01, 1.5);
  for (int trial = 0; trial < 300; ++trial) {
    // A disc about a skeleton that holds it whole, as the neighbour search's do.
    const int k = static_cast<int>(random() % s.count());
    const int first_k = s.first[static_cast<std::size_t>(k)], end_k = s.first[static_cast<std::size_t>(k) + 1];
    Vec2 centre;
    for (int p = first_k; p < end_k; ++p)
      centre += s.points[static_cast<std::size_t>(p)] / static_cast<double>(end_k - first_k);
    double extent = 0.0;
    for (int p = first_k; p < end_k; ++p)
      extent = std::max(extent, norm(s.points[static_cast<std::size_t>(p)] - centre));
    const double radius = extent + size(random);
    std::set<int> found;
    walk.visit_vertices(tri, tri.outside_triangle_at_vertex(s.first[static_cast<std::size_t>(k)]), centre, radius,
                        s.body[static_cast<std::size_t>(k)], [&](int v) { found.insert(tri.body_of_vertex(v)); });
    for (std::size_t j = 0; j < s.count(); ++j) {
      const int first = s.first[j], last = s.first[j + 1] - 1;
      double distance = norm(s.points[static_cast<std::size_t>(first)] - centre);
      const int edges = s.closed[j] ? last - first + 1 : last - first;
      for (int e = 0; e < edges; ++e) {
        const int a = first + e, b = a == last ? first : a + 1;
        distance = std::min(distance, distance_to_segment(centre, s.points[static_cast<std::size_t>(a)],
                                                          s.points[static_cast<std::size_t>(b)]));
      }
      if (distance < radius) {
        EXPECT_TRUE(found.count(s.body[j])) << "trial " << trial << ": body " << s.body[j] << " at " << distance;
      }
    }
  }
}

// Triangles inside a closed skeleton are marked by their turn: each is the
// one the centroid test gives, for skeletons with deep notches, either way
// round, and one of 2000 vertices.
TEST(VoidTriangulation, TrianglesInsideNotchedSkeletonsAreThoseWhoseCentroidIsInside) {
  Skeletons skeletons;
  // A comb: five teeth with notches between them (counter-clockwise).
  std::vector<Vec2> comb{{0, 0}, {5, 0}, {5, 2}};
  for (int k = 4; k >= 0; --k)
    for (Vec2 p : {Vec2{k + 0.8, 2}, Vec2{k + 0.8, 0.5}, Vec2{k + 0.2, 0.5}, Vec2{k + 0.2, 2}}) comb.push_back(p);
  comb.push_back({0, 2});
  skeletons.add(comb, true, 0);
  // The same comb clockwise, moved up.
  std::vector<Vec2> clockwise;
  for (auto p = comb.rbegin(); p != comb.rend(); ++p) clockwise.push_back(*p + Vec2{0, 3});
  skeletons.add(clockwise, true, 1);
  // A star of 2000 vertices with deep, narrow spikes.
  std::vector<Vec2> star;
  for (int k = 0; k < 2000; ++k) {
    const double t = 2.0 * M_PI * k / 2000, rho = k % 2 == 0 ? 1.5 : 0.6;
    star.push_back(Vec2{8, 4} + rho * Vec2{std::cos(t), std::sin(t)});
  }
  skeletons.add(star, true, 2);
  const VoidTriangulation t(skeletons);
  int inside = 0;
  for (const auto& triangle : t.triangles()) {
    const Vec2 a = t.vertices()[static_cast<std::size_t>(triangle.vertex[0])],
               b = t.vertices()[static_cast<std::size_t>(triangle.vertex[1])],
               c = t.vertices()[static_cast<std::size_t>(triangle.vertex[2])];
    const int k = t.body_of_vertex(triangle.vertex[0]);
    bool centroid_inside = false;
    if (k != VoidTriangulation::kNone && t.body_of_vertex(triangle.vertex[1]) == k &&
        t.body_of_vertex(triangle.vertex[2]) == k) {
      const auto& loop = k == 0 ? comb : k == 1 ? clockwise : star;
      centroid_inside = point_in_polygon((a + b + c) / 3.0, loop);
    }
    EXPECT_EQ(triangle.inside, centroid_inside) << "triangle at " << a.x << "," << a.y;
    inside += triangle.inside;
  }
  EXPECT_GT(inside, 2000);  // the star's 1998 and the combs' own
}

}  // namespace
}  // namespace sphero
