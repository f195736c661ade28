// Stress and force chains against answers computed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "analysis/chains/force_chains.h"
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

Stress uniaxial(double s, Vec2 d) { return {s * d.x * d.x, s * d.x * d.y, s * d.y * d.x, s * d.y * d.y}; }

TEST(ForceChains, ALoadedColumnInAWeakMatrixIsOneChain) {
  // A 7 × 7 lattice; the middle column (x = 3) carries a strong vertical
  // load, the rest a weak load in assorted directions.
  const int n = 7;
  std::vector<Stress> stress;
  for (int i = 0; i < n * n; ++i) {
    const int x = i % n;
    const double turn = 0.7 * i;
    stress.push_back(x == 3 ? uniaxial(10.0, {0, 1}) : uniaxial(1.0, {std::cos(turn), std::sin(turn)}));
  }
  std::vector<ParticleContact> contacts;
  for (int i = 0; i < n * n; ++i) {
    if (i % n + 1 < n) contacts.push_back({i, i + 1, {1, 0}});
    if (i + n < n * n) contacts.push_back({i, i + n, {0, 1}});
  }
  const ChainStatistics chains = find_force_chains(stress, contacts);
  ASSERT_EQ(chains.chains.size(), 1u);
  const ForceChain& chain = chains.chains[0];
  ASSERT_EQ(chain.particles.size(), 7u);
  for (std::size_t k = 0; k < 7; ++k) EXPECT_EQ(chain.particles[k] % n, 3);
  EXPECT_NEAR(chain.length, 6.0, 1e-12);
  EXPECT_NEAR(chain.mean_stress, 10.0, 1e-12);
  EXPECT_NEAR(std::abs(chain.orientation.y), 1.0, 1e-12);
  EXPECT_NEAR(chains.mean_orientation_degrees, 90.0, 1e-9);
  EXPECT_NEAR(chains.fraction_in_chains, 7.0 / 49.0, 1e-12);
  EXPECT_EQ(chains.chain_of[3], 0);
  EXPECT_EQ(chains.chain_of[0], -1);
}

TEST(ForceChains, UniformForcesMakeNoChains) {
  const int n = 5;
  std::vector<Stress> stress(n * n, uniaxial(2.0, {1, 0}));
  std::vector<ParticleContact> contacts;
  for (int i = 0; i + 1 < n * n; ++i) contacts.push_back({i, i + 1, {1, 0}});
  EXPECT_TRUE(find_force_chains(stress, contacts).chains.empty());  // nobody exceeds the mean
}

TEST(ForceChains, AContactTooFarFromTheMajorDirectionBreaksTheChain) {
  // Three strong particles in a row along x, but loaded along y: the contact
  // direction is 90° from the major direction: no links.
  std::vector<Stress> stress{uniaxial(9, {0, 1}), uniaxial(9, {0, 1}), uniaxial(9, {0, 1}), uniaxial(1, {1, 0}),
                             uniaxial(1, {1, 0})};
  std::vector<ParticleContact> contacts{{0, 1, {1, 0}}, {1, 2, {1, 0}}};
  EXPECT_TRUE(find_force_chains(stress, contacts).chains.empty());
  // Within tolerance (40° off): linked.
  const Vec2 tilted{std::cos(40.0 * std::numbers::pi / 180), std::sin(40.0 * std::numbers::pi / 180)};
  for (int k = 0; k < 3; ++k) stress[static_cast<std::size_t>(k)] = uniaxial(9, tilted);
  EXPECT_EQ(find_force_chains(stress, contacts).chains.size(), 1u);
  EXPECT_TRUE(find_force_chains(stress, contacts, 30.0).chains.empty());
}

}  // namespace
}  // namespace sphero::analysis

#include "analysis/frame_analysis.h"

