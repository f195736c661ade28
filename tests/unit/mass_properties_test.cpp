// Mass properties of spheropolygons: closed forms, the exact (CGAL + Green)
// method, and quasi-random Monte Carlo as the independent check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "geometry/polygon.h"
#include "geometry/segment.h"
#include "morphology/minkowski.h"
#include "morphology/region.h"
#include "shapes/mass_properties.h"
#include "shapes/monte_carlo.h"
#include "shapes/shape.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

constexpr double kPi = std::numbers::pi;

Shape polygon(std::vector<Vec2> v, double r) { return make_shape("test", SkeletonKind::polygon, std::move(v), r); }

void expect_same(const MassProperties& a, const MassProperties& b, double tolerance) {
  EXPECT_NEAR(a.area, b.area, tolerance * b.area);
  EXPECT_NEAR(a.centroid.x, b.centroid.x, tolerance * std::sqrt(b.area));
  EXPECT_NEAR(a.centroid.y, b.centroid.y, tolerance * std::sqrt(b.area));
  EXPECT_NEAR(a.polar_moment, b.polar_moment, tolerance * b.polar_moment);
  EXPECT_NEAR(a.bounding_radius, b.bounding_radius, tolerance * b.bounding_radius);
}

TEST(MassProperties, DiskHasAreaPiRSquaredAndInertiaHalfMRSquared) {
  const double r = 0.7, density = 2.5;
  const Shape disk = make_shape("disk", SkeletonKind::point, {{1.0, 2.0}}, r);
  for (const MassProperties& p : {convex_mass_properties(disk), exact_mass_properties(disk)}) {
    EXPECT_NEAR(p.area, kPi * r * r, 1e-13);
    EXPECT_NEAR(p.centroid.x, 1.0, 1e-13);
    EXPECT_NEAR(p.centroid.y, 2.0, 1e-13);
    EXPECT_NEAR(p.inertia(density), 0.5 * p.mass(density) * r * r, 1e-12);
    EXPECT_DOUBLE_EQ(p.bounding_radius, r);
  }
}

TEST(MassProperties, StadiumMatchesRectanglePlusTwoHalfDisks) {
  const double L = 2.0, r = 0.3;
  const Shape rice = make_shape("rice", SkeletonKind::segment, {{-L / 2, 0.0}, {L / 2, 0.0}}, r);
  const double area = 2.0 * r * L + kPi * r * r;
  // Rectangle 2r x L about its centre, plus two half disks whose polar
  // moment about the stadium's centre is πr⁴/4 + (πr²/2)(L²/4 + 4rL/(3π)).
  const double inertia = r * L * (L * L + 4 * r * r) / 6.0 + kPi * r * r * r * r / 2.0 + kPi * r * r * L * L / 4.0 +
                         4.0 * r * r * r * L / 3.0;
  for (const MassProperties& p : {convex_mass_properties(rice), exact_mass_properties(rice)}) {
    EXPECT_NEAR(p.area, area, 1e-11);
    EXPECT_NEAR(p.centroid.x, 0.0, 1e-11);
    EXPECT_NEAR(p.centroid.y, 0.0, 1e-11);
    EXPECT_NEAR(p.polar_moment, inertia, 1e-11);
    EXPECT_DOUBLE_EQ(p.bounding_radius, L / 2 + r);
  }
}

TEST(MassProperties, RoundedSquareMatchesItsPieces) {
  const double s = 1.5, r = 0.25, h = s / 2;
  const Shape square = polygon({{-h, -h}, {h, -h}, {h, h}, {-h, h}}, r);
  const double area = s * s + 4 * s * r + kPi * r * r;
  // square + 4 edge rectangles (parallel axis at s/2 + r/2) + 4 quarter
  // disks (apex at the corners).
  const double inertia = s * s * s * s / 6.0 +
                         4.0 * (s * r * (s * s + r * r) / 12.0 + s * r * (h + r / 2) * (h + r / 2)) +
                         kPi * r * r * r * r / 2.0 + kPi * r * r * s * s / 2.0 + 8.0 * s * r * r * r / 3.0;
  for (const MassProperties& p : {convex_mass_properties(square), exact_mass_properties(square)}) {
    EXPECT_NEAR(p.area, area, 1e-11);
    EXPECT_NEAR(p.polar_moment, inertia, 1e-11);
    EXPECT_NEAR(p.centroid.x, 0.0, 1e-12);
    EXPECT_NEAR(p.bounding_radius, h * std::sqrt(2.0) + r, 1e-15);
  }
}

