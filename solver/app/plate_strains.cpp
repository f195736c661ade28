#include "app/plate_strains.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "io/frame_reader.h"
#include "io/state_vtu.h"

namespace sphero::app {
namespace {

constexpr std::array<const char*, 4> kPlates{"left", "right", "bottom", "top"};

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

PlateStrains plate_strains(const std::string& run, FrameRange frames) {
  PlateStrains out;
  const EnergyTable table = read_energy_table(run);
  for (const char* plate : kPlates) {
    const std::string axis = std::string(plate) == "left" || std::string(plate) == "right" ? "_x_m" : "_y_m";
    if (std::find(table.columns.begin(), table.columns.end(), plate + axis) == table.columns.end()) return out;
  }
  const std::map<std::string, double> radii = plate_radii(run);
  bool all_radii = true;
  for (const char* plate : kPlates) all_radii = all_radii && radii.contains(plate);
  const auto radius = [&](const char* plate) { return all_radii ? radii.at(plate) : 0.0; };
  const std::size_t time = table.column("time_s"), left = table.column("left_x_m"), right = table.column("right_x_m"),
                    bottom = table.column("bottom_y_m"), top = table.column("top_y_m");
  // energy.csv has a row at each frame's time.
  const std::vector<CollectionEntry> collection =
      read_collection(std::filesystem::path(run) / frame_index_collection(run));
  std::map<double, const std::vector<double>*> row_at;
  for (const auto& row : table.rows) row_at[row[time]] = &row;
  double w0 = 0.0, h0 = 0.0;
  for (int k = frames.first; k <= frames.last; ++k) {
    const double t = collection.at(static_cast<std::size_t>(k)).time;
    const auto found = row_at.find(t);
    if (found == row_at.end())
      throw std::runtime_error(
          fmt::format("{}/energy.csv: no row at frame {}'s time {}; the run's files do not match", run, k, t));
    const std::vector<double>& row = *found->second;
    const double w = row[right] - row[left] - radius("left") - radius("right");
    const double h = row[top] - row[bottom] - radius("bottom") - radius("top");
    if (k == frames.first) w0 = w, h0 = h;
    out.time.push_back(t);
    out.axial.push_back(1.0 - h / h0);
    out.lateral.push_back(1.0 - w / w0);
    out.volumetric.push_back(1.0 - (w * h) / (w0 * h0));
  }
  out.found = true;
  out.note = all_radii ? "spans between the plates' inner faces"
                       : "spans between the plates' centres (the run wrote no state frame for their radii)";
  return out;
}

}  // namespace sphero::app
