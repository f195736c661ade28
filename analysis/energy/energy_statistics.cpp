#include "analysis/energy/energy_statistics.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace sphero::analysis {

double maxwell_boltzmann_three_dof(double e) {
  if (e < 0.0) return 0.0;
  const double gamma_three_halves = 0.5 * std::sqrt(std::numbers::pi);
  return std::pow(1.5, 1.5) * std::sqrt(e) * std::exp(-1.5 * e) / gamma_three_halves;
}

EnergyHistogram kinetic_energy_histogram(const std::vector<std::vector<double>>& snapshots, int bins,
                                         double max_epsilon) {
  if (bins < 1 || !(max_epsilon > 0.0)) throw std::invalid_argument("a histogram needs bins >= 1 and a positive range");
  EnergyHistogram h;
  h.bin_width = max_epsilon / bins;
  std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
  for (const auto& energies : snapshots) {
    double mean = 0.0;
    for (double e : energies) mean += e;
    if (energies.empty() || mean <= 0.0) continue;
    mean /= static_cast<double>(energies.size());
    for (double e : energies) {
      ++h.samples;
      const auto bin = static_cast<long>(e / mean / h.bin_width);
      if (bin >= 0 && bin < bins) counts[static_cast<std::size_t>(bin)] += 1.0;
    }
  }
  for (int b = 0; b < bins; ++b) {
    h.density.push_back(h.samples > 0 ? counts[static_cast<std::size_t>(b)] / (static_cast<double>(h.samples) * h.bin_width) : 0.0);
    h.predicted.push_back(maxwell_boltzmann_three_dof((b + 0.5) * h.bin_width));
  }
  return h;
}

}  // namespace sphero::analysis
