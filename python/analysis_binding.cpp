// A run's frames and their analysis (docs/ANALYSIS.md), the numbers of
// `sphero analyze`.
#include <fmt/format.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <optional>
#include <stdexcept>

#include "analysis/frame_analysis.h"
#include "arrays.h"
#include "bindings.h"
#include "io/frame_reader.h"
#include "simulation.h"

namespace sphero::python {
namespace {

analysis::Window window_from(const std::optional<std::vector<double>>& rectangle,
                             const std::optional<std::vector<double>>& circle) {
  analysis::Window w;
  if (rectangle && circle) throw std::invalid_argument("give window or circle, not both");
  if (rectangle) {
    const auto& r = *rectangle;
    if (r.size() != 4 || !(r[2] > r[0] && r[3] > r[1]))
      throw std::invalid_argument("window: expected (x0, y0, x1, y1) with x0 < x1 and y0 < y1");
    w = {analysis::Window::Kind::rectangle, r[0], r[1], r[2], r[3], {}, 0.0};
  } else if (circle) {
    const auto& c = *circle;
    if (c.size() != 3 || !(c[2] > 0.0)) throw std::invalid_argument("circle: expected (x, y, radius), radius > 0");
    w.kind = analysis::Window::Kind::circle;
    w.centre = {c[0], c[1]};
    w.radius = c[2];
  }
  return w;
}

py::dict summary_dict(const analysis::FrameSummary& s) {
  py::dict d;
  d["time"] = s.time;
  d["sigma_xx"] = s.stress.xx, d["sigma_yy"] = s.stress.yy, d["sigma_xy"] = 0.5 * (s.stress.xy + s.stress.yx);
  d["p"] = s.pressure, d["q"] = s.deviator;
  d["packing_fraction"] = s.packing_fraction, d["void_ratio"] = s.void_ratio, d["packing_exact"] = s.packing_exact;
  d["width"] = s.width, d["height"] = s.height;
  d["coordination"] = s.coordination, d["particles"] = s.particles, d["rattlers"] = s.rattlers;
  d["coordination_distribution"] = copy_values(s.coordination_distribution);
  d["fabric_xx"] = s.fabric_xx, d["fabric_yy"] = s.fabric_yy, d["fabric_xy"] = s.fabric_xy;
  d["fabric_anisotropy"] = s.anisotropy;
  d["normal_density"] = copy_values(s.normal_density);
  d["mean_normal_force"] = copy_values(s.mean_normal_force);
  d["local_packing_fraction"] = copy_values(s.local_packing_fraction);
  d["mean_local_packing_fraction"] = s.mean_local_packing_fraction;
  d["chains"] = s.chains.chains.size();
  d["fraction_in_chains"] = s.chains.fraction_in_chains;
  d["chain_orientation_deg"] = s.chains.mean_orientation_degrees;
  d["chain_of"] = copy_values(s.chains.chain_of);
  py::dict shapes;  // shape name -> its grains in the window (shapes.csv)
  for (const analysis::ShapeGroup& g : s.shapes) {
    py::dict group;
    group["grains"] = g.grains, group["area"] = g.area;
    group["mean_centre"] = py::make_tuple(g.mean_centre.x, g.mean_centre.y);
    shapes[py::str(g.shape)] = group;
  }
  d["shapes"] = shapes;
  return d;
}

py::dict analyze(const FrameData& frame, const std::optional<std::vector<double>>& window,
                 const std::optional<std::vector<double>>& circle, bool exclude_rattlers, bool exclude_walls,
                 bool local_packing, bool packing_by_centres, double chain_angle, const std::string& chain_links,
                 double voronoi_spacing) {
  analysis::AnalysisOptions o;
  o.window = window_from(window, circle);
  o.exclude_rattlers = exclude_rattlers;
  o.exclude_walls = exclude_walls;
  o.local_packing = local_packing;
  o.packing_by_centres = packing_by_centres;
  if (!(chain_angle > 0.0 && chain_angle <= 90.0)) throw std::invalid_argument("chain_angle: expected (0, 90] degrees");
  o.chain_tolerance_degrees = chain_angle;
  o.chain_links = analysis::chain_links_from_string(chain_links);
  if (!(voronoi_spacing >= 0.005 && voronoi_spacing <= 1.0))
    throw std::invalid_argument("voronoi_spacing: expected a fraction of the mean grain size in [0.005, 1]");
  o.voronoi_spacing = voronoi_spacing;
  return summary_dict(analysis::analyze_frame(frame, o));
}

}  // namespace

void bind_analysis(py::module_& m) {
  py::class_<FrameData>(m, "Frame", "One frame of a run (or of a live simulation), as the analysis reads it.")
      .def_readonly("time", &FrameData::time)
      .def_property_readonly("ids",
                             [](const FrameData& f) {
                               std::vector<int> ids;
                               for (const ParticleRecord& p : f.particles) ids.push_back(p.id);
                               return copy_values(ids);
                             })
      .def_property_readonly("centres",
                             [](const FrameData& f) {
                               std::vector<Vec2> c;
                               for (const ParticleRecord& p : f.particles) c.push_back(p.centre);
                               return copy_points(c);
                             })
      .def_property_readonly("areas",
                             [](const FrameData& f) {
                               std::vector<double> a;
                               for (const ParticleRecord& p : f.particles) a.push_back(p.area);
                               return copy_values(a);
                             })
      .def_property_readonly(
          "stresses",
          [](const FrameData& f) {
            py::array_t<double> a({static_cast<py::ssize_t>(f.particles.size()), py::ssize_t{4}});
            auto out = a.mutable_unchecked<2>();
            for (std::size_t i = 0; i < f.particles.size(); ++i)
              for (py::ssize_t k = 0; k < 4; ++k)
                out(static_cast<py::ssize_t>(i), k) = f.particles[i].stress[static_cast<std::size_t>(k)];
            return a;
          },
          "Per particle xx, xy, yx, yy (Love–Weber, compression positive).")
      .def_property_readonly("coordination",
                             [](const FrameData& f) {
                               std::vector<int> z;
                               for (const ParticleRecord& p : f.particles) z.push_back(p.coordination);
                               return copy_values(z);
                             })
      .def_property_readonly("vertex_contacts", [](const FrameData& f) { return f.vertex_contacts.size(); })
      .def("__repr__", [](const FrameData& f) {
        return fmt::format("<sphero.Frame t = {:g} s: {} particles, {} touching pairs, {} walls, {} vertex contacts{}>",
                           f.time, f.particles.size(), f.pairs.size(), f.walls.size(), f.vertex_contacts.size(),
                           f.states.empty() ? "" : fmt::format(", the state of {} bodies", f.states.size()));
      });
  m.def("frame_count", &frame_count, py::arg("run_directory"));
  m.def("read_frame", &read_frame, py::arg("run_directory"), py::arg("frame"));
  const auto doc =
      "The frame's analysis as `sphero analyze` gives it (docs/ANALYSIS.md): a dict of the analysis.csv "
      "columns and the per-particle local packing fractions and chain indices.";
  m.def("analyze", &analyze, py::arg("frame"), py::kw_only(), py::arg("window") = py::none(),
        py::arg("circle") = py::none(), py::arg("exclude_rattlers") = false, py::arg("exclude_walls") = false,
        py::arg("local_packing") = true, py::arg("packing_by_centres") = false, py::arg("chain_angle") = 45.0,
        py::arg("chain_links") = "ahead-and-behind", py::arg("voronoi_spacing") = analysis::kLocalPackingSpacing, doc);
  m.def(
      "analyze",
      [](const Simulation& s, const std::optional<std::vector<double>>& window,
         const std::optional<std::vector<double>>& circle, bool exclude_rattlers, bool exclude_walls,
         bool local_packing, bool packing_by_centres, double chain_angle, const std::string& chain_links,
         double voronoi_spacing) {
        return analyze(s.frame(), window, circle, exclude_rattlers, exclude_walls, local_packing, packing_by_centres,
                       chain_angle, chain_links, voronoi_spacing);
      },
      py::arg("simulation"), py::kw_only(), py::arg("window") = py::none(), py::arg("circle") = py::none(),
      py::arg("exclude_rattlers") = false, py::arg("exclude_walls") = false, py::arg("local_packing") = true,
      py::arg("packing_by_centres") = false, py::arg("chain_angle") = 45.0, py::arg("chain_links") = "ahead-and-behind",
      py::arg("voronoi_spacing") = analysis::kLocalPackingSpacing, doc);
}

}  // namespace sphero::python
