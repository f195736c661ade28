// `sphero analyze RUN_DIR [--window X0,Y0,X1,Y1 | --circle X,Y,R] [--frames A:B]
// [--exclude-rattlers]`: per-frame stress, packing and force chains of a run,
// into RUN_DIR/analysis.csv and RUN_DIR/chains_NNNNN.csv.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <array>
#include <cmath>
#include <map>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/energy/energy_statistics.h"
#include "analysis/frame_analysis.h"
#include "app/command_line.h"
#include "app/commands.h"
#include "io/atomic_file.h"
#include "io/frame_reader.h"

namespace sphero::app {
namespace {

std::vector<double> numbers(const std::string& option, const std::string& text, std::size_t count) {
  std::vector<double> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    try {
      std::size_t used = 0;
      out.push_back(std::stod(part, &used));
      if (used != part.size()) throw std::invalid_argument(part);
    } catch (const std::exception&) {
      throw std::invalid_argument(fmt::format("--{}: '{}' is not a number", option, part));
    }
  }
  if (out.size() != count) throw std::invalid_argument(fmt::format("--{}: expected {} comma-separated numbers", option, count));
  return out;
}

// energy.csv's rows by time: (translational, rotational, first-law residual).
std::map<double, std::array<double, 3>> energy_rows(const std::filesystem::path& run) {
  std::map<double, std::array<double, 3>> rows;
  std::ifstream in(run / "energy.csv");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("time_s", 0) == 0) continue;
    std::vector<double> v;
    std::stringstream fields(line);
    for (std::string f; std::getline(fields, f, ',') && v.size() < 12;) v.push_back(std::stod(f));
    if (v.size() == 12) rows[v[0]] = {v[2], v[3], v[11]};
  }
  return rows;
}

}  // namespace

int run_analyze_command(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string run, frames_text;
  po::options_description options("options");
  options.add_options()("help,h", "show this help")("window", po::value<std::string>(), "X0,Y0,X1,Y1: a rectangular window")(
      "circle", po::value<std::string>(), "X,Y,R: a circular window")(
      "frames", po::value(&frames_text), "A:B, the frames to analyse (default all)")(
      "exclude-rattlers", "leave particles with fewer than 2 contacts out of the coordination number")(
      "histogram-bins", po::value<int>()->default_value(100), "bins of the kinetic-energy histogram over [0, 5)");
  po::variables_map vm;
  if (const auto stop = parse_command_line(args, options, run, true, "analyze", "usage: sphero analyze RUN_DIR [options]\n", vm))
    return *stop;
  analysis::Window window;
  if (vm.count("window") && vm.count("circle")) throw std::invalid_argument("give --window or --circle, not both");
  if (vm.count("window")) {
    const auto w = numbers("window", vm["window"].as<std::string>(), 4);
    window = {analysis::Window::Kind::rectangle, w[0], w[1], w[2], w[3], {}, 0.0};
  } else if (vm.count("circle")) {
    const auto c = numbers("circle", vm["circle"].as<std::string>(), 3);
    window.kind = analysis::Window::Kind::circle;
    window.centre = {c[0], c[1]};
    window.radius = c[2];
  }
  const int count = frame_count(run);
  int first = 0, last = count - 1;
  if (!frames_text.empty()) {
    const auto colon = frames_text.find(':');
    try {
      first = std::stoi(frames_text.substr(0, colon));
      last = colon == std::string::npos ? first : std::stoi(frames_text.substr(colon + 1));
    } catch (const std::exception&) {
      throw std::invalid_argument(fmt::format("--frames: expected A:B, found '{}'", frames_text));
    }
    if (first < 0 || last >= count || first > last)
      throw std::invalid_argument(fmt::format("--frames: the run has frames 0 to {}", count - 1));
  }
  std::string csv =
      "# stresses in N/m (2D), compression positive (Love-Weber over the particles whose centre is in the window);\n"
      "# p = (s1 + s2)/2, q = (s1 - s2)/2; packing fraction and void ratio from exact particle areas\n"
      "frame,time_s,sigma_xx,sigma_yy,sigma_xy,p,q,packing_fraction,void_ratio,coordination,particles,rattlers,"
      "chains,fraction_in_chains,chain_orientation_deg,fabric_xx,fabric_yy,fabric_xy,fabric_anisotropy,"
      "rotational_over_translational,first_law_residual_J\n";
  const auto energies = energy_rows(run);
  std::vector<std::vector<double>> kinetic;
  for (int frame = first; frame <= last; ++frame) {
    const FrameData data = read_frame(run, frame);
    const analysis::FrameSummary s = analysis::analyze_frame(data, window, vm.count("exclude-rattlers") > 0);
    const auto row = energies.find(s.time);
    const double ratio = row != energies.end() && row->second[0] > 0.0 ? row->second[1] / row->second[0] : NAN;
    const double residual = row != energies.end() ? row->second[2] : NAN;
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", frame, s.time, s.stress.xx,
                       s.stress.yy, 0.5 * (s.stress.xy + s.stress.yx), s.pressure, s.deviator, s.packing_fraction,
                       s.void_ratio, s.coordination, s.particles, s.rattlers, s.chains.chains.size(),
                       s.chains.fraction_in_chains, s.chains.mean_orientation_degrees, s.fabric_xx, s.fabric_yy,
                       s.fabric_xy, s.anisotropy, ratio, residual);
    kinetic.emplace_back();
    for (const ParticleRecord& p : data.particles) kinetic.back().push_back(p.kinetic_energy);
    std::string chains = "# force chains after Peters et al. (2005); particles by body id, end to end\n"
                         "chain,particles,length_m,mean_major_stress,orientation_deg,ids\n";
    for (std::size_t k = 0; k < s.chains.chains.size(); ++k) {
      const auto& c = s.chains.chains[k];
      std::string ids;
      for (int p : c.particles) {
        if (!ids.empty()) ids += ' ';
        ids += std::to_string(data.particles[static_cast<std::size_t>(p)].id);
      }
      double degrees = std::atan2(c.orientation.y, c.orientation.x) * 180.0 / 3.14159265358979323846;
      if (degrees < 0.0) degrees += 180.0;  // an axis: in [0, 180)
      chains += fmt::format("{},{},{},{},{},{}\n", k, c.particles.size(), c.length, c.mean_stress, degrees, ids);
    }
    write_text_atomically(std::filesystem::path(run) / fmt::format("chains_{:05d}.csv", frame), chains);
  }
  write_text_atomically(std::filesystem::path(run) / "analysis.csv", csv);
  const analysis::EnergyHistogram h = analysis::kinetic_energy_histogram(kinetic, vm["histogram-bins"].as<int>(), 5.0);
  std::string histogram = fmt::format(
      "# per-particle kinetic energy over the analysed frames, eps = E / <E> of each frame ({} samples);\n"
      "# maxwell_boltzmann: (3/2)^(3/2) eps^(1/2) exp(-3 eps / 2) / Gamma(3/2), three quadratic degrees of freedom\n"
      "eps,density,maxwell_boltzmann\n",
      h.samples);
  for (std::size_t b = 0; b < h.density.size(); ++b)
    histogram += fmt::format("{},{},{}\n", (static_cast<double>(b) + 0.5) * h.bin_width, h.density[b], h.predicted[b]);
  write_text_atomically(std::filesystem::path(run) / "ke_histogram.csv", histogram);
  fmt::print("sphero analyze: frames {} to {} of {} -> {}/analysis.csv, ke_histogram.csv, chains_NNNNN.csv\n", first, last,
             run, run);
  return 0;
}

}  // namespace sphero::app
