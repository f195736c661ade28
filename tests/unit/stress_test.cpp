// Love–Weber stress and its principal values against answers computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "engine/stress.h"

namespace sphero::analysis {
namespace {

using sphero::Stress;

TEST(Stress, SquareLatticeOfDisksUnderUniformCompressionIsIsotropic) {
  // n × n disks of radius R on a square lattice, each pressed by its four
  // neighbours with force F at its rim: σ = F / (2R) in every direction
  // (force per unit length along each row), compression positive.
  const int n = 6;
  const double R = 0.5, F = 3.0;
  std::vector<Stress> stress;
  std::vector<double> area;
  for (int i = 0; i < n * n; ++i) {
    const Vec2 c{2 * R * (i % n), 2 * R * (i / n)};
    std::vector<ContactOnParticle> contacts;
    for (Vec2 u : {Vec2{1, 0}, Vec2{-1, 0}, Vec2{0, 1}, Vec2{0, -1}}) contacts.push_back({c + R * u, -F * u});
    const double a = std::numbers::pi * R * R;
    stress.push_back(love_weber(c, contacts, a));
    area.push_back(a);
  }
  const Stress sample = average_stress(stress, area, n * n * (2 * R) * (2 * R));
  EXPECT_NEAR(sample.xx, F / (2 * R), 1e-12);
  EXPECT_NEAR(sample.yy, F / (2 * R), 1e-12);
  EXPECT_NEAR(sample.xy, 0.0, 1e-12);
  EXPECT_NEAR(sample.pressure(), F / (2 * R), 1e-12);
  EXPECT_NEAR(sample.deviator(), 0.0, 1e-12);
}

TEST(Stress, PrincipalValuesAndMajorDirectionOfARotatedUniaxialStress) {
  // Uniaxial compression s along 30°: σ = s d ⊗ d.
  const double s = 5.0, angle = std::numbers::pi / 6;
  const Vec2 d{std::cos(angle), std::sin(angle)};
  const Stress t{s * d.x * d.x, s * d.x * d.y, s * d.y * d.x, s * d.y * d.y};
  EXPECT_NEAR(t.principal()[0], s, 1e-12);
  EXPECT_NEAR(t.principal()[1], 0.0, 1e-12);
  EXPECT_NEAR(std::abs(dot(t.major_direction(), d)), 1.0, 1e-12);
  EXPECT_NEAR(t.pressure(), s / 2, 1e-12);
  EXPECT_NEAR(t.deviator(), s / 2, 1e-12);
}

}  // namespace
}  // namespace sphero::analysis
