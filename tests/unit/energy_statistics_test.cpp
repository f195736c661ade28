// Kinetic-energy statistics against Maxwell–Boltzmann.
#include <gtest/gtest.h>

#include <cmath>
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
