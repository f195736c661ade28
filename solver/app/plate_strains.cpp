#include "app/plate_strains.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <utility>

#include "io/frame_reader.h"
#include "io/state_vtu.h"

namespace sphero::app {
namespace {

// Each plate's sphero-radius from the run's first state frame; empty where
// the run wrote none.
std::map<std::string, double> plate_radii(const std::filesystem::path& run) {
  std::map<std::string, double> radii;
  const std::filesystem::path pvd = run / "state.pvd";
  if (!std::filesystem::exists(pvd)) return radii;
  const std::vector<CollectionEntry> states = read_collection(pvd);
  if (states.empty()) return radii;
  for (const BodySpec& b : read_state_vtu(run / states.front().file))
    if (b.is_wall) radii[b.shape.name] = b.shape.radius;
  return radii;
}

}  // namespace

namespace {

bool has_columns(const EnergyTable& table, std::initializer_list<std::string> names) {
  return std::all_of(names.begin(), names.end(), [&](const std::string& name) {
    return std::find(table.columns.begin(), table.columns.end(), name) != table.columns.end();
  });
}

// energy.csv's row at each frame of the range (it has a row at each frame's
// time), with the frame's time.
std::vector<std::pair<double, const std::vector<double>*>> rows_at_frames(const std::string& run,
                                                                          const EnergyTable& table, FrameRange frames) {
  const std::vector<CollectionEntry> collection =
      read_collection(std::filesystem::path(run) / frame_index_collection(run));
  std::map<double, const std::vector<double>*> row_at;
  const std::size_t time = table.column("time_s");
  for (const auto& row : table.rows) row_at[row[time]] = &row;
  std::vector<std::pair<double, const std::vector<double>*>> rows;
  for (int k = frames.first; k <= frames.last; ++k) {
    const double t = collection.at(static_cast<std::size_t>(k)).time;
    const auto found = row_at.find(t);
    if (found == row_at.end())
      throw std::runtime_error(
          fmt::format("{}/energy.csv: no row at frame {}'s time {}; the run's files do not match", run, k, t));
    rows.emplace_back(t, found->second);
  }
  return rows;
}

// Each named plate's sphero-radius, or 0 for all where one is unknown.
std::map<std::string, double> radii_of(const std::string& run, std::initializer_list<const char*> plates,
                                       bool& all_radii) {
  std::map<std::string, double> radii = plate_radii(run);
  all_radii = std::all_of(plates.begin(), plates.end(), [&](const char* p) { return radii.contains(p); });
  if (!all_radii)
    for (const char* p : plates) radii[p] = 0.0;
  return radii;
}

std::string span_note(bool all_radii) {
  return all_radii ? "spans between the plates' inner faces"
                   : "spans between the plates' centres (the run wrote no state frame for their radii)";
}

}  // namespace

PlateStrains plate_strains(const std::string& run, FrameRange frames) {
  PlateStrains out;
  const EnergyTable table = read_energy_table(run);
  if (!has_columns(table, {"left_x_m", "right_x_m", "bottom_y_m", "top_y_m"})) return out;
  bool all_radii = false;
  std::map<std::string, double> radius = radii_of(run, {"left", "right", "bottom", "top"}, all_radii);
  const std::size_t left = table.column("left_x_m"), right = table.column("right_x_m"),
                    bottom = table.column("bottom_y_m"), top = table.column("top_y_m");
  double w0 = 0.0, h0 = 0.0;
  for (const auto& [t, row] : rows_at_frames(run, table, frames)) {
    const double w = (*row)[right] - (*row)[left] - radius["left"] - radius["right"];
    const double h = (*row)[top] - (*row)[bottom] - radius["bottom"] - radius["top"];
    if (out.time.empty()) w0 = w, h0 = h;
    out.time.push_back(t);
    out.axial.push_back(1.0 - h / h0);
    out.lateral.push_back(1.0 - w / w0);
    out.volumetric.push_back(1.0 - (w * h) / (w0 * h0));
  }
  out.found = true;
  out.note = span_note(all_radii);
  return out;
}

ShearStrains shear_strains(const std::string& run, FrameRange frames) {
  ShearStrains out;
  const EnergyTable table = read_energy_table(run);
  if (!has_columns(table, {"bottom_x_m", "bottom_y_m", "top_x_m", "top_y_m"})) return out;
  bool all_radii = false;
  std::map<std::string, double> radius = radii_of(run, {"bottom", "top"}, all_radii);
  const std::size_t bottom_x = table.column("bottom_x_m"), bottom_y = table.column("bottom_y_m"),
                    top_x = table.column("top_x_m"), top_y = table.column("top_y_m");
  double h0 = 0.0, shift0 = 0.0;
  for (const auto& [t, row] : rows_at_frames(run, table, frames)) {
    const double h = (*row)[top_y] - (*row)[bottom_y] - radius["bottom"] - radius["top"];
    const double shift = (*row)[top_x] - (*row)[bottom_x];
    if (out.time.empty()) h0 = h, shift0 = shift;
    out.time.push_back(t);
    out.shear.push_back((shift - shift0) / h0);
    out.dilatancy.push_back((h - h0) / h0);
  }
  out.found = true;
  out.note = all_radii ? "heights between the plates' centroids less their sphero-radii (their inner faces "
                         "where flat)"
                       : "heights between the plates' centroids (the run wrote no state frame for their radii)";
  return out;
}

}  // namespace sphero::app
