#include <gtest/gtest.h>

#include <vector>

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
  EXPECT_TRUE(segments_intersect({0, 0}, {2, 2}, {0, 2}, {2, 0}));    // proper crossing
  EXPECT_TRUE(segments_intersect({0, 0}, {2, 0}, {1, 0}, {1, 5}));    // T-junction
  EXPECT_TRUE(segments_intersect({0, 0}, {2, 0}, {1, 0}, {3, 0}));    // collinear overlap
  EXPECT_FALSE(segments_intersect({0, 0}, {1, 0}, {2, 0}, {3, 0}));   // collinear, apart
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
