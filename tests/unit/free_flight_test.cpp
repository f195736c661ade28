#include "triangulation/free_flight.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <random>

#include "geometry/segment.h"

namespace sphero {
namespace {

// The first t in (0, h] where f falls to zero or below, found by sampling
// the exact motion finely and bisecting: the reference for the roots.
std::optional<double> brute_force_first_zero(const std::function<double(double)>& f, double h) {
  constexpr int kSamples = 50000;
  double previous = 0.0;
  for (int k = 1; k <= kSamples; ++k) {
    const double t = h * k / kSamples;
    if (f(t) <= 0.0) {
      double a = previous, b = t;
      for (int i = 0; i < 80; ++i) {
        const double m = 0.5 * (a + b);
        (f(m) > 0.0 ? a : b) = m;
      }
      return b;
    }
    previous = t;
  }
  return std::nullopt;
}

FreeFlight random_flight(std::mt19937_64& random, Vec2 around) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  FreeFlight f;
  f.position = around + Vec2{0.3 * unit(random), 0.3 * unit(random)};
  f.velocity = {5.0 * unit(random), 5.0 * unit(random)};
  f.acceleration = {0.0, -9.81};
  f.angular_velocity = 2.0 * unit(random);  // ωh ≤ 0.2 over the horizon below
  return f;
}

constexpr double kHorizon = 0.1;

TEST(FreeFlight, ThePolynomialPathStaysWithinItsErrorBoundOfTheExactOne) {
  FreeFlight f;
  f.position = {1.0, 2.0};
  f.velocity = {0.5, -0.3};
  f.acceleration = {0.0, -9.81};
  f.angular_velocity = 40.0;
  const Vec2 arm{0.3, -0.2};
  for (int degree : {2, 4, 6}) {
    const PointPath path = point_path(f, arm, 0.05, degree);
    double worst = 0.0;
    for (int k = 0; k <= 100; ++k) {
      const double t = 0.05 * k / 100;
      worst = std::max(worst, norm(path.at(t) - f.point_at(arm, t)));
    }
    EXPECT_LE(worst, path.error) << "degree " << degree;
    EXPECT_GT(worst, 0.01 * path.error) << "degree " << degree << ": the bound is far from sharp";
  }
}

// Two vertices of rotating, falling bodies: the first time they come within
// the sum of the sphero-radii, against the exact motion.
TEST(FreeFlight, PointContactTimesMatchBruteForceOnTheExactMotion) {
  std::mt19937_64 random(3);
  int touched = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const FreeFlight a = random_flight(random, {0.0, 0.0}), b = random_flight(random, {0.5, 0.0});
    const Vec2 arm_a{0.2, 0.1}, arm_b{-0.15, 0.05};
    const double reach = 0.1;
    const auto exact = [&](double t) { return norm(a.point_at(arm_a, t) - b.point_at(arm_b, t)) - reach; };
    if (!(exact(0.0) > 0.0)) continue;
    const auto expected = brute_force_first_zero(exact, kHorizon);
    const auto found =
        first_touch_of_points(point_path(a, arm_a, kHorizon), point_path(b, arm_b, kHorizon), reach, kHorizon);
    ASSERT_EQ(expected.has_value(), found.has_value()) << "trial " << trial;
    if (!found) continue;
    EXPECT_NEAR(*found, *expected, 1e-8) << "trial " << trial;
    ++touched;
  }
  EXPECT_GT(touched, 15);
}

// A vertex of one body against an edge of another, its foot on the edge.
TEST(FreeFlight, EdgeContactTimesMatchBruteForceOnTheExactMotion) {
  std::mt19937_64 random(4);
  int touched = 0, beyond_an_end_first = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const FreeFlight a = random_flight(random, {0.0, 0.0}), b = random_flight(random, {0.0, 0.5});
    const Vec2 arm_p{0.1, 0.05}, arm_start{-0.4, -0.1}, arm_end{0.4, -0.1};
    const double reach = 0.08;
    // The distance to the edge's line where the foot is on the edge;
    // positive elsewhere (the ends are other features).
    const auto exact = [&](double t) {
      const Vec2 p = a.point_at(arm_p, t), s = b.point_at(arm_start, t), e = b.point_at(arm_end, t);
      const Vec2 along = e - s;
      const double foot = dot(p - s, along) / norm2(along);
      if (foot < 0.0 || foot > 1.0) return 1.0;
      return std::abs(cross(along, p - s)) / norm(along) - reach;
    };
    const Vec2 p0 = a.point_at(arm_p, 0.0), s0 = b.point_at(arm_start, 0.0), e0 = b.point_at(arm_end, 0.0);
    if (!(std::abs(cross(e0 - s0, p0 - s0)) / norm(e0 - s0) > reach)) continue;
    const auto expected = brute_force_first_zero(exact, kHorizon);
    const auto found = first_touch_of_point_and_edge(point_path(a, arm_p, kHorizon), point_path(b, arm_start, kHorizon),
                                                     point_path(b, arm_end, kHorizon), reach, kHorizon);
    ASSERT_EQ(expected.has_value(), found.has_value()) << "trial " << trial;
    if (!found) continue;
    EXPECT_NEAR(*found, *expected, 1e-8) << "trial " << trial;
    ++touched;
    beyond_an_end_first += distance_to_segment(p0, s0, e0) > std::abs(cross(e0 - s0, p0 - s0)) / norm(e0 - s0) + 1e-12;
  }
  EXPECT_GT(touched, 15);
  EXPECT_GE(beyond_an_end_first, 2);  // the foot-off-the-edge branch was taken
}

// Three vertices of three bodies in flight: the instant their triangle
// flattens — when the triangulation flips an edge — against the exact motion.
TEST(FreeFlight, FlatteningTimesMatchBruteForceOnTheExactMotion) {
  std::mt19937_64 random(5);
  int flattened = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const FreeFlight a = random_flight(random, {0.0, 0.0}), b = random_flight(random, {0.6, 0.0}),
                     c = random_flight(random, {0.3, 0.15});
    const Vec2 arm_a{0.1, 0.0}, arm_b{0.0, 0.1}, arm_c{-0.05, 0.05};
    const auto area = [&](double t) {
      const Vec2 p = a.point_at(arm_a, t), q = b.point_at(arm_b, t), r = c.point_at(arm_c, t);
      return cross(q - p, r - p);
    };
    if (!(area(0.0) > 0.0)) continue;
    const auto expected = brute_force_first_zero(area, kHorizon);
    const auto found = first_flattening(
        point_path(a, arm_a, kHorizon), point_path(b, arm_b, kHorizon), point_path(c, arm_c, kHorizon), kHorizon);
    ASSERT_EQ(expected.has_value(), found.has_value()) << "trial " << trial;
    if (!found) continue;
    EXPECT_NEAR(*found, *expected, 1e-8) << "trial " << trial;
    ++flattened;
  }
  EXPECT_GT(flattened, 15);
}

}  // namespace
}  // namespace sphero