TEST(MassProperties, ThinBentPolylineCountsTheInnerCornerOnce) {
  // Path (0,0)-(a,0)-(a,b): two stadiums that overlap in an r x r square at
  // the inner side of the corner, plus a quarter disk at the outer side.
  const double a = 2.0, b = 1.0, r = 0.05;
  const Shape bent = make_shape("bent", SkeletonKind::polyline, {{0, 0}, {a, 0}, {a, b}}, r);
  const MassProperties p = exact_mass_properties(bent);
  EXPECT_NEAR(p.area, 2 * r * a + 2 * r * b - r * r + kPi * r * r + kPi * r * r / 4.0, 1e-11);
  EXPECT_THROW(convex_mass_properties(bent), std::invalid_argument);
  EXPECT_FALSE(bent.has_convex_skeleton());
}

// The exact offsets last made are kept: asked again, a shape gets the same
// bits; a shape with a vertex or its radius elsewhere gets its own.
TEST(MassProperties, AKeptOffsetServesOnlyTheSameShape) {
  const Shape bent = make_shape("bent", SkeletonKind::polyline, {{0, 0}, {2, 0}, {2, 1}, {0.5, 1.5}}, 0.05);
  const MassProperties first = exact_mass_properties(bent);
  const MassProperties again = exact_mass_properties(bent);
  EXPECT_EQ(again.area, first.area);
  EXPECT_EQ(again.centroid, first.centroid);
  EXPECT_EQ(again.polar_moment, first.polar_moment);
  Shape moved = bent;
  moved.vertices[3].y += 0.25;
  const MassProperties other = exact_mass_properties(moved);
  EXPECT_NE(other.area, first.area);
  Shape thicker = bent;
  thicker.radius = 0.06;
  EXPECT_GT(exact_mass_properties(thicker).area, first.area);
}

TEST(MassProperties, ParallelAxisTheoremMovesInertiaWithTheSkeleton) {
  // The second moment about the origin, integrated directly over the swept
  // region, equals the central inertia + A |c|² for the shape moved away.
  const Shape tri = polygon({{0, 0}, {3, 0}, {0.5, 2}}, 0.4);
  const MassProperties p = mass_properties(tri);
  const Vec2 offset{4.0, -2.5};
  const Shape moved = transformed(tri, offset, 0.0);
  const MassProperties q = mass_properties(moved);
  EXPECT_NEAR(q.centroid.x, p.centroid.x + offset.x, 1e-12);
  EXPECT_NEAR(q.centroid.y, p.centroid.y + offset.y, 1e-12);
  EXPECT_NEAR(q.polar_moment, p.polar_moment, 1e-11);
  const AreaMoments about_origin = integrate(dilate_polygon(moved.vertices, moved.radius));
  EXPECT_NEAR(about_origin.second, q.polar_moment + q.area * norm2(q.centroid), 1e-9);
}

// The L of three unit squares: 5 convex corners and one reflex corner
// where the edge rectangles overlap by r².
const std::vector<Vec2> kEll{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};

TEST(MassProperties, NonConvexLShapeExactAreaHasTheClosedForm) {
  const double r = 0.6;
  const MassProperties p = exact_mass_properties(polygon(kEll, r));
  EXPECT_NEAR(p.area, 3.0 + 8.0 * r + 5.0 * (kPi / 4.0) * r * r - r * r, 1e-10);
  // The naive convex decomposition would count the reflex overlap twice.
  EXPECT_THROW(convex_mass_properties(polygon(kEll, r)), std::invalid_argument);
}

TEST(MassProperties, NonConvexShapesAgreeWithMonteCarloWithinItsError) {
  const std::vector<Shape> shapes{
      polygon(kEll, 0.6),
      polygon({{0, 0}, {3, 0}, {3, 2}, {2, 2}, {2, 0.6}, {1, 0.6}, {1, 2}, {0, 2}}, 0.45),  // U, pocket closes
      make_shape("zigzag", SkeletonKind::polyline, {{0, 0}, {1, 0.8}, {2, 0}, {2.2, 1.5}}, 0.35),
      read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape"),
  };
  for (const Shape& shape : shapes) {
    SCOPED_TRACE(shape.name);
    const MassProperties exact = exact_mass_properties(shape);
    const MonteCarloEstimate mc = monte_carlo_mass_properties(shape, 40000, 16, 7);
    // 5 standard errors: a false alarm is a ~1e-6 event per quantity.
    EXPECT_NEAR(exact.area, mc.value.area, 5.0 * mc.area_error);
    EXPECT_NEAR(exact.centroid.x, mc.value.centroid.x, 5.0 * mc.centroid_error);
    EXPECT_NEAR(exact.centroid.y, mc.value.centroid.y, 5.0 * mc.centroid_error);
    EXPECT_NEAR(exact.polar_moment, mc.value.polar_moment, 5.0 * mc.polar_moment_error);
    // ...and the error bars are small enough to mean something.
    EXPECT_LT(mc.area_error, 2e-3 * exact.area);
  }
}

