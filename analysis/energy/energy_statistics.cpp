#include "analysis/energy/energy_statistics.h"

#include <cmath>
#include <numbers>

#include "analysis/statistics/scaled_histogram.h"

namespace sphero::analysis {

double maxwell_boltzmann_three_dof(double e) {
  if (e < 0.0) return 0.0;
  const double gamma_three_halves = 0.5 * std::sqrt(std::numbers::pi);
  return std::pow(1.5, 1.5) * std::sqrt(e) * std::exp(-1.5 * e) / gamma_three_halves;
}

EnergyHistogram kinetic_energy_histogram(const std::vector<std::vector<double>>& snapshots, int bins,
                                         double max_epsilon) {
  const ScaledHistogram scaled = scaled_histogram(snapshots, bins, max_epsilon);
  EnergyHistogram h{scaled.bin_width, scaled.density, {}, scaled.samples};
  for (int b = 0; b < bins; ++b) h.predicted.push_back(maxwell_boltzmann_three_dof((b + 0.5) * h.bin_width));
  return h;
}

}  // namespace sphero::analysis
