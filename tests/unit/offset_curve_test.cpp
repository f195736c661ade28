// The region within r of a skeleton from its offset curve in floating
// point, against CGAL's exact offsets and closed forms.
#include "morphology/offset_curve.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <numbers>
#include <random>

#include "geometry/polygon.h"
#include "morphology/minkowski.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

constexpr double kPi = std::numbers::pi;

// A star of n vertices, its radius 1 + depth sin(lobes θ), jittered.
std::vector<Vec2> star(int n, int lobes, double depth, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  std::vector<Vec2> v;
  for (int k = 0; k < n; ++k) {
    const double angle = 2.0 * kPi * (k + jitter(random)) / n;
    const double radius = 1.0 + depth * std::sin(lobes * angle);
    v.push_back({radius * std::cos(angle), radius * std::sin(angle)});
  }
  return v;
}

// Area, centroid and polar moment agree to `tolerance` of the region's size.
void expect_same_moments(const AreaMoments& got, const AreaMoments& want, double tolerance) {
  EXPECT_NEAR(got.area, want.area, tolerance * want.area);
  EXPECT_NEAR(got.centroid().x, want.centroid().x, tolerance);
  EXPECT_NEAR(got.centroid().y, want.centroid().y, tolerance);
  EXPECT_NEAR(got.central_second(), want.central_second(), tolerance * want.central_second());
}

AreaMoments curve_moments(const std::vector<Vec2>& skeleton, bool closed, double r) {
  const auto regions = offset_curve_region(skeleton, closed, r);
  EXPECT_TRUE(regions.has_value());
  return regions ? integrate(*regions) : AreaMoments{};
}

// CGAL's offsets are exact but for arc ends it rounds to rationals within
// 1e-11 of the size: their moments move by up to about 1e-9 when the
// skeleton is moved, the curve's by rounding only (TranslatedAlike).
constexpr double kAsExact = 2e-9;

TEST(OffsetCurve, StarsAgreeWithTheExactOffsetAtEveryRadius) {
  // r from well below an edge's length (about 0.02) to many edges across.
  for (const double r : {0.002, 0.02, 0.1, 0.4}) {
    SCOPED_TRACE(r);
    const std::vector<Vec2> skeleton = star(300, 7, 0.3, 1);
    expect_same_moments(curve_moments(skeleton, true, r), integrate(dilate_polygon(skeleton, r)), kAsExact);
  }
}

TEST(OffsetCurve, TranslatedAlike) {
  const std::vector<Vec2> skeleton = star(300, 7, 0.3, 1);
  std::vector<Vec2> moved;
  for (const Vec2 p : skeleton) moved.push_back(p + Vec2{0.3, 0.2});
  for (const double r : {0.02, 0.4}) {
    SCOPED_TRACE(r);
    const AreaMoments here = curve_moments(skeleton, true, r), there = curve_moments(moved, true, r);
    EXPECT_NEAR(there.area, here.area, 1e-13 * here.area);
    EXPECT_NEAR(there.central_second(), here.central_second(), 1e-13 * here.central_second());
    EXPECT_NEAR(there.centroid().x, here.centroid().x + 0.3, 1e-13);
    EXPECT_NEAR(there.centroid().y, here.centroid().y + 0.2, 1e-13);
  }
}

TEST(OffsetCurve, ClockwiseSkeletonsGiveTheSameRegion) {
  std::vector<Vec2> skeleton = star(300, 5, 0.4, 2);
  const AreaMoments counter_clockwise = curve_moments(skeleton, true, 0.05);
  std::reverse(skeleton.begin(), skeleton.end());
  expect_same_moments(curve_moments(skeleton, true, 0.05), counter_clockwise, 1e-13);
}

TEST(OffsetCurve, ASlotNarrowerThanTheDiskClosesIntoAHole) {
  // A ring of 1.0 outer, 0.6 inner radius, cut open by a slot 0.1 wide:
  // the disk of radius 0.08 bridges the slot and leaves the inside a hole.
  std::vector<Vec2> c;
  const int n = 200;
  const double gap = std::asin(0.05);
  for (int k = 0; k <= n; ++k) {
    const double a = gap + (2.0 * kPi - 2.0 * gap) * k / n;
    c.push_back({std::cos(a), std::sin(a)});
  }
  const double inner_gap = std::asin(0.05 / 0.6);
  for (int k = n; k >= 0; --k) {
    const double a = inner_gap + (2.0 * kPi - 2.0 * inner_gap) * k / n;
    c.push_back({0.6 * std::cos(a), 0.6 * std::sin(a)});
  }
  ASSERT_LT(first_self_intersection(c).first, 0);
  const double r = 0.08;
  const auto regions = offset_curve_region(c, true, r);
  ASSERT_TRUE(regions.has_value());
  ASSERT_EQ(regions->size(), 1u);
  EXPECT_EQ(regions->front().holes.size(), 1u);
  EXPECT_LT(integrate(regions->front().holes.front()).area, 0.0);
  expect_same_moments(integrate(*regions), integrate(dilate_polygon(c, r)), kAsExact);
}

