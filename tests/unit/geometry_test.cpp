#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "geometry/crossing_sweep.h"
#include "geometry/polygon.h"
#include "geometry/segment.h"

namespace sphero {
namespace {

TEST(Segment, ClosestPointIsTheFootOfThePerpendicularInsideTheSegment) {
  const Vec2 q = closest_point_on_segment({0.3, 2.0}, {0.0, 0.0}, {1.0, 0.0});
  EXPECT_DOUBLE_EQ(q.x, 0.3);
  EXPECT_DOUBLE_EQ(q.y, 0.0);
  EXPECT_DOUBLE_EQ(distance_to_segment({0.3, 2.0}, {0.0, 0.0}, {1.0, 0.0}), 2.0);
}

TEST(Segment, ClosestPointClampsToTheNearerEnd) {
  EXPECT_EQ(closest_point_on_segment({-3.0, 4.0}, {0.0, 0.0}, {1.0, 0.0}), (Vec2{0.0, 0.0}));
  EXPECT_EQ(closest_point_on_segment({5.0, -1.0}, {0.0, 0.0}, {1.0, 0.0}), (Vec2{1.0, 0.0}));
  EXPECT_DOUBLE_EQ(distance_to_segment({-3.0, 4.0}, {0.0, 0.0}, {1.0, 0.0}), 5.0);
}

TEST(Segment, IntersectionCoversCrossingTouchingCollinearAndDisjoint) {
  EXPECT_TRUE(segments_intersect({0, 0}, {2, 2}, {0, 2}, {2, 0}));       // proper crossing
  EXPECT_TRUE(segments_intersect({0, 0}, {2, 0}, {1, 0}, {1, 5}));       // T-junction
  EXPECT_TRUE(segments_intersect({0, 0}, {2, 0}, {1, 0}, {3, 0}));       // collinear overlap
  EXPECT_FALSE(segments_intersect({0, 0}, {1, 0}, {2, 0}, {3, 0}));      // collinear, apart
  EXPECT_FALSE(segments_intersect({0, 0}, {1, 1}, {0, 1}, {0.4, 0.6}));  // near miss
  EXPECT_DOUBLE_EQ(segment_segment_distance({0, 0}, {1, 0}, {2, 1}, {2, 3}), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(segment_segment_distance({0, 0}, {2, 2}, {0, 2}, {2, 0}), 0.0);
}

TEST(Polygon, SignedAreaIsPositiveCounterClockwise) {
  const std::vector<Vec2> square{{0, 0}, {2, 0}, {2, 2}, {0, 2}};
  EXPECT_DOUBLE_EQ(signed_area(square), 4.0);
  const std::vector<Vec2> reversed(square.rbegin(), square.rend());
  EXPECT_DOUBLE_EQ(signed_area(reversed), -4.0);
}

TEST(Polygon, ConvexityOfSquareLAndStar) {
  EXPECT_TRUE(is_convex(std::vector<Vec2>{{0, 0}, {2, 0}, {2, 2}, {0, 2}}));
  EXPECT_TRUE(is_convex(std::vector<Vec2>{{0, 0}, {1, 0}, {2, 0}, {2, 2}}));  // collinear vertex
  EXPECT_FALSE(is_convex(std::vector<Vec2>{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}));
  // A pentagram turns one way only but winds twice: not convex.
  std::vector<Vec2> star;
  for (int k = 0; k < 5; ++k) {
    const double a = 4.0 * 3.14159265358979 * k / 5.0;
    star.push_back({std::cos(a), std::sin(a)});
  }
  EXPECT_FALSE(is_convex(star));
}

TEST(Polygon, SelfIntersectionNamesTheCrossingEdges) {
  const std::vector<Vec2> bowtie{{0, 0}, {2, 2}, {2, 0}, {0, 2}};
  const EdgePair crossing = first_self_intersection(bowtie);
  EXPECT_EQ(crossing.first, 0);
  EXPECT_EQ(crossing.second, 2);
  EXPECT_LT(first_self_intersection(std::vector<Vec2>{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}).first, 0);
  // A spike that folds back onto its own edge.
  EXPECT_GE(first_self_intersection(std::vector<Vec2>{{0, 0}, {2, 0}, {1, 0}, {1, 1}}).first, 0);
}

TEST(Polygon, PointInPolygonOfAnLShape) {
  const std::vector<Vec2> ell{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  EXPECT_TRUE(point_in_polygon({0.5, 1.5}, ell));
  EXPECT_TRUE(point_in_polygon({1.5, 0.5}, ell));
  EXPECT_FALSE(point_in_polygon({1.5, 1.5}, ell));
  EXPECT_FALSE(point_in_polygon({-0.1, 0.5}, ell));
}

}  // namespace
}  // namespace sphero

namespace sphero {
namespace {

// A star-shaped polygon of n vertices at random radii: simple.
std::vector<Vec2> random_star(int n, std::mt19937& random) {
  std::uniform_real_distribution<double> radius(0.5, 1.5);
  std::vector<Vec2> loop;
  for (int k = 0; k < n; ++k) {
    const double a = 2 * std::numbers::pi * k / n;
    const double r = radius(random);
    loop.push_back({r * std::cos(a), r * std::sin(a)});
  }
  return loop;
}

bool pairwise_crossing(const std::vector<Vec2>& loop) {
  const int n = static_cast<int>(loop.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;
      if (segments_intersect(loop[i], loop[(i + 1) % n], loop[j], loop[(j + 1) % n])) return true;
    }
  return false;
}

TEST(CrossingSweep, AgreesWithEveryPairOnRandomPolygons) {
  std::mt19937 random(11);
  for (int trial = 0; trial < 300; ++trial) {
    auto loop = random_star(70 + trial % 50, random);
    if (trial % 2 == 1) {  // swap two vertices: usually a crossing, sometimes not
      std::uniform_int_distribution<std::size_t> pick(0, loop.size() - 1);
      std::swap(loop[pick(random)], loop[pick(random)]);
    }
    if (trial % 7 == 3) {  // a long chord: two vertices moved across the polygon
      loop[3] = -1.2 * loop[3];
    }
    const EdgePair found = sweep_self_intersection(loop);
    ASSERT_EQ(found.first >= 0, pairwise_crossing(loop)) << "trial " << trial;
    if (found.first >= 0) {  // the witness crosses
      const int n = static_cast<int>(loop.size());
      EXPECT_TRUE(segments_intersect(
          loop[found.first], loop[(found.first + 1) % n], loop[found.second], loop[(found.second + 1) % n]))
          << "trial " << trial;
    }
  }
}

TEST(CrossingSweep, HandlesVerticalEdgesAndSharedCoordinates) {
  // A comb: vertical teeth, many vertices on the same x and y.
  std::vector<Vec2> comb;
  for (int k = 0; k < 40; ++k)
    comb.insert(comb.end(), {{2.0 * k, 0}, {2.0 * k, 5}, {2.0 * k + 1, 5}, {2.0 * k + 1, 0}});
  comb.insert(comb.end(), {{80, 0}, {80, -1}, {-1, -1}, {-1, 0}});
  EXPECT_LT(sweep_self_intersection(comb).first, 0);
  comb[5] = {0, 3};  // the second tooth's top now reaches back into the first
  EXPECT_GE(sweep_self_intersection(comb).first, 0);
  EXPECT_EQ(sweep_self_intersection(comb).first >= 0, pairwise_crossing(comb));
}

TEST(CrossingSweep, TenToTheFiveVerticesAreChecked) {
  std::mt19937 random(5);
  auto loop = random_star(100000, random);
  EXPECT_LT(first_self_intersection(loop).first, 0);  // O(n log n): well under a second
  std::swap(loop[10], loop[50000]);
  const EdgePair found = first_self_intersection(loop);
  ASSERT_GE(found.first, 0);
  const int n = static_cast<int>(loop.size());
  EXPECT_TRUE(segments_intersect(
      loop[found.first], loop[(found.first + 1) % n], loop[found.second], loop[(found.second + 1) % n]));
}

}  // namespace
}  // namespace sphero
