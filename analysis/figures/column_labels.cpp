#include "analysis/figures/column_labels.h"

#include <array>
#include <map>
#include <regex>
#include <utility>

namespace sphero::analysis {
namespace {

// The columns whose quantity has a name or a symbol of its own.
const std::map<std::string, ColumnMeaning>& known_columns() {
  static const std::map<std::string, ColumnMeaning> table{
      {"time_s", {"time t", "s"}},
      {"step", {"step", ""}},
      {"frame", {"frame", ""}},
      {"sigma_xx", {"σ_xx", "N/m"}},
      {"sigma_yy", {"σ_yy", "N/m"}},
      {"sigma_xy", {"σ_xy", "N/m"}},
      {"p", {"mean stress p = (σ₁ + σ₂)/2", "N/m"}},
      {"q", {"deviator q = (σ₁ − σ₂)/2", "N/m"}},
      {"packing_fraction", {"packing fraction φ", ""}},
      {"mean_local_packing_fraction", {"mean local packing fraction", ""}},
      {"void_ratio", {"void ratio e", ""}},
      {"coordination", {"coordination z", ""}},
      {"particles", {"particles", ""}},
      {"rattlers", {"rattlers", ""}},
      {"chains", {"force chains", ""}},
      {"fraction_in_chains", {"fraction of particles in chains", ""}},
      {"chain_orientation_deg", {"chain orientation", "°"}},
      {"fabric_xx", {"fabric F_xx", ""}},
      {"fabric_yy", {"fabric F_yy", ""}},
      {"fabric_xy", {"fabric F_xy", ""}},
      {"fabric_anisotropy", {"fabric anisotropy a", ""}},
      {"rotational_over_translational", {"E_rot / E_trans", ""}},
      {"deepest_overlap_so_far", {"deepest overlap so far / (r_a + r_b)", ""}},
      {"events_flown_body_steps", {"grains' steps flown by events", ""}},
      {"time_stepped_body_steps", {"grains' steps time-stepped", ""}},
      {"kinetic_translational_J", {"kinetic energy, translational", "J"}},
      {"kinetic_rotational_J", {"kinetic energy, rotational", "J"}},
      {"elastic_normal_J", {"elastic energy, normal", "J"}},
      {"elastic_tangential_J", {"elastic energy, tangential", "J"}},
      {"gravitational_J", {"gravitational energy", "J"}},
      {"mechanical_J", {"mechanical energy", "J"}},
      {"external_work_J", {"work of walls and forces W", "J"}},
      {"damping_dissipation_J", {"dissipated by damping", "J"}},
      {"sliding_dissipation_J", {"dissipated by sliding", "J"}},
      {"first_law_residual_J", {"first-law residual ΔE − W + D", "J"}},
      {"cundall", {"Cundall number", "particle-steps per CPU second"}},
  };
  return table;
}

// Unit suffixes of column names, longest first, and how the unit reads.
constexpr std::array<std::pair<const char*, const char*>, 10> kUnitSuffixes{{{"_N_per_m", "N/m"},
                                                                             {"_m_per_s", "m/s"},
                                                                             {"_kg_per_m2", "kg/m²"},
                                                                             {"_m2", "m²"},
                                                                             {"_deg", "°"},
                                                                             {"_Pa", "Pa"},
                                                                             {"_J", "J"},
                                                                             {"_N", "N"},
                                                                             {"_m", "m"},
                                                                             {"_s", "s"}}};

std::string words(std::string name) {
  for (char& c : name)
    if (c == '_') c = ' ';
  return name;
}

}  // namespace

ColumnMeaning column_meaning(const std::string& column) {
  if (const auto known = known_columns().find(column); known != known_columns().end()) return known->second;
  // A wall's columns: WALL_fx_N, WALL_load_fy_N, WALL_x_m, WALL_faceK_sigma_n, WALL_faceK_tau.
  static const std::regex wall(R"((.+?)_(load_)?(fx|fy)_N)"), position(R"((.+)_(x|y)_m)"),
      face(R"((.+)_face([0-9]+)_(sigma_n|tau))");
  std::smatch m;
  if (std::regex_match(column, m, wall))
    return {m[1].str() + (m[2].matched ? " load " : " force ") + (m[3] == "fx" ? "F_x" : "F_y"), "N"};
  if (std::regex_match(column, m, position)) return {m[1].str() + " position " + m[2].str(), "m"};
  if (std::regex_match(column, m, face))
    return {m[1].str() + " face " + m[2].str() + (m[3] == "tau" ? " shear stress τ" : " normal stress σ_n"), "N/m"};
  for (const auto& [suffix, unit] : kUnitSuffixes) {
    const std::string s = suffix;
    if (column.size() > s.size() && column.compare(column.size() - s.size(), s.size(), s) == 0)
      return {words(column.substr(0, column.size() - s.size())), unit};
  }
  return {column, ""};
}

std::string axis_label(const std::vector<std::string>& columns) {
  if (columns.empty()) return {};
  const ColumnMeaning first = column_meaning(columns.front());
  bool one_unit = true;
  for (const std::string& c : columns) one_unit = one_unit && column_meaning(c).unit == first.unit;
  // Several quantities of one unit: the legend names them, the axis says
  // what kind of quantity they are.
  static const std::map<std::string, std::string> kinds{
      {"J", "energy"}, {"N/m", "stress"}, {"N", "force"}, {"m", "length"}, {"s", "time"}, {"m/s", "velocity"}};
  if (columns.size() > 1 && one_unit && kinds.contains(first.unit))
    return kinds.at(first.unit) + " (" + first.unit + ")";
  std::string label;
  for (const std::string& c : columns) {
    const ColumnMeaning m = column_meaning(c);
    label += (label.empty() ? "" : ", ") + m.quantity;
    if (!one_unit && !m.unit.empty()) label += " (" + m.unit + ")";
  }
  if (one_unit && !first.unit.empty()) label += " (" + first.unit + ")";
  return label;
}

}  // namespace sphero::analysis
