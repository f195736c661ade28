#include "app/field_figure.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>

#include "analysis/fields/coarse_grained_fields.h"
#include "analysis/figures/field_map.h"
#include "app/analysis_options.h"
#include "io/frame_reader.h"
#include "io/run_manifest.h"

namespace sphero::app {
namespace {

namespace po = boost::program_options;
using analysis::FieldArray;

const FieldArray& named(const std::vector<FieldArray>& fields, const std::string& name) {
  for (const FieldArray& f : fields)
    if (f.name == name) return f;
  throw std::logic_error("no field " + name);
}

// A quantity a field figure draws: its label (with its unit) and its value
// at node k of the fields.
// A ratio of sums (velocity, coordination, temperature) means nothing where
// almost no material is: it is left blank there.
struct Quantity {
  std::string label;
  std::function<double(const std::vector<FieldArray>&, std::size_t)> value;
  bool ratio = false;
};

Quantity scalar(const std::string& label, const std::string& name, bool ratio = false) {
  return {label, [name](const std::vector<FieldArray>& f, std::size_t k) { return named(f, name).values[k]; }, ratio};
}

Quantity component(const std::string& label, const std::string& name, int components, std::size_t first,
                   std::size_t second, bool ratio = false) {
  return {label,
          [=](const std::vector<FieldArray>& f, std::size_t k) {
            const auto& v = named(f, name).values;
            const std::size_t at = k * static_cast<std::size_t>(components);
            return 0.5 * (v[at + first] + v[at + second]);
          },
          ratio};
}

const std::map<std::string, Quantity>& quantities() {
  static const std::map<std::string, Quantity> table{
      {"density", scalar("density ρ (kg/m², per unit thickness)", "density")},
      {"number_density", scalar("number density n (grains per m²)", "number_density")},
      {"pressure", scalar("pressure p = (σ₁ + σ₂)/2 (N/m), compression positive", "pressure")},
      {"deviator_stress", scalar("deviator stress q = (σ₁ − σ₂)/2 (N/m)", "deviator_stress")},
      {"coordination", scalar("coordination z (contacts per grain)", "coordination", true)},
      {"coordination_density",
       scalar("contact density (contacts per m², counted at both grains)", "coordination_density")},
      {"granular_temperature",
       scalar("granular temperature T = tr σ_kinetic / 2ρ (m²/s²)", "granular_temperature", true)},
      {"velocity_x", component("velocity v_x (m/s)", "velocity", 3, 0, 0, true)},
      {"velocity_y", component("velocity v_y (m/s)", "velocity", 3, 1, 1, true)},
      {"stress_xx", component("stress σ_xx (N/m), compression positive", "stress", 4, 0, 0)},
      {"stress_yy", component("stress σ_yy (N/m), compression positive", "stress", 4, 3, 3)},
      {"stress_xy", component("shear stress (σ_xy + σ_yx)/2 (N/m)", "stress", 4, 1, 2)},
      {"speed",
       {"speed |v| (m/s)",
        [](const std::vector<FieldArray>& f, std::size_t k) {
          const auto& v = named(f, "velocity").values;
          return std::hypot(v[3 * k], v[3 * k + 1]);
        },
        true}}};
  return table;
}

std::vector<FrameData> chosen_frames(const FieldFigure& figure, const po::variables_map& vm) {
  std::vector<FrameData> frames;
  if (vm.count("frames")) {
    const FrameRange range = frame_range(vm, frame_count(figure.run));
    for (int k = range.first; k <= range.last; ++k) frames.push_back(read_frame(figure.run, k));
  } else {
    frames.push_back(read_frame(figure.run, figure.frame));
  }
  return frames;
}

analysis::CoarseGrainingOptions grid_options(const FieldFigure& figure, const po::variables_map& vm,
                                             const FrameData& first) {
  analysis::CoarseGrainingOptions o;
  double sizes = 0.0;
  for (const ParticleRecord& p : first.particles) sizes += std::sqrt(p.area);
  o.kernel.width = vm.count("kernel-width")
                       ? vm["kernel-width"].as<double>()
                       : sizes / static_cast<double>(std::max<std::size_t>(1, first.particles.size()));
  if (!(std::isfinite(o.kernel.width) && o.kernel.width > 0.0))
    throw std::invalid_argument(fmt::format("--kernel-width: expected a positive length, not {}", o.kernel.width));
  o.cell = vm.count("cell") ? vm["cell"].as<double>() : 0.25 * o.kernel.width;
  try {
    o.kernel.kind = analysis::kernel_kind_from_string(vm["kernel"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--kernel: ") + e.what());
  }
  const analysis::Window w = analysis_options(vm).window;
  if (w.kind == analysis::Window::Kind::circle) throw std::invalid_argument("--circle: a field figure takes --window");
  if (w.kind == analysis::Window::Kind::rectangle) o.window = {w.x0, w.y0, w.x1, w.y1};
  const auto manifest = std::filesystem::path(figure.run) / "run.sphero";
  if (std::filesystem::exists(manifest)) {
    const PeriodicCell cell = read_run_manifest(manifest).cell;
    o.periodic = cell.periodic, o.cell_low = cell.low, o.cell_size = cell.size;
  }
  return o;
}

}  // namespace

void add_field_figure_options(po::options_description& options) {
  options.add_options()("kernel-width", po::value<double>(),
                        "field:NAME: the coarse-graining kernel's width in m (default the mean grain size)")(
      "cell", po::value<double>(), "field:NAME: the grid's spacing in m (default a quarter of the kernel's width)")(
      "kernel", po::value<std::string>()->default_value("gaussian"), "field:NAME: gaussian or lucy")(
      "arrows", "field:NAME: draw the velocity field as arrows")(
      "principal-directions", "field:NAME: draw the major principal stress direction, its length scaled by q");
}

std::string field_figure_names() {
  std::string names;
  for (const auto& [name, q] : quantities()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

void draw_field_figure(const FieldFigure& figure, const po::variables_map& vm) {
  const auto quantity = quantities().find(figure.field);
  if (quantity == quantities().end())
    throw std::invalid_argument(
        fmt::format("--plot field:{}: unknown field; use field: and one of {}", figure.field, field_figure_names()));
  const std::vector<FrameData> frames = chosen_frames(figure, vm);
  const analysis::CoarseGrainingOptions o = grid_options(figure, vm, frames.front());
  const analysis::FieldGrid grid = analysis::field_grid(frames.front(), o);
  std::vector<analysis::CoarseGrainedSums> sums;
  for (const FrameData& f : frames) sums.push_back(analysis::coarse_grain(f, grid, o.kernel));
  const analysis::CoarseGrainedSums mean =
      sums.size() == 1 ? sums.front() : analysis::weighted_mean(sums, std::vector<double>(sums.size(), 1.0));
  const std::vector<FieldArray> fields = analysis::continuum_fields(mean);
  analysis::FieldMap map;
  map.origin = grid.origin, map.spacing = {grid.hx, grid.hy}, map.nx = grid.nx, map.ny = grid.ny;
  map.quantity = quantity->second.label;
  // Ratios and glyphs only where there is material: in the kernels' tails
  // they are ratios of vanishing sums.
  const auto& density = named(fields, "density").values;
  const double densest = *std::max_element(density.begin(), density.end());
  const auto material = [&](std::size_t k) { return density[k] >= 0.05 * densest; };
  for (std::size_t k = 0; k < grid.nodes(); ++k)
    map.values.push_back(!quantity->second.ratio || material(k) ? quantity->second.value(fields, k) : NAN);
  std::string glyphs = quantity->second.ratio ? "; blank: under 5% of the largest density" : "";
  if (vm.count("arrows")) {
    const auto& v = named(fields, "velocity").values;
    double fastest = 0.0;
    for (std::size_t k = 0; k < grid.nodes(); ++k) {
      map.arrows.push_back(material(k) ? Vec2{v[3 * k], v[3 * k + 1]} : Vec2{});
      fastest = std::max(fastest, norm(map.arrows.back()));
    }
    glyphs += fmt::format("; arrows: velocity, the longest drawn {:.3g} m/s", fastest);
  }
  if (vm.count("principal-directions")) {
    const auto& d = named(fields, "major_stress_direction").values;
    const auto& q = named(fields, "deviator_stress").values;
    double largest = 0.0;
    for (std::size_t k = 0; k < grid.nodes(); ++k) {
      map.bars.push_back(material(k) ? q[k] * Vec2{d[3 * k], d[3 * k + 1]} : Vec2{});
      largest = std::max(largest, norm(map.bars.back()));
    }
    glyphs += fmt::format("; bars: major principal stress direction, length ∝ q (largest {:.3g} N/m)", largest);
  }
  const FrameData& last = frames.back();
  map.outlines = last.outlines, map.wall_outlines = last.wall_outlines;
  const std::string when = frames.size() == 1 ? fmt::format("t = {:.4g} s", last.time)
                                              : fmt::format("mean of {} frames, t = {:.4g} to {:.4g} s", frames.size(),
                                                            frames.front().time, last.time);
  map.caption = fmt::format("{}{}{}, {}; coarse-grained with a {} kernel of width w = {:.3g} m on a {} × {} grid{}",
                            figure.title, figure.title.empty() ? "" : " — ", figure.field, when,
                            analysis::to_string(o.kernel.kind), o.kernel.width, grid.nx, grid.ny, glyphs);
  analysis::draw_field_map(map, figure.output, figure.width);
}

}  // namespace sphero::app
