// The files `sphero analyze` writes into a run's directory, named once: the
// analysis writes them, and `sphero run --overwrite` clears them as stale.
#pragma once

#include <fmt/format.h>

#include <string>

namespace sphero::app {

inline constexpr const char* kAnalysisTable = "analysis.csv";
inline constexpr const char* kCoordinationTable = "coordination.csv";
inline constexpr const char* kRosesTable = "roses.csv";
inline constexpr const char* kShapesTable = "shapes.csv";
inline constexpr const char* kKineticEnergyHistogram = "ke_histogram.csv";
inline constexpr const char* kForceDistribution = "force_distribution.csv";
inline std::string chains_file(int frame) { return fmt::format("chains_{:05d}.csv", frame); }

// `sphero coarse-grain`'s: fields_NNNNN.vti or fields_mean.vti, and their collection.
inline bool is_fields_file(const std::string& name) {
  const bool vti = name.size() > 11 && name.rfind("fields_", 0) == 0 && name.compare(name.size() - 4, 4, ".vti") == 0;
  return vti || name == "fields.pvd" || name == "fields_mean.pvd";
}

inline bool is_analysis_file(const std::string& name) {
  return is_fields_file(name) || name == kAnalysisTable || name == kCoordinationTable || name == kRosesTable ||
         name == kShapesTable || name == kKineticEnergyHistogram || name == kForceDistribution ||
         (name.rfind("chains_", 0) == 0 && name.size() > 4 && name.compare(name.size() - 4, 4, ".csv") == 0);
}

}  // namespace sphero::app
