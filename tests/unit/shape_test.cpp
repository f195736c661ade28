// Every bad skeleton is refused with a message that says what and where.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "shapes/shape.h"

namespace sphero {
namespace {

// Runs make_shape and returns its error message ("" if it accepted).
std::string refusal(SkeletonKind kind, std::vector<Vec2> vertices, double radius) {
  try {
    make_shape("bad", kind, std::move(vertices), radius);
  } catch (const ShapeError& e) {
    return e.what();
  }
  return "";
}

TEST(ShapeValidation, NoVertices) {
  EXPECT_NE(refusal(SkeletonKind::polygon, {}, 0.1).find("no vertices"), std::string::npos);
}

TEST(ShapeValidation, VertexCountMustFitTheKind) {
  EXPECT_NE(refusal(SkeletonKind::point, {{0, 0}, {1, 0}}, 0.1).find("exactly 1"), std::string::npos);
  EXPECT_NE(refusal(SkeletonKind::segment, {{0, 0}}, 0.1).find("exactly 2"), std::string::npos);
  EXPECT_NE(refusal(SkeletonKind::polygon, {{0, 0}, {1, 0}}, 0.1).find("at least 3"), std::string::npos);
}

TEST(ShapeValidation, RepeatedConsecutiveVerticesAreZeroLengthEdges) {
  const std::string message = refusal(SkeletonKind::polyline, {{0, 0}, {1, 0}, {1, 0}, {2, 1}}, 0.1);
  EXPECT_NE(message.find("vertices 2 and 3 are equal"), std::string::npos) << message;
  EXPECT_NE(message.find("zero-length edge"), std::string::npos) << message;
}

TEST(ShapeValidation, ClosingVertexRepeatedIsExplained) {
  const std::string message = refusal(SkeletonKind::polygon, {{0, 0}, {1, 0}, {1, 1}, {0, 0}}, 0.1);
  EXPECT_NE(message.find("repeats the first"), std::string::npos) << message;
}

TEST(ShapeValidation, SelfIntersectingPolygonNamesTheEdges) {
  const std::string message = refusal(SkeletonKind::polygon, {{0, 0}, {2, 2}, {2, 0}, {0, 2}}, 0.1);
  EXPECT_NE(message.find("intersects itself"), std::string::npos) << message;
  EXPECT_NE(message.find("edge 1-2 meets edge 3-4"), std::string::npos) << message;
}

TEST(ShapeValidation, CollinearPolygonHasNoArea) {
  EXPECT_NE(refusal(SkeletonKind::polygon, {{0, 0}, {1, 0}, {2, 0}}, 0.1).find("intersects itself"),
            std::string::npos);  // it folds back onto itself
}

TEST(ShapeValidation, RadiusMustBePositiveWhereItMakesTheArea) {
  EXPECT_NE(refusal(SkeletonKind::point, {{0, 0}}, -1.0).find("negative"), std::string::npos);
  EXPECT_NE(refusal(SkeletonKind::segment, {{0, 0}, {1, 0}}, 0.0).find("no area"), std::string::npos);
  EXPECT_NE(refusal(SkeletonKind::polygon, {{0, 0}, {1, 0}, {0, 1}}, -0.5).find("negative"), std::string::npos);
  // A sharp polygon is a legitimate shape.
  EXPECT_EQ(refusal(SkeletonKind::polygon, {{0, 0}, {1, 0}, {0, 1}}, 0.0), "");
}

TEST(ShapeValidation, NonFiniteNumbers) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_NE(refusal(SkeletonKind::segment, {{0, 0}, {nan, 1}}, 0.1).find("vertex 2"), std::string::npos);
  EXPECT_NE(refusal(SkeletonKind::point, {{inf, 0}}, 0.1).find("not a finite number"), std::string::npos);
  EXPECT_NE(refusal(SkeletonKind::point, {{0, 0}}, nan).find("radius is not a finite"), std::string::npos);
}

TEST(ShapeValidation, ClockwisePolygonIsStoredCounterClockwise) {
  const Shape s = make_shape("cw", SkeletonKind::polygon, {{0, 0}, {0, 1}, {1, 1}, {1, 0}}, 0.1);
  EXPECT_EQ(s.vertices.front(), (Vec2{1, 0}));
  EXPECT_EQ(s.edge_count(), 4);
}

TEST(ShapeValidation, UnknownKindWord) {
  EXPECT_THROW(skeleton_kind_from_string("circle"), ShapeError);
  EXPECT_EQ(skeleton_kind_from_string("polyline"), SkeletonKind::polyline);
}

}  // namespace
}  // namespace sphero
