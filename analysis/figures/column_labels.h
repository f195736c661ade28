// What a column of Sphero's tables holds, as an axis or a legend says it:
// the quantity with its symbol and, apart, its unit, from a table of the
// columns Sphero writes (analysis.csv, energy.csv, bench, coarse-graining
// profiles) and from the unit suffixes of their names (_J, _N, _m, _s,
// _N_per_m, ...). A column it does not know keeps its name.
#pragma once

#include <string>
#include <vector>

namespace sphero::analysis {

struct ColumnMeaning {
  std::string quantity;  // "σ_yy", "time t", "kinetic energy, translational"
  std::string unit;      // "N/m", "s"; empty for a number without one
};

ColumnMeaning column_meaning(const std::string& column);

// An axis label for one or more columns: the quantity and unit of one;
// for several of one unit, their kind ("stress (N/m)", "energy (J)") where
// it has one, else their quantities and the unit; each with its own unit
// where they differ.
std::string axis_label(const std::vector<std::string>& columns);

}  // namespace sphero::analysis
