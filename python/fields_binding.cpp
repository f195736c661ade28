// Coarse-grained continuum fields (docs/ANALYSIS.md), the numbers of
// `sphero coarse-grain`, as NumPy arrays on the grid.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "analysis/fields/coarse_grained_fields.h"
#include "arrays.h"
#include "bindings.h"
#include "io/frame_reader.h"
#include "io/run_manifest.h"
#include "simulation.h"

namespace sphero::python {
namespace {

analysis::CoarseGrainingOptions options_from(double width, std::optional<double> cell, const std::string& kernel,
                                             double cutoff, const std::optional<std::vector<double>>& window,
                                             const PeriodicCell& periodic) {
  analysis::CoarseGrainingOptions o;
  o.kernel.kind = analysis::kernel_kind_from_string(kernel);
  o.kernel.width = width;
  o.kernel.gaussian_cutoff = cutoff;
  o.cell = cell ? *cell : 0.5 * width;
  if (window) {
    const auto& w = *window;
    if (w.size() != 4 || !(w[2] > w[0] && w[3] > w[1]))
      throw std::invalid_argument("window: expected (x0, y0, x1, y1) with x0 < x1 and y0 < y1");
    o.window = {w[0], w[1], w[2], w[3]};
  }
  o.periodic = periodic.periodic, o.cell_low = periodic.low, o.cell_size = periodic.size;
  return o;
}

// periodic=("x", (x0, y0, x1, y1)), the scene's `periodic` and `cell`, for
// a frame read on its own.
PeriodicCell periodic_from(const std::optional<std::pair<std::string, std::vector<double>>>& periodic) {
  PeriodicCell cell;
  if (!periodic) return cell;
  const auto& [axes, box] = *periodic;
  if ((axes != "x" && axes != "y" && axes != "x,y") || box.size() != 4 || !(box[2] > box[0] && box[3] > box[1]))
    throw std::invalid_argument("periodic: expected (\"x\", \"y\" or \"x,y\", (x0, y0, x1, y1)) with x0 < x1, y0 < y1");
  cell.periodic = {axes != "y", axes != "x"};
  cell.low = {box[0], box[1]}, cell.size = {box[2] - box[0], box[3] - box[1]};
  return cell;
}

// Scalars as (ny, nx), vectors as (ny, nx, 2), tensors as (ny, nx, 2, 2).
py::dict fields_dict(const analysis::CoarseGrainedSums& sums) {
  const analysis::FieldGrid& g = sums.grid;
  py::dict d;
  d["time"] = sums.time;
  std::vector<double> x, y;
  for (int i = 0; i < g.nx; ++i) x.push_back(g.node(i, 0).x);
  for (int j = 0; j < g.ny; ++j) y.push_back(g.node(0, j).y);
  d["x"] = copy_values(x), d["y"] = copy_values(y);
  const auto ny = static_cast<py::ssize_t>(g.ny), nx = static_cast<py::ssize_t>(g.nx);
  for (const analysis::FieldArray& f : analysis::continuum_fields(sums)) {
    std::vector<py::ssize_t> shape{ny, nx};
    if (f.components == 3) shape.push_back(2);  // z dropped
    if (f.components == 4) shape.insert(shape.end(), {2, 2});
    py::array_t<double> a(shape);
    double* out = a.mutable_data();
    const std::size_t nodes = g.nodes(), kept = f.components == 3 ? 2 : static_cast<std::size_t>(f.components);
    for (std::size_t k = 0; k < nodes; ++k)
      for (std::size_t c = 0; c < kept; ++c)
        out[k * kept + c] = f.values[k * static_cast<std::size_t>(f.components) + c];
    d[py::str(f.name)] = a;
  }
  return d;
}

py::dict coarse_grain_frames(const std::vector<FrameData>& frames, const analysis::CoarseGrainingOptions& o) {
  if (frames.empty()) throw std::invalid_argument("no frames to coarse-grain");
  const analysis::FieldGrid grid = analysis::field_grid(frames.front(), o);
  std::vector<analysis::CoarseGrainedSums> sums;
  for (const FrameData& f : frames) sums.push_back(analysis::coarse_grain(f, grid, o.kernel));
  return fields_dict(sums.size() == 1 ? sums.front()
                                      : analysis::weighted_mean(sums, std::vector<double>(sums.size(), 1.0)));
}

// A run's frames: one (an index, negative from the end) or the mean of a
// range (first, last), inclusive; the last frame by default.
std::vector<FrameData> run_frames(const std::filesystem::path& run, const std::optional<py::object>& frames) {
  const int count = frame_count(run);
  int first = count - 1, last = count - 1;
  if (frames && !frames->is_none()) {
    if (py::isinstance<py::int_>(*frames)) {
      first = last = frames->cast<int>();
      if (first < 0) first = last = count + first;
    } else {
      const auto range = frames->cast<std::pair<int, int>>();
      first = range.first, last = range.second;
    }
  }
  if (first < 0 || last >= count || first > last)
    throw std::invalid_argument("frames: the run has frames 0 to " + std::to_string(count - 1));
  std::vector<FrameData> out;
  for (int k = first; k <= last; ++k) out.push_back(read_frame(run, k));
  return out;
}

}  // namespace

void bind_fields(py::module_& m) {
  const auto doc =
      "Coarse-grained fields on a grid, as `sphero coarse-grain` writes them (docs/ANALYSIS.md): a dict of x (nx), "
      "y (ny), time, and each field as an array (ny, nx), (ny, nx, 2) for vectors, (ny, nx, 2, 2) for tensors "
      "(stress compression positive). `source` is a Frame, a list of Frames (their mean, on the first's grid), a "
      "Simulation (its state now), or a run's folder (with frames=INDEX or (FIRST, LAST) for their mean; the last "
      "frame by default; the run's periodic cell from its run.sphero). cell defaults to width / 2.";
  m.def(
      "coarse_grain",
      [](const py::object& source, double width, std::optional<double> cell, const std::string& kernel, double cutoff,
         const std::optional<std::vector<double>>& window, const std::optional<py::object>& frames,
         const std::optional<std::pair<std::string, std::vector<double>>>& periodic) {
        PeriodicCell cell_of_source = periodic_from(periodic);
        std::vector<FrameData> chosen;
        if (py::isinstance<FrameData>(source)) {
          chosen.push_back(source.cast<FrameData>());
        } else if (py::isinstance<Simulation>(source)) {
          const Simulation& s = source.cast<const Simulation&>();
          chosen.push_back(s.frame());
          if (!periodic) cell_of_source = s.engine().world().cell;
        } else if (py::isinstance<py::str>(source) || py::hasattr(source, "__fspath__")) {
          const std::filesystem::path run = source.cast<std::filesystem::path>();
          chosen = run_frames(run, frames);
          if (!periodic && std::filesystem::exists(run / "run.sphero"))
            cell_of_source = read_run_manifest(run / "run.sphero").cell;
        } else {
          chosen = source.cast<std::vector<FrameData>>();
        }
        if (frames && !frames->is_none() && !(py::isinstance<py::str>(source) || py::hasattr(source, "__fspath__")))
          throw std::invalid_argument("frames: only for a run's folder");
        return coarse_grain_frames(chosen, options_from(width, cell, kernel, cutoff, window, cell_of_source));
      },
      py::arg("source"), py::kw_only(), py::arg("width"), py::arg("cell") = py::none(), py::arg("kernel") = "gaussian",
      py::arg("cutoff") = 3.0, py::arg("window") = py::none(), py::arg("frames") = py::none(),
      py::arg("periodic") = py::none(), doc);
}

}  // namespace sphero::python