// A closed curve of `n` vertices wiggling about a circle (radius 1,
// amplitude a, k waves): shallow reflex turns, edges much shorter than r.
std::vector<Vec2> wiggly_circle(int n, double a, int k) {
  std::vector<Vec2> v;
  for (int i = 0; i < n; ++i) {
    const double t = 2.0 * kPi * i / n, rho = 1.0 + a * std::sin(k * t);
    v.push_back({rho * std::cos(t), rho * std::sin(t)});
  }
  return v;
}

TEST(MassProperties, MitredNonConvexPolygonsEqualTheExactRegion) {
  const std::vector<Shape> shapes{
      polygon(kEll, 0.3),                                                                  // one 90° reflex corner
      polygon({{0, 0}, {3, 0}, {3, 2}, {2, 2}, {2, 0.6}, {1, 0.6}, {1, 2}, {0, 2}}, 0.3),  // U, pocket open
      polygon({{0, 0}, {2, 0}, {2, 2}, {1.2, 1.3}, {0, 2}}, 0.1),                          // a shallow notch
      polygon({{0, 0}, {2, 0}, {2, 2}, {1.2, 1.3}, {0, 2}}, 0.0),                          // the same, sharp
      make_shape("wiggle", SkeletonKind::polygon, wiggly_circle(400, 0.05, 12), 0.05),     // r ≫ edges
      polygon({{0, 0}, {2, 0}, {2, 2}, {1.05, 0.5}, {0.95, 0.5}, {0, 2}}, 0.05),           // two 58° turns
      polygon({{0, 0}, {1, 1e-17}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 0.3),          // straight to rounding
  };
  for (const Shape& shape : shapes) {
    SCOPED_TRACE(shape.name + " r = " + std::to_string(shape.radius));
    const auto mitred = mitred_mass_properties(shape);
    ASSERT_TRUE(mitred.has_value());
    expect_same(*mitred, exact_mass_properties(shape), 1e-9);
    // Its outline: a closed loop of segments and arcs enclosing the same region.
    if (shape.radius > 0.0) {
      const auto region = mitred_swept_region(shape);
      ASSERT_TRUE(region.has_value());
      const BoundaryLoop& loop = region->outer;
      for (std::size_t k = 0; k < loop.size(); ++k)
        EXPECT_LT(norm(loop[k].end - loop[(k + 1) % loop.size()].start), 1e-12);
      const AreaMoments integral = integrate(*region);
      const MassProperties exact = exact_mass_properties(shape);
      EXPECT_NEAR(integral.area, exact.area, 1e-9 * exact.area);
      EXPECT_NEAR(integral.central_second(), exact.polar_moment, 1e-9 * exact.polar_moment);
    }
    // Clockwise (a Shape built by hand: make_shape would turn it round), the same.
    Shape clockwise = shape;
    std::reverse(clockwise.vertices.begin(), clockwise.vertices.end());
    ASSERT_LT(signed_area(clockwise.vertices), 0.0);
    expect_same(*mitred_mass_properties(clockwise), *mitred, 1e-12);
  }
  // The L's closed form: 5 quarter disks, the edge strips, less one kite r².
  const double r = 0.3;
  EXPECT_NEAR(mitred_mass_properties(polygon(kEll, r))->area, 3.0 + 8.0 * r + 5.0 * (kPi / 4.0) * r * r - r * r, 1e-12);
}

// Random star polygons (5 to 40 vertices, radii 0.5 to 1.5) at random
// sphero-radii: wherever the mitred decomposition takes one, it is the
// exact region's.
TEST(MassProperties, MitredEqualsExactOnRandomStarPolygons) {
  std::mt19937 random(17);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int taken = 0, left = 0;
  for (int k = 0; k < 200; ++k) {
    const int n = 5 + static_cast<int>(unit(random) * 36);
    std::vector<Vec2> v;
    for (int i = 0; i < n; ++i) {
      const double t = 2.0 * kPi * (i + 0.4 * unit(random)) / n, rho = 0.5 + unit(random);
      v.push_back({rho * std::cos(t), rho * std::sin(t)});
    }
    const Shape star = polygon(v, 0.001 + 0.3 * unit(random) * unit(random));
    if (star.has_convex_skeleton()) continue;
    const auto mitred = mitred_mass_properties(star);
    if (!mitred) {
      ++left;
      continue;
    }
    ++taken;
    SCOPED_TRACE("star " + std::to_string(k) + ", r = " + std::to_string(star.radius));
    expect_same(*mitred, exact_mass_properties(star), 1e-8);
  }
  EXPECT_GT(taken, 40);  // both paths exercised
  EXPECT_GT(left, 20);
}

TEST(MassProperties, PiecesThatMeetBeyondTheCornersLeaveItToTheExactRegion) {
  // The U's pocket closes (1 wide, r = 0.55): strips of facing edges meet.
  const Shape closing = polygon({{0, 0}, {3, 0}, {3, 2}, {2, 2}, {2, 0.6}, {1, 0.6}, {1, 2}, {0, 2}}, 0.55);
  EXPECT_FALSE(mitred_mass_properties(closing).has_value());
  // A reflex turn sharper than a right angle (113°, a V notch).
  const Shape notch = polygon({{0, 0}, {2, 0}, {2, 2}, {1, 0.5}, {0, 2}}, 0.05);
  EXPECT_FALSE(mitred_mass_properties(notch).has_value());
  // Kites longer than their edges (the short edges beside the step's reflex corners).
  const Shape step = polygon({{0, 0}, {3, 0}, {3, 2}, {2, 2}, {2, 1.9}, {1, 1.9}, {1, 2}, {0, 2}}, 0.2);
  EXPECT_FALSE(mitred_mass_properties(step).has_value());
  // mass_properties falls back to the exact region for each.
  // The cow's reflex corners turn by up to 154°.
  const Shape cow = read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape");
  EXPECT_FALSE(mitred_mass_properties(cow).has_value());
  for (const Shape& s : {closing, notch, step, cow}) expect_same(mass_properties(s), exact_mass_properties(s), 1e-12);
}

TEST(MassProperties, UShapeWithLargeRadiusEnclosesAHoleThatIsNotSolid) {
  // The U's pocket (1 wide, 1.4 deep) closes at its mouth for r = 0.55 > 0.5
  // while its bottom stays clear: the sweep has a hole, which the
  // integration must subtract.
  const Shape u = polygon({{0, 0}, {3, 0}, {3, 2}, {2, 2}, {2, 0.6}, {1, 0.6}, {1, 2}, {0, 2}}, 0.55);
  const MassProperties exact = exact_mass_properties(u);
  const MonteCarloEstimate mc = monte_carlo_mass_properties(u, 40000, 16, 3);
  EXPECT_NEAR(exact.area, mc.value.area, 5.0 * mc.area_error);
}

// Rounded skeletons of every convex kind.
std::vector<Shape> convex_shapes() {
  return {
      make_shape("point", SkeletonKind::point, {{0.2, -0.1}}, 0.3),
      make_shape("segment", SkeletonKind::segment, {{0, 0}, {1.2, 0.7}}, 0.15),
      polygon({{0, 0}, {1, 0}, {0.2, 0.9}}, 0.2),
      read_shape_file(SPHERO_DATA_DIR "/shapes/hexagon.shape"),
      read_shape_file(SPHERO_DATA_DIR "/shapes/polygon16.shape"),
      read_shape_file(SPHERO_DATA_DIR "/shapes/pebble.shape"),
      polygon({{0, 0}, {1, 0}, {2, 0}, {2, 1}, {0, 1}}, 0.25),  // a collinear vertex
      // a Voronoi cell's skeleton with a thin radius
      polygon({{0.31, -0.02}, {0.93, 0.11}, {1.02, 0.64}, {0.55, 1.21}, {0.12, 0.88}, {0.05, 0.3}}, 0.01),
  };
}

TEST(MassProperties, ExactEqualsAnalyticForConvexSkeletons) {
  for (const Shape& shape : convex_shapes()) {
    SCOPED_TRACE(shape.name);
    expect_same(exact_mass_properties(shape), convex_mass_properties(shape), 1e-9);
  }
}

// A rounded convex skeleton's outline is built directly, not by CGAL's
// offset: every point of it lies at exactly r from the skeleton, it runs
// counter-clockwise, and it encloses CGAL's area.
TEST(MassProperties, ConvexOutlinesAreBuiltDirectlyAndMatchCgalsOffset) {
  for (const Shape& shape : convex_shapes()) {
    SCOPED_TRACE(shape.name);
    const std::vector<Region> direct = swept_region(shape);
    ASSERT_EQ(direct.size(), 1u);
    EXPECT_TRUE(direct[0].holes.empty());
    const std::vector<Region> offset =
        shape.is_closed() ? dilate_polygon(shape.vertices, shape.radius) : dilate_path(shape.vertices, shape.radius);
    const double area = integrate(direct).area;
    EXPECT_GT(area, 0.0);  // counter-clockwise
    // CGAL's offset draws its arcs within 1e-11 of the shape's extent.
    EXPECT_NEAR(area, integrate(offset).area, 1e-11 * area);
    EXPECT_NEAR(area, convex_mass_properties(shape).area, 1e-12 * area);
    const std::vector<Vec2> drawn = discretise(direct[0].outer, 720);
    EXPECT_GT(drawn.size(), 100u);
    for (Vec2 p : drawn) {
      double nearest = INFINITY;
      if (shape.vertices.size() == 1) nearest = norm(p - shape.vertices[0]);
      for (int i = 0; i < shape.edge_count(); ++i)
        nearest = std::min(nearest, distance_to_segment(p, shape.edge_start(i), shape.edge_end(i)));
      EXPECT_NEAR(nearest, shape.radius, 1e-12);
    }
  }
}

TEST(MassProperties, InvariantUnderRotationAndTranslation) {
  for (const char* file : {"/shapes/cow.shape", "/shapes/peanut.shape", "/shapes/pebble.shape"}) {
    const Shape shape = read_shape_file(std::string(SPHERO_DATA_DIR) + file);
    SCOPED_TRACE(shape.name);
    const MassProperties p = mass_properties(shape);
    const Vec2 offset{3.5, -1.25};
    const double angle = 0.7;
    const MassProperties q = mass_properties(transformed(shape, offset, angle));
    EXPECT_NEAR(q.area, p.area, 1e-9 * p.area);
    EXPECT_NEAR(q.polar_moment, p.polar_moment, 1e-9 * p.polar_moment);
    EXPECT_NEAR(q.bounding_radius, p.bounding_radius, 1e-9 * p.bounding_radius);
    const Vec2 expected = rotated(p.centroid + offset, angle);
    EXPECT_NEAR(q.centroid.x, expected.x, 1e-9);
    EXPECT_NEAR(q.centroid.y, expected.y, 1e-9);
  }
}

TEST(MassProperties, TheCowIsAboutThreeMetresLongWithAreaAboutSixAndAHalf) {
  const Shape cow = read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape");
  EXPECT_EQ(cow.vertices.size(), 62u);
  EXPECT_FALSE(cow.has_convex_skeleton());
  double low = 1e9, high = -1e9;
  for (Vec2 v : cow.vertices) low = std::min(low, v.x), high = std::max(high, v.x);
  EXPECT_NEAR(high - low + 2 * cow.radius, 3.0, 0.2);
  EXPECT_NEAR(mass_properties(cow).area, 6.5, 0.1);
}

TEST(MassProperties, SharpPolygonIsJustThePolygon) {
  const Shape tri = polygon({{0, 0}, {4, 0}, {0, 3}}, 0.0);
  for (const MassProperties& p : {convex_mass_properties(tri), exact_mass_properties(tri)}) {
    EXPECT_DOUBLE_EQ(p.area, 6.0);
    EXPECT_NEAR(p.centroid.x, 4.0 / 3.0, 1e-15);
    EXPECT_NEAR(p.centroid.y, 1.0, 1e-15);
    // Right triangle with legs a, b: polar moment about its centroid A(a² + b²)/18.
    EXPECT_NEAR(p.polar_moment, 6.0 * 25.0 / 18.0, 1e-12);
  }
}

TEST(MassProperties, BoundingRadiusIsTheFarthestOutlinePoint) {
  const Shape tri = polygon({{0, 0}, {4, 0}, {0, 3}}, 0.5);
  const MassProperties p = mass_properties(tri);
  double farthest = 0.0;
  for (Vec2 v : tri.vertices) farthest = std::max(farthest, norm(v - p.centroid));
  EXPECT_DOUBLE_EQ(p.bounding_radius, farthest + 0.5);
}

}  // namespace
}  // namespace sphero
