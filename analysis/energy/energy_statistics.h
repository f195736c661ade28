// Energy statistics of a granular gas (docs/MODEL.md §6): the histogram of
// per-particle kinetic energy ε = E_k / ⟨E_k⟩ against the Maxwell–Boltzmann
// form for three quadratic degrees of freedom (two translations and a
// rotation in 2D), P(ε) = (3/2)^{3/2} ε^{1/2} e^{−3ε/2} / Γ(3/2).
#pragma once

#include <vector>

namespace sphero::analysis {

// The Maxwell–Boltzmann density above, for ε = E / ⟨E⟩ >= 0.
double maxwell_boltzmann_three_dof(double epsilon);

struct EnergyHistogram {
  double bin_width = 0.0;
  std::vector<double> density;    // normalised: Σ density × width = 1 (over the range)
  std::vector<double> predicted;  // Maxwell–Boltzmann at bin centres
  long samples = 0;
};

// `snapshots` holds per-particle kinetic energies, one vector per frame;
// each is scaled by its own mean. Bins cover [0, max_epsilon).
EnergyHistogram kinetic_energy_histogram(const std::vector<std::vector<double>>& snapshots, int bins,
                                         double max_epsilon);

}  // namespace sphero::analysis
