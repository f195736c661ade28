// Green's-theorem moments of segment-and-arc boundaries against closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "morphology/region.h"

namespace sphero {
namespace {

constexpr double kPi = std::numbers::pi;

BoundaryLoop circle(Vec2 c, double R) {
  const Vec2 w = c - Vec2{R, 0.0}, e = c + Vec2{R, 0.0};
  return {BoundaryPiece::arc(w, e, c, R, true), BoundaryPiece::arc(e, w, c, R, true)};
}

TEST(RegionIntegrals, OffCentreDiskHasAreaCentroidAndParallelAxisMoment) {
  const Vec2 c{1.5, -0.7};
  const double R = 0.8;
  const AreaMoments m = integrate(circle(c, R));
  EXPECT_NEAR(m.area, kPi * R * R, 1e-13);
  EXPECT_NEAR(m.centroid().x, c.x, 1e-13);
  EXPECT_NEAR(m.centroid().y, c.y, 1e-13);
  // ∫|x|² = πR⁴/2 + πR²|c|² (parallel-axis theorem)
  EXPECT_NEAR(m.second, kPi * R * R * R * R / 2.0 + kPi * R * R * norm2(c), 1e-12);
  EXPECT_NEAR(m.central_second(), kPi * R * R * R * R / 2.0, 1e-12);
}

TEST(RegionIntegrals, ClockwiseLoopGivesNegativeMoments) {
  BoundaryLoop cw;
  for (auto piece : circle({0.3, 0.2}, 1.0))
    cw.insert(cw.begin(), BoundaryPiece::arc(piece.end, piece.start, piece.centre, 1.0, false));
  EXPECT_NEAR(integrate(cw).area, -kPi, 1e-13);
}

TEST(RegionIntegrals, RectangleByItsEdges) {
  const double a = 3.0, b = 2.0;
  const BoundaryLoop rect{BoundaryPiece::segment({0, 0}, {a, 0}), BoundaryPiece::segment({a, 0}, {a, b}),
                          BoundaryPiece::segment({a, b}, {0, b}), BoundaryPiece::segment({0, b}, {0, 0})};
  const AreaMoments m = integrate(rect);
  EXPECT_DOUBLE_EQ(m.area, a * b);
  EXPECT_DOUBLE_EQ(m.centroid().x, a / 2.0);
  EXPECT_DOUBLE_EQ(m.centroid().y, b / 2.0);
  EXPECT_NEAR(m.central_second(), a * b * (a * a + b * b) / 12.0, 1e-12);
}

TEST(RegionIntegrals, HalfDiskCentroidIsFourROverThreePi) {
  const double R = 2.0;
  // Upper half disk: the arc from east to west counter-clockwise, then the
  // diameter back.
  const BoundaryLoop half{
      BoundaryPiece::arc({R, 0}, {-R, 0}, {0, 0}, R, true), BoundaryPiece::segment({-R, 0}, {R, 0})};
  const AreaMoments m = integrate(half);
  EXPECT_NEAR(m.area, kPi * R * R / 2.0, 1e-13);
  EXPECT_NEAR(m.centroid().y, 4.0 * R / (3.0 * kPi), 1e-13);
  EXPECT_NEAR(m.centroid().x, 0.0, 1e-13);
  EXPECT_NEAR(m.second, kPi * R * R * R * R / 4.0, 1e-12);
}

TEST(RegionIntegrals, OffOriginQuarterDiskSeesEveryCentreTerm) {
  // A quarter disk away from the origin: a lone arc's terms in the centre's
  // coordinates do not cancel as they do around a full circle.
  const Vec2 c{2.0, 3.0};
  const double R = 0.5;
  const Vec2 east = c + Vec2{R, 0}, north = c + Vec2{0, R};
  const BoundaryLoop quarter{
      BoundaryPiece::segment(c, east), BoundaryPiece::arc(east, north, c, R, true), BoundaryPiece::segment(north, c)};
  const AreaMoments m = integrate(quarter);
  const double area = kPi * R * R / 4.0;
  const double offset = 4.0 * R / (3.0 * kPi);  // centroid from the apex, along each axis
  EXPECT_NEAR(m.area, area, 1e-14);
  EXPECT_NEAR(m.centroid().x, c.x + offset, 1e-13);
  EXPECT_NEAR(m.centroid().y, c.y + offset, 1e-13);
  // ∫|x|² = A|c|² + 2 c·∫u + ∫|u|², with ∫|u|² = πR⁴/8 about the apex.
  EXPECT_NEAR(m.second, area * norm2(c) + 2.0 * area * offset * (c.x + c.y) + kPi * R * R * R * R / 8.0, 1e-12);
}

TEST(RegionIntegrals, DiscretisedCircleApproachesTheCircle) {
  const std::vector<Vec2> polygon = discretise(circle({0, 0}, 1.0), 256);
  EXPECT_EQ(polygon.size(), 256u);
  for (Vec2 p : polygon) EXPECT_NEAR(norm(p), 1.0, 1e-14);
}

}  // namespace
}  // namespace sphero