namespace sphero::analysis {
namespace {

// A square lattice of touching disks (radius R), each pressed by its four
// neighbours with force F, as a frame a run would have written.
FrameData lattice_frame(int n, double R, double F) {
  FrameData f;
  for (int i = 0; i < n * n; ++i) {
    const Vec2 c{R + 2 * R * (i % n), R + 2 * R * (i / n)};
    std::vector<ContactOnParticle> contacts;
    for (Vec2 u : {Vec2{1, 0}, Vec2{-1, 0}, Vec2{0, 1}, Vec2{0, -1}}) contacts.push_back({c + R * u, -F * u});
    const double a = std::numbers::pi * R * R;
    const Stress s = love_weber(c, contacts, a);
    f.particles.push_back({100 + i, c, a, {s.xx, s.xy, s.yx, s.yy}, 4});
    std::vector<Vec2> outline;
    for (int k = 0; k < 64; ++k)
      outline.push_back(c + R * Vec2{std::cos(2 * std::numbers::pi * k / 64), std::sin(2 * std::numbers::pi * k / 64)});
    f.outlines.push_back(outline);
    if (i % n + 1 < n) f.pairs.push_back({100 + i, 101 + i, {2 * R, 0}, {1, 0}, {-F, 0}, F});
    if (i + n < n * n) f.pairs.push_back({100 + i, 100 + i + n, {0, 2 * R}, {0, 1}, {0, -F}, F});
  }
  return f;
}

TEST(FrameAnalysis, LatticeOfTouchingDisksHasTheClosedFormStressAndVoidRatio) {
  const int n = 6;
  const double R = 0.5, F = 3.0;
  Window box{Window::Kind::rectangle, 0, 0, 2 * R * n, 2 * R * n, {}, 0.0};
  const FrameSummary s = analyze_frame(lattice_frame(n, R, F), {box});
  EXPECT_NEAR(s.stress.xx, F / (2 * R), 1e-12);
  EXPECT_NEAR(s.stress.yy, F / (2 * R), 1e-12);
  EXPECT_NEAR(s.pressure, F / (2 * R), 1e-12);
  EXPECT_NEAR(s.deviator, 0.0, 1e-12);
  EXPECT_NEAR(s.packing_fraction, std::numbers::pi / 4, 1e-12);
  EXPECT_NEAR(s.void_ratio, 4 / std::numbers::pi - 1, 1e-12);
  EXPECT_EQ(s.particles, n * n);
  EXPECT_DOUBLE_EQ(s.coordination, 4.0);
  EXPECT_TRUE(s.chains.chains.empty());  // uniform: nobody above the mean
  // As many horizontal as vertical contacts: an isotropic fabric.
  EXPECT_NEAR(s.fabric_xx, 0.5, 1e-12);
  EXPECT_NEAR(s.fabric_yy, 0.5, 1e-12);
  EXPECT_NEAR(s.fabric_xy, 0.0, 1e-12);
  EXPECT_NEAR(s.anisotropy, 0.0, 1e-12);
  // Only the vertical contacts: every normal along y, anisotropy 2.
  FrameData columns = lattice_frame(n, R, F);
  std::erase_if(columns.pairs, [](const PairRecord& p) { return p.normal.x != 0.0; });
  const FrameSummary c = analyze_frame(columns, {box});
  EXPECT_NEAR(c.fabric_yy, 1.0, 1e-12);
  EXPECT_NEAR(c.anisotropy, 2.0, 1e-12);
  // The default window is the box around the outlines: the same here.
  EXPECT_NEAR(analyze_frame(lattice_frame(n, R, F), {}).packing_fraction, std::numbers::pi / 4, 1e-3);
  // A circular window holding the middle four disks' centres.
  Window circle;
  circle.kind = Window::Kind::circle;
  circle.centre = {3.0, 3.0};
  circle.radius = 0.75;
  EXPECT_EQ(analyze_frame(lattice_frame(n, R, F), {circle}).particles, 4);
}

TEST(FrameAnalysis, OrientationRosesAndCoordinationDistributionOfTheLattice) {
  const int n = 6;
  const double R = 0.5, F = 3.0;
  AnalysisOptions o;
  o.rose_bins = 18;  // 10° each: normals along x fall in bin 0, along y in bin 9
  const FrameSummary s = analyze_frame(lattice_frame(n, R, F), o);
  const double bin = std::numbers::pi / 18;
  for (int k = 0; k < 18; ++k) {
    const bool occupied = k == 0 || k == 9;
    EXPECT_NEAR(s.normal_density[static_cast<std::size_t>(k)], occupied ? 0.5 / bin : 0.0, 1e-12) << "bin " << k;
    EXPECT_NEAR(s.mean_normal_force[static_cast<std::size_t>(k)], occupied ? F : 0.0, 1e-12) << "bin " << k;
  }
  double integral = 0.0;
  for (double d : s.normal_density) integral += d * bin;
  EXPECT_NEAR(integral, 1.0, 1e-12);
  ASSERT_EQ(s.coordination_distribution.size(), 5u);  // z = 0 … 4
  EXPECT_DOUBLE_EQ(s.coordination_distribution[4], 1.0);
  EXPECT_DOUBLE_EQ(s.coordination_distribution[3], 0.0);
}

TEST(FrameAnalysis, IsotropicNormalsHaveAFlatRoseAtOneOverPi) {
  FrameData f = lattice_frame(2, 0.5, 1.0);
  f.pairs.clear();
  std::mt19937 random(3);
  std::uniform_real_distribution<double> angle(0.0, 2 * std::numbers::pi);
  for (int k = 0; k < 200000; ++k) {
    const double a = angle(random);
    f.pairs.push_back({100, 101, {1, 0}, {std::cos(a), std::sin(a)}, {}, 1.0});
  }
  AnalysisOptions o;
  o.rose_bins = 12;
  const FrameSummary s = analyze_frame(f, o);
  // 200000 normals in 12 bins: each bin's count is binomial, relative σ ≈ 0.7%.
  for (double d : s.normal_density) EXPECT_NEAR(d, 1.0 / std::numbers::pi, 0.035 / std::numbers::pi);
  EXPECT_LT(s.anisotropy, 0.02);
}

}  // namespace
}  // namespace sphero::analysis

