// `sphero analyze RUN_DIR [--window X0,Y0,X1,Y1 | --circle X,Y,R] [--frames A:B]
// [--exclude-rattlers]`: per-frame stress, packing and force chains of a run,
// into RUN_DIR/analysis.csv and RUN_DIR/chains_NNNNN.csv.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/frame_analysis.h"
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

void write_text(const std::filesystem::path& file, const std::string& text) {
  write_atomically(file, [&](const std::filesystem::path& temporary) {
    std::ofstream out(temporary);
    out << text;
    out.close();
    if (!out) throw std::runtime_error(file.string() + ": cannot write");
  });
}

}  // namespace

int run_analyze_command(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string run, frames_text;
  po::options_description options("options");
  options.add_options()("help,h", "show this help")("window", po::value<std::string>(), "X0,Y0,X1,Y1: a rectangular window")(
      "circle", po::value<std::string>(), "X,Y,R: a circular window")(
      "frames", po::value(&frames_text), "A:B, the frames to analyse (default all)")(
      "exclude-rattlers", "leave particles with fewer than 2 contacts out of the coordination number");
  po::options_description hidden;
  hidden.add_options()("run", po::value(&run));
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("run", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "sphero analyze: " << e.what() << "\nusage: sphero analyze RUN_DIR [options]\n" << options;
    return 2;
  }
  if (vm.count("help") || run.empty()) {
    (vm.count("help") ? std::cout : std::cerr) << "usage: sphero analyze RUN_DIR [options]\n" << options;
    return vm.count("help") ? 0 : 2;
  }
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
      "chains,fraction_in_chains,chain_orientation_deg,fabric_xx,fabric_yy,fabric_xy,fabric_anisotropy\n";
  for (int frame = first; frame <= last; ++frame) {
    const FrameData data = read_frame(run, frame);
    const analysis::FrameSummary s = analysis::analyze_frame(data, window, vm.count("exclude-rattlers") > 0);
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", frame, s.time, s.stress.xx,
                       s.stress.yy, 0.5 * (s.stress.xy + s.stress.yx), s.pressure, s.deviator, s.packing_fraction,
                       s.void_ratio, s.coordination, s.particles, s.rattlers, s.chains.chains.size(),
                       s.chains.fraction_in_chains, s.chains.mean_orientation_degrees, s.fabric_xx, s.fabric_yy,
                       s.fabric_xy, s.anisotropy);
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
    write_text(std::filesystem::path(run) / fmt::format("chains_{:05d}.csv", frame), chains);
  }
  write_text(std::filesystem::path(run) / "analysis.csv", csv);
  fmt::print("sphero analyze: frames {} to {} of {} -> {}/analysis.csv and chains_NNNNN.csv\n", first, last, run, run);
  return 0;
}

}  // namespace sphero::app
