// Exact clipped areas of segment-and-arc outlines against areas known in
// closed form, and against a fine polygon clipped the plain way.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "analysis/packing/window_area.h"
#include "geometry/polygon.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero::analysis {
namespace {

constexpr double kPi = std::numbers::pi;

Window rectangle(double x0, double y0, double x1, double y1) {
  return {Window::Kind::rectangle, x0, y0, x1, y1, {}, 0.0};
}
Window circle(Vec2 centre, double radius) { return {Window::Kind::circle, 0, 0, 0, 0, centre, radius}; }

// A disk as one full-circle arc, as a point skeleton's outline is.
std::vector<BoundaryLoop> disk(Vec2 centre, double r) {
  const Vec2 east = centre + Vec2{r, 0.0};
  return {{BoundaryPiece::arc(east, east, centre, r, true)}};
}

// A square of side 2 about `centre` rounded by r: the segment-and-arc
// outline a spheropolygon has.
std::vector<BoundaryLoop> rounded_square(Vec2 centre, double r) {
  std::vector<BoundaryLoop> loops;
  const std::vector<Vec2> corners{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (const Region& region : swept_region(make_shape("square", SkeletonKind::polygon, corners, r))) {
    BoundaryLoop loop;
    for (BoundaryPiece p : region.outer) {
      p.start += centre, p.end += centre, p.centre += centre;
      loop.push_back(p);
    }
    loops.push_back(loop);
  }
  return loops;
}

TEST(WindowArea, ADiskIsCutIntoHalvesAndQuartersByTheWindowsEdges) {
  const double r = 0.7;
  EXPECT_NEAR(area_inside(disk({5, 5}, r), rectangle(0, 0, 10, 10)), kPi * r * r, 1e-14);
  EXPECT_NEAR(area_inside(disk({0, 5}, r), rectangle(0, 0, 10, 10)), kPi * r * r / 2, 1e-14);
  EXPECT_NEAR(area_inside(disk({10, 10}, r), rectangle(0, 0, 10, 10)), kPi * r * r / 4, 1e-14);
  EXPECT_NEAR(area_inside(disk({12, 5}, r), rectangle(0, 0, 10, 10)), 0.0, 1e-15);
}

TEST(WindowArea, ADiskCutByAChordLeavesTheCircularSegment) {
  // The edge x = 0 cuts a disk of radius 1 centred at x = 0.4: inside lies
  // the part x ≥ 0, the disk less the segment of height 1 − 0.4.
  const double d = 0.4;
  const double segment = std::acos(d) - d * std::sqrt(1 - d * d);  // r = 1, height 1 − d
  EXPECT_NEAR(area_inside(disk({d, 0}, 1.0), rectangle(0, -5, 5, 5)), kPi - segment, 1e-14);
}

TEST(WindowArea, ARoundedSquareHalvedThroughItsMiddleGivesHalfItsArea) {
  const double r = 0.3;
  const double whole = 4 + 4 * 2 * r + kPi * r * r;
  const auto square = rounded_square({3, 3}, r);
  EXPECT_NEAR(area_inside(square, rectangle(0, 0, 10, 10)), whole, 1e-13);
  EXPECT_NEAR(area_inside(square, rectangle(3, 0, 10, 10)), whole / 2, 1e-13);
  EXPECT_NEAR(area_inside(square, rectangle(3, 3, 10, 10)), whole / 4, 1e-13);
  // A window through the flat side and the corner arc: 1 + r wide on the
  // right of x = 3, the band y ∈ [2.5, 3.5] inside the flat part.
  EXPECT_NEAR(area_inside(square, rectangle(3, 2.5, 10, 3.5)), 1.0 * (1 + r), 1e-13);
}

TEST(WindowArea, TwoCirclesOverlapByTheirLens) {
  // Disk of radius 1 at distance 1 from a circular window of radius 1: the
  // lens 2π/3 − √3/2.
  EXPECT_NEAR(area_inside(disk({1, 0}, 1.0), circle({0, 0}, 1.0)), 2 * kPi / 3 - std::sqrt(3.0) / 2, 1e-13);
  EXPECT_NEAR(area_inside(disk({0.2, 0.1}, 0.5), circle({0, 0}, 3.0)), kPi * 0.25, 1e-14);
}

TEST(WindowArea, AWindowInsideAParticleIsCoveredWhole) {
  EXPECT_NEAR(area_inside(disk({0, 0}, 10.0), rectangle(-1, -2, 1, 2)), 8.0, 1e-12);
  EXPECT_NEAR(area_inside(disk({0, 0}, 10.0), circle({1, 1}, 2.0)), 4 * kPi, 1e-12);
  // A hole (clockwise loop) round the window takes it out again.
  auto ring = disk({0, 0}, 10.0);
  const auto hole = disk({0, 0}, 5.0);
  ring.push_back(reversed(hole[0]));
  EXPECT_NEAR(area_inside(ring, rectangle(-1, -2, 1, 2)), 0.0, 1e-12);
  EXPECT_NEAR(area_inside(ring, rectangle(-100, -100, 100, 100)), kPi * 75, 1e-11);
}

// The polygon part of `loop` inside an axis-aligned rectangle.
double clipped_polygon_area(std::vector<Vec2> polygon, const Window& w) {
  const auto clip = [&](Vec2 normal, double offset) {
    std::vector<Vec2> out;
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      const Vec2 a = polygon[i], b = polygon[(i + 1) % polygon.size()];
      const double da = dot(a, normal) - offset, db = dot(b, normal) - offset;
      if (da <= 0) out.push_back(a);
      if ((da < 0 && db > 0) || (da > 0 && db < 0)) out.push_back(a + (da / (da - db)) * (b - a));
    }
    polygon = out;
  };
  clip({-1, 0}, -w.x0), clip({1, 0}, w.x1), clip({0, -1}, -w.y0), clip({0, 1}, w.y1);
  return polygon.size() < 3 ? 0.0 : signed_area(polygon);
}

TEST(WindowArea, ACowCutAnywhereAgreesWithAFinePolygonOfItsOutline) {
  const Shape cow = read_shape_file(std::string(SPHERO_DATA_DIR) + "/shapes/cow.shape");
  const std::vector<Region> regions = swept_region(cow);
  ASSERT_EQ(regions.size(), 1u);
  const std::vector<BoundaryLoop> loops{regions[0].outer};
  const std::vector<Vec2> fine = discretise(regions[0].outer, 1 << 16);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> across(-2.0, 2.0);
  for (int trial = 0; trial < 50; ++trial) {
    const double x = across(random), y = across(random);
    const Window w = rectangle(x, y, x + 1.5 + std::abs(across(random)), y + 1.0 + std::abs(across(random)));
    // The 2^16-gon falls short of each arc by r²(1 − sinc) ~ r² (2π/2^16)²/6 per radian.
    EXPECT_NEAR(area_inside(loops, w), clipped_polygon_area(fine, w), 1e-9) << "window " << trial;
  }
  EXPECT_NEAR(area_inside(loops, rectangle(-10, -10, 10, 10)), mass_properties(cow).area, 1e-12);
}

}  // namespace
}  // namespace sphero::analysis