#include <random>

#include "analysis/energy/energy_statistics.h"

namespace sphero::analysis {
namespace {

TEST(EnergyStatistics, MaxwellBoltzmannForThreeDegreesOfFreedomIsANormalisedDensityWithMeanOne) {
  double total = 0.0, mean = 0.0;
  const double d = 1e-4;
  for (double e = d / 2; e < 40.0; e += d) {
    total += maxwell_boltzmann_three_dof(e) * d;
    mean += e * maxwell_boltzmann_three_dof(e) * d;
  }
  EXPECT_NEAR(total, 1.0, 1e-6);
  EXPECT_NEAR(mean, 1.0, 1e-6);
}

TEST(EnergyStatistics, EquipartitionedEnergiesFollowTheMaxwellBoltzmannHistogram) {
  // E = ½ m (vx² + vy²) + ½ I ω² with each component Gaussian: three
  // quadratic degrees of freedom.
  std::mt19937_64 g(12);
  std::normal_distribution<double> gauss;
  std::vector<std::vector<double>> snapshots(20);
  for (auto& s : snapshots)
    for (int k = 0; k < 2000; ++k) {
      const double a = gauss(g), b = gauss(g), c = gauss(g);
      s.push_back(0.5 * (a * a + b * b + c * c));
    }
  const EnergyHistogram h = kinetic_energy_histogram(snapshots, 50, 5.0);
  EXPECT_EQ(h.samples, 40000);
  for (std::size_t b = 2; b < 30; ++b) EXPECT_NEAR(h.density[b], h.predicted[b], 0.06 + 0.1 * h.predicted[b]) << b;
  // Two degrees of freedom would not fit: the low-energy end differs.
  std::vector<std::vector<double>> two(1);
  for (int k = 0; k < 40000; ++k) {
    const double a = gauss(g), b = gauss(g);
    two[0].push_back(0.5 * (a * a + b * b));
  }
  const EnergyHistogram wrong = kinetic_energy_histogram(two, 50, 5.0);
  EXPECT_GT(std::abs(wrong.density[0] - wrong.predicted[0]), 0.3);
}

}  // namespace
}  // namespace sphero::analysis
