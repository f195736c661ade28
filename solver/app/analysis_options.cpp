#include "app/analysis_options.h"
#include "text/message_text.h"

#include <fmt/format.h>

#include <cmath>

#include <sstream>
#include <stdexcept>
#include <vector>

namespace sphero::app {
namespace {

std::vector<double> numbers(const std::string& option, const std::string& text, std::size_t count) {
  std::vector<double> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    const auto value = parse_finite(part);
    if (!value) throw std::invalid_argument(fmt::format("--{}: '{}' is not a number", option, part));
    out.push_back(*value);
  }
  if (out.size() != count)
    throw std::invalid_argument(fmt::format("--{}: expected {} comma-separated numbers", option, count));
  return out;
}

}  // namespace

void add_analysis_options(boost::program_options::options_description& options) {
  namespace po = boost::program_options;
  options.add_options()("window", po::value<std::string>(),
                        "X0,Y0,X1,Y1: average over a rectangular window (default: the box around the particles)")(
      "circle", po::value<std::string>(), "X,Y,R: average over a circular window")(
      "frames", po::value<std::string>(), "A:B, the frames to use (A: and :B leave an end open; default all)")(
      "exclude-rattlers", "leave particles with fewer than 2 contacts out of the coordination number")(
      "exclude-walls", "leave contacts with walls out of the particles' stresses")(
      "packing-by-centres",
      "packing fraction and void ratio from whole particles whose centre is in the window "
      "(default: each particle's exact part inside it, where the frame has exact outlines)")(
      "chain-angle", po::value<double>()->default_value(45.0),
      "force chains: tolerance angle in degrees (Peters et al.)")(
      "chain-links", po::value<std::string>()->default_value("ahead-and-behind"),
      "force chains: the links a particle keeps, ahead-and-behind (Peters et al.: the best-aligned neighbour on each "
      "side along its major stress direction) or two-best-aligned (the two best-aligned, on either side)")(
      "rose-bins", po::value<int>()->default_value(18), "bins of the orientation distributions over [0, 180) degrees")(
      "voronoi-spacing", po::value<double>()->default_value(analysis::kLocalPackingSpacing),
      "local packing: the outlines' samples this fraction of the mean grain size apart (smaller: finer, slower)");
}

analysis::AnalysisOptions analysis_options(const boost::program_options::variables_map& vm) {
  analysis::AnalysisOptions o;
  if (vm.count("window") && vm.count("circle")) throw std::invalid_argument("give --window or --circle, not both");
  if (vm.count("window")) {
    const auto w = numbers("window", vm["window"].as<std::string>(), 4);
    if (!(w[2] > w[0] && w[3] > w[1])) throw std::invalid_argument("--window: expected X0 < X1 and Y0 < Y1");
    o.window = {analysis::Window::Kind::rectangle, w[0], w[1], w[2], w[3], {}, 0.0};
  } else if (vm.count("circle")) {
    const auto c = numbers("circle", vm["circle"].as<std::string>(), 3);
    if (!(c[2] > 0.0)) throw std::invalid_argument("--circle: the radius must be positive");
    o.window.kind = analysis::Window::Kind::circle;
    o.window.centre = {c[0], c[1]};
    o.window.radius = c[2];
  }
  o.exclude_rattlers = vm.count("exclude-rattlers") > 0;
  o.exclude_walls = vm.count("exclude-walls") > 0;
  o.packing_by_centres = vm.count("packing-by-centres") > 0;
  o.chain_tolerance_degrees = vm["chain-angle"].as<double>();
  if (!(o.chain_tolerance_degrees > 0.0 && o.chain_tolerance_degrees <= 90.0))
    throw std::invalid_argument("--chain-angle: expected an angle in (0, 90] degrees");
  try {
    o.chain_links = analysis::chain_links_from_string(vm["chain-links"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--chain-links: ") + e.what());
  }
  o.rose_bins = vm["rose-bins"].as<int>();
  if (o.rose_bins < 1 || o.rose_bins > 3600) throw std::invalid_argument("--rose-bins: expected 1 to 3600");
  o.voronoi_spacing = vm["voronoi-spacing"].as<double>();
  if (!(o.voronoi_spacing >= 0.005 && o.voronoi_spacing <= 1.0))
    throw std::invalid_argument("--voronoi-spacing: expected a fraction of the mean grain size in [0.005, 1]");
  return o;
}

FrameRange frame_range(const boost::program_options::variables_map& vm, int count) {
  FrameRange r{0, count - 1};
  if (!vm.count("frames")) return r;
  const std::string text = vm["frames"].as<std::string>();
  const auto colon = text.find(':');
  const auto whole = [&](const std::string& part) {
    const auto n = parse_number(part);
    if (!n || *n != std::floor(*n) || std::abs(*n) > 1e9)
      throw std::invalid_argument(fmt::format("--frames: expected A:B, A:, :B or A, found '{}'", text));
    return static_cast<int>(*n);
  };
  // A:B, A alone, or an open end: A: to the last frame, :B from the first.
  const std::string first = text.substr(0, colon), last = colon == std::string::npos ? "" : text.substr(colon + 1);
  r.first = first.empty() && colon != std::string::npos ? 0 : whole(first);
  r.last = colon == std::string::npos ? r.first : last.empty() ? count - 1 : whole(last);
  if (r.first < 0 || r.last >= count || r.first > r.last)
    throw std::invalid_argument(fmt::format("--frames: the run has frames 0 to {}", count - 1));
  return r;
}

}  // namespace sphero::app
