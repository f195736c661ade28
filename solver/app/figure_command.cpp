// `sphero figure RUN_DIR [--plot KIND] [--frame N|last] [-o FILE.png|svg|pdf]`:
// publication figures of a run — the force network of a frame (default), a
// map of the local packing fraction, the orientation rose, and plots over
// the run: stress-strain, void ratio, energy, kinetic-energy histogram.
// `sphero figure PACKING.vtu`: a packing or state file's grains, coloured by
// their local packing fraction.
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "analysis/energy/energy_statistics.h"
#include "analysis/figures/charts.h"
#include "analysis/figures/force_network.h"
#include "analysis/frame_analysis.h"
#include "app/analysis_options.h"
#include "app/command_line.h"
#include "app/commands.h"
#include "app/field_figure.h"
#include "app/plate_strains.h"
#include "io/frame_reader.h"
#include "io/packing_frame.h"
#include "io/state_vtu.h"
#include "text/message_text.h"

namespace sphero::app {
namespace {

using analysis::Curve;

const std::set<std::string> kinds{"network",           "packing-map",        "rose",     "stress-strain",
                                  "void-ratio",        "stress-ratio",       "energy",   "ke-histogram",
                                  "volumetric-strain", "shear-stress-ratio", "dilatancy"};

// Force network, with the links of force chains highlighted.
void network_figure(const FrameData& data, const analysis::AnalysisOptions& o, analysis::FigureOptions figure,
                    const std::string& output) {
  const analysis::FrameSummary summary = analysis::analyze_frame(data, o);
  std::set<std::pair<int, int>> links;
  for (const auto& chain : summary.chains.chains)
    for (std::size_t k = 0; k + 1 < chain.particles.size(); ++k)
      links.insert(std::minmax(data.particles[static_cast<std::size_t>(chain.particles[k])].id,
                               data.particles[static_cast<std::size_t>(chain.particles[k + 1])].id));
  for (const PairRecord& pair : data.pairs)
    figure.in_chain.push_back(links.count(std::minmax(pair.body_a, pair.body_b)) > 0);
  analysis::draw_force_network(data, output, figure);
}

// The particles filled by one value each, over the values' range (`flat`
// wide where they are all equal), without forces.
void filled_map(const FrameData& data, analysis::FigureOptions figure, std::vector<double> values, double flat,
                std::string label, const std::string& output) {
  figure.fill = std::move(values);
  figure.fill_low = *std::min_element(figure.fill.begin(), figure.fill.end());
  figure.fill_high = *std::max_element(figure.fill.begin(), figure.fill.end());
  if (figure.fill_high <= figure.fill_low) figure.fill_high = figure.fill_low + flat;
  figure.fill_label = std::move(label);
  figure.draw_forces = false;
  analysis::draw_force_network(data, output, figure);
}

void packing_map(const FrameData& data, analysis::AnalysisOptions o, const analysis::FigureOptions& figure,
                 const std::string& output) {
  o.local_packing = true;
  const analysis::FrameSummary s = analysis::analyze_frame(data, o);
  filled_map(data, figure, s.local_packing_fraction, 1e-3,
             fmt::format("local packing fraction (set-Voronoi); mean {:.4f}", s.mean_local_packing_fraction), output);
}

// The figure options of a frame's drawing; throws for an unknown --view.
analysis::FigureOptions frame_figure_options(int width, const std::string& title, const std::string& view) {
  if (view != "all" && view != "grains" && view != "auto")
    throw std::invalid_argument("--view: use 'auto', 'all' or 'grains'");
  analysis::FigureOptions figure;
  figure.width = width;
  figure.title = title;
  figure.view = view == "grains" ? analysis::FigureOptions::View::grains
                : view == "all"  ? analysis::FigureOptions::View::all
                                 : analysis::FigureOptions::View::automatic;
  return figure;
}

void rose_figure(const FrameData& data, const analysis::AnalysisOptions& o, const std::string& title,
                 const std::string& output, int width) {
  const analysis::FrameSummary s = analysis::analyze_frame(data, o);
  analysis::Rose rose;
  rose.title = fmt::format("{}{}contact orientations, t = {:.4g} s, anisotropy a = {:.3f}", title,
                           title.empty() ? "" : " — ", s.time, s.anisotropy);
  rose.curves.push_back({"contact normals E(θ) (per radian)", {}, s.normal_density, Curve::Style::line});
  rose.curves.push_back({"mean normal force f(θ) (N)", {}, s.mean_normal_force, Curve::Style::dashed});
  analysis::draw_rose(rose, output, width);
}

// Plots over the frames: strains from the box around the particles
// (compression positive, relative to the first frame used).
namespace po = boost::program_options;

struct Series {
  std::vector<double> x, sxx, syy, sxy, q, p, e;  // sxy: the shear stress's symmetric part
};
Series frame_series(const std::string& run, const analysis::AnalysisOptions& o, FrameRange frames, bool against_time) {
  Series out;
  double h0 = 0.0;
  for (int frame = frames.first; frame <= frames.last; ++frame) {
    const analysis::FrameSummary s = analysis::analyze_frame(read_frame(run, frame), o);
    if (frame == frames.first) h0 = s.height;
    out.x.push_back(against_time ? s.time : 1.0 - s.height / h0);
    out.sxx.push_back(s.stress.xx), out.syy.push_back(s.stress.yy), out.q.push_back(s.deviator);
    out.sxy.push_back(0.5 * (s.stress.xy + s.stress.yx));
    out.p.push_back(s.pressure), out.e.push_back(s.void_ratio);
  }
  return out;
}

// `compared` runs (e.g. the same test with other shapes) add their σ_yy or
// e, labelled by their directory's name; then only those curves are drawn.
void series_figure(const std::string& kind, const std::string& run, const std::vector<std::string>& compared,
                   const analysis::AnalysisOptions& o, const po::variables_map& vm, bool against_time,
                   const std::string& title, const std::string& output, int width) {
  const Series s = frame_series(run, o, frame_range(vm, frame_count(run)), against_time);
  analysis::Chart chart;
  chart.x_label = against_time ? "time t (s)" : "axial strain ε_yy = 1 − H/H₀";
  const std::string window = o.window.kind == analysis::Window::Kind::bounding_box ? "sample" : "window";
  const bool stress = kind == "stress-strain";
  if (stress) {
    chart.title =
        fmt::format("{}{}{} stress (Love–Weber, compression positive)", title, title.empty() ? "" : " — ", window);
    chart.y_label = compared.empty() ? "stress (N/m)" : "σ_yy (N/m)";
    chart.curves = {{"σ_yy", s.x, s.syy, Curve::Style::line},
                    {"σ_xx", s.x, s.sxx, Curve::Style::line},
                    {"p = (σ₁ + σ₂)/2", s.x, s.p, Curve::Style::dashed},
                    {"q = (σ₁ − σ₂)/2", s.x, s.q, Curve::Style::dashed}};
    chart.y_from_zero = true;
  } else {
    chart.title = fmt::format("{}{}void ratio of the {}", title, title.empty() ? "" : " — ", window);
    chart.y_label = "void ratio e";
    chart.curves = {{"e = (A − A_p)/A_p", s.x, s.e, Curve::Style::line}};
  }
  if (!compared.empty()) {
    const auto label = [](const std::string& dir) {
      const std::filesystem::path path = std::filesystem::path(dir).lexically_normal();
      return (path.has_filename() ? path.filename() : path.parent_path().filename()).string();
    };
    chart.curves = {{label(run), s.x, stress ? s.syy : s.e, Curve::Style::line}};
    for (const std::string& other : compared) {
      const Series c = frame_series(other, o, frame_range(vm, frame_count(other)), against_time);
      chart.curves.push_back({label(other), c.x, stress ? c.syy : c.e, Curve::Style::line});
    }
  }
  analysis::draw_chart(chart, output, width, width * 2 / 3);
}

// A biaxial test's standard plots: q/p, and the volumetric strain, against
// the axial strain, strains from the plates named left, right, bottom and
// top where the run has them (else from the box around the particles:
// axial only, and the caption says so).
// Returns what the figure shows at its last frame, for the command's summary.
std::string biaxial_figure(const std::string& kind, const std::string& run, const analysis::AnalysisOptions& o,
                           FrameRange frames, bool against_time, const std::string& title, const std::string& output,
                           int width) {
  const Series s = frame_series(run, o, frames, against_time);
  const PlateStrains plates = plate_strains(run, frames);
  if (kind == "volumetric-strain" && !plates.found)
    throw std::invalid_argument(
        "--plot volumetric-strain: the run has no plates named left, right, bottom and top (as sphero pack compress "
        "names them); name the walls in the scene (wall = name=left ...)");
  const std::vector<double>& x = against_time ? s.x : plates.found ? plates.axial : s.x;
  const std::string strains =
      plates.found ? "strains from the plates, " + plates.note : "strain from the box round the particles";
  analysis::Chart chart;
  chart.x_label = against_time ? "time t (s)" : "axial strain ε_a = 1 − H/H₀ (compression positive)";
  const std::string head = title.empty() ? "" : title + " — ";
  if (kind == "stress-ratio") {
    std::vector<double> ratio;
    for (std::size_t k = 0; k < s.p.size(); ++k) ratio.push_back(s.p[k] != 0.0 ? s.q[k] / s.p[k] : NAN);
    chart.title = fmt::format("{}stress ratio q/p of the sample (Love–Weber); {}", head, strains);
    chart.y_label = "stress ratio q/p";
    chart.curves = {{"q/p, q = (σ₁ − σ₂)/2, p = (σ₁ + σ₂)/2", x, ratio, Curve::Style::line}};
    chart.y_from_zero = true;
  } else {
    chart.title = fmt::format("{}volumetric strain; {}", head, strains);
    chart.y_label = "strain (compression positive)";
    chart.curves = {{"volumetric ε_v = 1 − WH/(W₀H₀)", x, plates.volumetric, Curve::Style::line},
                    {"lateral 1 − W/W₀", x, plates.lateral, Curve::Style::dashed}};
  }
  analysis::draw_chart(chart, output, width, width * 2 / 3);
  const double q_over_p = s.p.back() != 0.0 ? s.q.back() / s.p.back() : NAN;
  return plates.found ? fmt::format("at the end: axial strain {:.6g}, volumetric strain {:.6g}, q/p {:.6g}",
                                    plates.axial.back(), plates.volumetric.back(), q_over_p)
                      : fmt::format("at the end: q/p {:.6g} (no plates named left, right, bottom, top)", q_over_p);
}

// A shear cell's standard plots: the shear stress ratio τ/σ_n (the
// sample's macroscopic friction) and the dilatancy, against the shear
// strain, strains from the plates named bottom and top.
// Returns what the figure shows at its last frame, for the command's summary.
std::string shear_figure(const std::string& kind, const std::string& run, const analysis::AnalysisOptions& o,
                         FrameRange frames, bool against_time, const std::string& title, const std::string& output,
                         int width) {
  const ShearStrains plates = shear_strains(run, frames);
  if (!plates.found)
    throw std::invalid_argument(fmt::format(
        "--plot {}: the run has no plates named bottom and top; name the walls in the scene (wall = name=bottom ...)",
        kind));
  const std::vector<double>& x = against_time ? plates.time : plates.shear;
  analysis::Chart chart;
  chart.x_label = against_time ? "time t (s)" : "shear strain γ = Δx/H₀ (top plate relative to bottom)";
  const std::string head = (title.empty() ? "" : title + " — ");
  const Series s = frame_series(run, o, frames, against_time);
  // With compression positive, the stress a plate moving along +x puts on
  // the sample's top face is −σ_xy; the sign of the shearing makes the
  // ratio positive in its direction.
  const double direction = plates.shear.back() < 0.0 ? -1.0 : 1.0;
  std::vector<double> ratio;
  for (std::size_t k = 0; k < s.syy.size(); ++k)
    ratio.push_back(s.syy[k] != 0.0 ? -direction * s.sxy[k] / s.syy[k] : NAN);
  if (kind == "shear-stress-ratio") {
    chart.title =
        fmt::format("{}shear stress ratio of the sample (Love–Weber); strain from the plates, {}", head, plates.note);
    chart.y_label = "shear stress ratio τ/σ_n";
    chart.curves = {{"τ/σ_n = −σ_xy/σ_yy (compression positive)", x, ratio, Curve::Style::line}};
    chart.y_from_zero = true;
  } else {
    chart.title = fmt::format("{}dilatancy; strains from the plates, {}", head, plates.note);
    chart.y_label = "dilatancy (H − H₀)/H₀ (dilation positive)";
    chart.curves = {{"(H − H₀)/H₀", x, plates.dilatancy, Curve::Style::line}};
    chart.y_from_zero = true;
  }
  analysis::draw_chart(chart, output, width, width * 2 / 3);
  return fmt::format("at the end: shear strain {:.6g}, τ/σ_n {:.6g}, dilatancy {:.6g}", plates.shear.back(),
                     ratio.back(), plates.dilatancy.back());
}

void energy_figure(const std::string& run, const std::string& title, const std::string& output, int width) {
  const auto file = std::filesystem::path(run) / "energy.csv";
  const EnergyTable table = read_energy_table(run);
  if (!table.present) throw std::runtime_error(file.string() + ": missing; is it the output directory of sphero run?");
  if (table.rows.empty()) throw std::runtime_error(file.string() + ": no rows");
  const auto series = [&](const std::string& name) {
    const std::size_t k = table.column(name);
    std::vector<double> values;
    for (const auto& row : table.rows) values.push_back(row.at(k));
    return values;
  };
  const std::vector<double> t = series("time_s");
  const std::vector<double> normal = series("elastic_normal_J"), tangential = series("elastic_tangential_J"),
                            damping = series("damping_dissipation_J"), sliding = series("sliding_dissipation_J");
  auto shifted = [](std::vector<double> v) {
    const double v0 = v.front();
    for (double& e : v) e -= v0;
    return v;
  };
  std::vector<double> elastic(t.size()), dissipated(t.size());
  for (std::size_t k = 0; k < t.size(); ++k) {
    elastic[k] = normal[k] + tangential[k];
    dissipated[k] = damping[k] + sliding[k];
  }
  analysis::Chart chart;
  chart.title = fmt::format("{}{}energy ledger; first law: ΔE = W − D", title, title.empty() ? "" : " — ");
  chart.x_label = "time t (s)";
  chart.y_label = "energy (J per unit thickness)";
  chart.curves = {{"kinetic, translational", t, series("kinetic_translational_J"), Curve::Style::line},
                  {"kinetic, rotational", t, series("kinetic_rotational_J"), Curve::Style::line},
                  {"elastic (normal + tangential)", t, elastic, Curve::Style::line},
                  {"gravitational − its initial value", t, shifted(series("gravitational_J")), Curve::Style::line},
                  {"mechanical − its initial value", t, shifted(series("mechanical_J")), Curve::Style::dashed},
                  {"work of walls and forces W", t, series("external_work_J"), Curve::Style::dashed},
                  {"dissipated D (damping + sliding)", t, dissipated, Curve::Style::dashed},
                  {"first-law residual ΔE − W + D", t, series("first_law_residual_J"), Curve::Style::markers}};
  chart.y_from_zero = true;
  analysis::draw_chart(chart, output, width, width * 2 / 3);
}

void histogram_figure(const std::string& run, FrameRange frames, const std::string& title, const std::string& output,
                      int width) {
  std::vector<std::vector<double>> kinetic;
  for (int frame = frames.first; frame <= frames.last; ++frame) {
    kinetic.emplace_back();
    for (const ParticleRecord& p : read_frame(run, frame).particles) kinetic.back().push_back(p.kinetic_energy);
  }
  const analysis::EnergyHistogram h = analysis::kinetic_energy_histogram(kinetic, 50, 5.0);
  std::vector<double> eps, fine, mb;
  for (std::size_t b = 0; b < h.density.size(); ++b) eps.push_back((static_cast<double>(b) + 0.5) * h.bin_width);
  for (int k = 1; k <= 400; ++k) {
    fine.push_back(5.0 * k / 400.0);
    mb.push_back(analysis::maxwell_boltzmann_three_dof(fine.back()));
  }
  analysis::Chart chart;
  chart.title = fmt::format("{}{}kinetic energy per particle, frames {}–{} ({} samples)", title,
                            title.empty() ? "" : " — ", frames.first, frames.last, h.samples);
  chart.x_label = "ε = E_k / ⟨E_k⟩";
  chart.y_label = "probability density";
  chart.curves = {{"simulation", eps, h.density, Curve::Style::bars},
                  {"Maxwell–Boltzmann, 3 degrees of freedom", fine, mb, Curve::Style::line}};
  chart.y_from_zero = true;
  analysis::draw_chart(chart, output, width, width * 2 / 3);
}

// Grains coloured by their exact area.
void sizes_map(const FrameData& data, const analysis::FigureOptions& figure, const std::string& output) {
  std::vector<double> areas;
  double total = 0.0;
  for (const ParticleRecord& p : data.particles) areas.push_back(p.area), total += p.area;
  const double smallest = *std::min_element(areas.begin(), areas.end());
  filled_map(data, figure, std::move(areas), smallest * 1e-3 + 1e-12,
             fmt::format("grain area (m²); mean {:.4g}", total / static_cast<double>(data.particles.size())), output);
}

// A packing or state file (`sphero pack`, state_NNNNN.vtu): its grains and
// walls, coloured by size (sizes, the default) or by local packing fraction
// (packing-map), or as outlines (network: a packing has no forces to draw).
int packing_figure(const std::string& file, std::string kind, bool kind_given, const analysis::AnalysisOptions& o,
                   analysis::FigureOptions figure, std::string output) {
  if (!kind_given) kind = "sizes";
  if (kind != "sizes" && kind != "packing-map" && kind != "network")
    throw std::invalid_argument(
        fmt::format("--plot {}: a packing file has one frame and no contacts; use sizes (the "
                    "default), packing-map or network",
                    kind));
  const FrameData data = packing_frame(read_state_vtu(file), kPackingArcResolution);
  if (data.particles.empty()) throw std::invalid_argument(file + ": holds walls but no grains to draw");
  if (output.empty()) output = (std::filesystem::path(file).replace_extension().string() + "-" + kind + ".png");
  figure.show_time = false;
  if (figure.title.empty()) figure.title = std::filesystem::path(file).filename().string();
  if (kind == "sizes") {
    sizes_map(data, figure, output);
  } else if (kind == "packing-map") {
    packing_map(data, o, figure, output);
  } else {
    figure.draw_forces = false;
    analysis::draw_force_network(data, output, figure);
  }
  fmt::print("sphero figure: {} of {}, {} grains, {} walls -> {}\n", kind, file, data.particles.size(),
             data.walls.size(), output);
  return 0;
}

// A plot over a run's frames or its ledger; returns what the plot shows at
// its last frame where the command's summary line should say it, else "".
std::string run_plot(const std::string& kind, const std::string& run, const std::vector<std::string>& compared,
                     const analysis::AnalysisOptions& o, const po::variables_map& vm, FrameRange range,
                     bool against_time, const std::string& title, const std::string& output, int width) {
  if (kind == "stress-strain" || kind == "void-ratio")
    series_figure(kind, run, compared, o, vm, against_time, title, output, width);
  if (kind == "stress-ratio" || kind == "volumetric-strain")
    return biaxial_figure(kind, run, o, range, against_time, title, output, width);
  if (kind == "shear-stress-ratio" || kind == "dilatancy")
    return shear_figure(kind, run, o, range, against_time, title, output, width);
  if (kind == "energy") energy_figure(run, title, output, width);
  if (kind == "ke-histogram") histogram_figure(run, range, title, output, width);
  return "";
}

}  // namespace

int run_figure_command(const std::vector<std::string>& args) {
  std::string run, frame_text = "last", output, title, kind = "network", x_axis = "strain";
  int width = 0;
  std::vector<std::string> compared;
  std::string view = "auto";
  po::options_description options("options");
  options.add_options()("help,h", "show this help")(
      "plot", po::value(&kind),
      "network (default): force network of a frame, chains highlighted; packing-map: particles coloured by local "
      "packing fraction; rose: contact-normal and force orientations of a frame; stress-strain, void-ratio: over the "
      "frames; stress-ratio, volumetric-strain: q/p and the volumetric strain against the axial strain, strains from "
      "the plates named left, right, bottom, top; shear-stress-ratio, dilatancy: a shear cell's τ/σ_n and (H − "
      "H₀)/H₀ against the shear strain, from the plates named bottom and top; energy: the energy ledger; "
      "ke-histogram: kinetic energy per "
      "particle against Maxwell-Boltzmann; "
      "field:NAME: a coarse-grained field of a frame (or the mean over --frames), NAME pressure, deviator_stress, "
      "density, speed, velocity_x, ... (docs/ANALYSIS.md)")(
      "frame", po::value(&frame_text), "frame number, or 'last' (default), for network, packing-map and rose")(
      "x", po::value(&x_axis),
      "stress-strain, void-ratio, stress-ratio, volumetric-strain, shear-stress-ratio, dilatancy against 'strain' "
      "(default) or 'time'")(
      "output,o", po::value(&output), "figure file: .png, .svg or .pdf (default RUN_DIR/<plot>.png)")(
      "width", po::value(&width), "width in pixels (PNG) or points (default 1600 for frames, 1200 for plots)")(
      "title", po::value(&title), "a title before the caption")(
      "view", po::value(&view),
      "network, packing-map: 'auto' (default: the grains where the walls reach more than twice as far, as a "
      "biaxial sample's long plates do; else everything), 'all', or 'grains' (frame the grains, cutting off walls "
      "that reach far beyond them)")(
      "compare", po::value(&compared),
      "stress-strain, void-ratio: another run (repeatable) whose sigma_yy or e is drawn beside RUN_DIR's, each "
      "labelled by its directory's name");
  add_analysis_options(options);
  add_field_figure_options(options);
  po::variables_map vm;
  if (const auto stop = parse_command_line(
          args, options, run, true, "figure", "usage: sphero figure RUN_DIR|PACKING.vtu [options]\n", vm))
    return *stop;
  if (vm.count("output") && output.empty())
    throw std::invalid_argument("-o: an empty file name; give the figure's file");
  if (names_a_packing_file(run))
    return packing_figure(run, kind, vm.count("plot") > 0, analysis_options(vm),
                          frame_figure_options(width > 0 ? width : 1600, title, view), output);
  const bool field = kind.rfind("field:", 0) == 0;
  if (!kinds.count(kind) && !field)
    throw std::invalid_argument(
        fmt::format("--plot: unknown plot '{}'; use network, packing-map, rose, stress-strain, "
                    "void-ratio, stress-ratio, volumetric-strain, shear-stress-ratio, dilatancy, energy, "
                    "ke-histogram or field:NAME",
                    kind));
  if (x_axis != "strain" && x_axis != "time") throw std::invalid_argument("--x: use 'strain' or 'time'");
  const analysis::AnalysisOptions o = analysis_options(vm);
  const int frames = frame_count(run);
  int frame = frames - 1;
  if (frame_text != "last") {
    const auto number = parse_number(frame_text);
    if (!number || *number != std::floor(*number) || std::abs(*number) > 1e9)
      throw std::invalid_argument(fmt::format("--frame: expected a frame number or 'last', found '{}'", frame_text));
    frame = static_cast<int>(*number);
  }
  const bool of_a_frame = kind == "network" || kind == "packing-map" || kind == "rose";
  if (width == 0) width = of_a_frame && kind != "rose" ? 1600 : 1200;
  if (output.empty())
    output = (std::filesystem::path(run) / ((kind == "network" ? std::string("force-network")
                                             : field           ? "field-" + kind.substr(6)
                                                               : kind) +
                                            ".png"))
                 .string();
  if (field) {
    draw_field_figure({run, kind.substr(6), title, output, frame, width == 0 ? 1600 : width}, vm);
    fmt::print("sphero figure: {} -> {}\n", kind, output);
    return 0;
  }
  if (of_a_frame) {
    const FrameData data = read_frame(run, frame);
    const analysis::FigureOptions figure = frame_figure_options(width, title, view);
    if (kind == "network") network_figure(data, o, figure, output);
    if (kind == "packing-map") packing_map(data, o, figure, output);
    if (kind == "rose") rose_figure(data, o, title, output, width);
    fmt::print("sphero figure: {} of frame {} (t = {:g} s), {} particles, {} contacts -> {}\n", kind, frame, data.time,
               data.outlines.size(), data.forces.size(), output);
    return 0;
  }
  if (!compared.empty() && kind != "stress-strain" && kind != "void-ratio")
    throw std::invalid_argument("--compare: only stress-strain and void-ratio plots compare runs");
  const std::string summary =
      run_plot(kind, run, compared, o, vm, frame_range(vm, frames), x_axis == "time", title, output, width);
  fmt::print("sphero figure: {} -> {}{}\n", kind, output, summary.empty() ? "" : "; " + summary);
  return 0;
}

}  // namespace sphero::app