TEST(OffsetCurve, PathsAgreeWithTheExactOffset) {
  std::vector<Vec2> zigzag, spiral;
  for (int k = 0; k < 120; ++k) zigzag.push_back({0.01 * k, k % 2 == 0 ? 0.0 : 0.013});
  for (int k = 0; k < 120; ++k) {
    const double a = 0.1 * k;
    spiral.push_back({(0.2 + 0.01 * a) * std::cos(a), (0.2 + 0.01 * a) * std::sin(a)});
  }
  for (const double r : {0.004, 0.03}) {
    SCOPED_TRACE(r);
    expect_same_moments(curve_moments(zigzag, false, r), integrate(dilate_path(zigzag, r)), kAsExact);
    expect_same_moments(curve_moments(spiral, false, r), integrate(dilate_path(spiral, r)), kAsExact);
  }
}

TEST(OffsetCurve, StraightVerticesChangeNothing) {
  // A square of side 1 with 100 vertices along each side: s² + 4 s r + π r².
  std::vector<Vec2> square;
  for (const auto& [corner, along] :
       std::vector<std::pair<Vec2, Vec2>>{{{0, 0}, {1, 0}}, {{1, 0}, {0, 1}}, {{1, 1}, {-1, 0}}, {{0, 1}, {0, -1}}})
    for (int k = 0; k < 100; ++k) square.push_back(corner + (k / 100.0) * along);
  const double r = 0.1;
  const AreaMoments m = curve_moments(square, true, r);
  EXPECT_NEAR(m.area, 1.0 + 4.0 * r + kPi * r * r, 1e-12);
  EXPECT_NEAR(m.centroid().x, 0.5, 1e-12);
  EXPECT_NEAR(m.centroid().y, 0.5, 1e-12);
}

TEST(OffsetCurve, LeavesWhatItCannotDecideToTheExactOffsets) {
  // A path that folds back along itself: its sides run along each other.
  const std::vector<Vec2> fold{{0, 0}, {1, 0}, {0.5, 0}, {0.5, 1}};
  EXPECT_FALSE(offset_curve_region(fold, false, 0.1).has_value());
  // A polygon that crosses itself is no skeleton.
  const std::vector<Vec2> bow{{0, 0}, {1, 1}, {1, 0}, {0, 1}};
  EXPECT_FALSE(offset_curve_region(bow, true, 0.1).has_value());
  const std::vector<Vec2> repeated{{0, 0}, {1, 0}, {1, 0}, {0, 1}};
  EXPECT_FALSE(offset_curve_region(repeated, true, 0.1).has_value());
}

// Random skeletons at random radii, from far below an edge to far above
// it: the curve's region agrees with CGAL's, or it leaves the skeleton to
// CGAL (rarely: near-degenerate crossings).
TEST(OffsetCurve, RandomSkeletonsAgreeWithTheExactOffset) {
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int decided = 0, tried = 0;
  for (int k = 0; k < 30; ++k) {
    const int n = 20 + static_cast<int>(100 * unit(random)), lobes = 2 + static_cast<int>(9 * unit(random));
    const double r = std::pow(10.0, -3.0 + 2.7 * unit(random));
    SCOPED_TRACE("star " + std::to_string(k) + ": " + std::to_string(n) + " vertices, r " + std::to_string(r));
    const std::vector<Vec2> skeleton = star(n, lobes, 0.6 * unit(random), static_cast<unsigned>(k));
    if (first_self_intersection(skeleton).first >= 0) continue;
    ++tried;
    const auto regions = offset_curve_region(skeleton, true, r);
    if (!regions) continue;
    ++decided;
    expect_same_moments(integrate(*regions), integrate(dilate_polygon(skeleton, r)), kAsExact);
  }
  for (int k = 0; k < 12; ++k) {
    std::vector<Vec2> walk{{0, 0}};
    const int n = 5 + static_cast<int>(30 * unit(random));
    for (int j = 1; j < n; ++j) {
      const double angle = 2.0 * kPi * unit(random), step = 0.05 + 0.3 * unit(random);
      walk.push_back(walk.back() + step * Vec2{std::cos(angle), std::sin(angle)});
    }
    const double r = 0.01 + 0.2 * unit(random);
    SCOPED_TRACE("walk " + std::to_string(k) + ": " + std::to_string(n) + " vertices, r " + std::to_string(r));
    ++tried;
    const auto regions = offset_curve_region(walk, false, r);
    if (!regions) continue;
    ++decided;
    expect_same_moments(integrate(*regions), integrate(dilate_path(walk, r)), kAsExact);
  }
  EXPECT_GE(decided, tried - 2) << decided << " of " << tried << " decided";
}

TEST(OffsetCurve, ManyVertexShapesTakeItsRegionAndSayWhy) {
  Shape shape = make_shape("star", SkeletonKind::polygon, star(2000, 40, 0.3, 3), 0.01);
  const MassProperties p = mass_properties(shape);
  EXPECT_EQ(mass_properties_method(shape), "offset curve + Green");
  const AreaMoments exact = integrate(dilate_polygon(shape.vertices, shape.radius));
  EXPECT_NEAR(p.area, exact.area, kAsExact * exact.area);
  EXPECT_NEAR(p.polar_moment, exact.central_second(), kAsExact * exact.central_second());
  // Its outline is one counter-clockwise loop.
  const std::vector<Region> outline = swept_region(shape);
  ASSERT_EQ(outline.size(), 1u);
  EXPECT_GT(integrate(outline.front().outer).area, 0.0);
}

}  // namespace
}  // namespace sphero
