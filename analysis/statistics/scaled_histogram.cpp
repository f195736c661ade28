#include "analysis/statistics/scaled_histogram.h"

#include <stdexcept>

namespace sphero::analysis {

ScaledHistogram scaled_histogram(const std::vector<std::vector<double>>& snapshots, int bins, double max_ratio) {
  if (bins < 1 || !(max_ratio > 0.0)) throw std::invalid_argument("a histogram needs bins >= 1 and a positive range");
  ScaledHistogram h;
  h.bin_width = max_ratio / bins;
  std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
  for (const auto& values : snapshots) {
    double mean = 0.0;
    for (double v : values) mean += v;
    if (values.empty() || mean <= 0.0) continue;
    mean /= static_cast<double>(values.size());
    for (double v : values) {
      ++h.samples;
      const auto bin = static_cast<long>(v / mean / h.bin_width);
      if (bin >= 0 && bin < bins) counts[static_cast<std::size_t>(bin)] += 1.0;
    }
  }
  for (double count : counts)
    h.density.push_back(h.samples > 0 ? count / (static_cast<double>(h.samples) * h.bin_width) : 0.0);
  return h;
}

}  // namespace sphero::analysis
