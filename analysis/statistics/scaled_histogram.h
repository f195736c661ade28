// The distribution of a per-particle or per-contact quantity scaled by its
// mean in each frame (x / ⟨x⟩), pooled over frames: the form in which
// kinetic-energy and contact-force distributions are compared across
// frames and with theory (docs/MODEL.md §6).
#pragma once

#include <vector>

namespace sphero::analysis {

struct ScaledHistogram {
  double bin_width = 0.0;
  std::vector<double> density;  // normalised: Σ density × width = 1 over all samples (some may lie beyond the range)
  long samples = 0;
};

// `snapshots`: the values of each frame; each frame is scaled by its own
// mean (frames whose mean is not positive are skipped). Bins cover
// [0, max_ratio). Throws std::invalid_argument for no bins or no range.
ScaledHistogram scaled_histogram(const std::vector<std::vector<double>>& snapshots, int bins, double max_ratio);

}  // namespace sphero::analysis
