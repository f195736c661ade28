// `sphero figure RUN_DIR [--frame N|last] [-o FILE.png|svg|pdf] [--width W]`:
// the force network of one frame of a run.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <iostream>
#include <algorithm>
#include <set>

#include "analysis/figures/force_network.h"
#include "analysis/frame_analysis.h"
#include "app/command_line.h"
#include "app/commands.h"
#include "io/frame_reader.h"

namespace sphero::app {

int run_figure_command(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string run, frame_text = "last", output, title;
  int width = 1600;
  po::options_description options("options");
  options.add_options()("help,h", "show this help")("frame", po::value(&frame_text), "frame number, or 'last' (default)")(
      "output,o", po::value(&output), "figure file: .png, .svg or .pdf (default RUN_DIR/force-network.png)")(
      "width", po::value(&width), "width in pixels (PNG) or points (default 1600)")(
      "title", po::value(&title), "a title before the caption");
  po::variables_map vm;
  if (const auto stop = parse_command_line(args, options, run, true, "figure", "usage: sphero figure RUN_DIR [options]\n", vm))
    return *stop;
  const int frames = frame_count(run);
  int frame = frames - 1;
  if (frame_text != "last") {
    try {
      frame = std::stoi(frame_text);
    } catch (const std::exception&) {
      throw std::invalid_argument(fmt::format("--frame: expected a frame number or 'last', found '{}'", frame_text));
    }
  }
  if (output.empty()) output = (std::filesystem::path(run) / "force-network.png").string();
  const FrameData data = read_frame(run, frame);
  // Chains highlighted: the links between consecutive particles of a chain.
  const analysis::FrameSummary summary = analysis::analyze_frame(data, {});
  std::set<std::pair<int, int>> links;
  for (const auto& chain : summary.chains.chains)
    for (std::size_t k = 0; k + 1 < chain.particles.size(); ++k)
      links.insert(std::minmax(data.particles[static_cast<std::size_t>(chain.particles[k])].id,
                               data.particles[static_cast<std::size_t>(chain.particles[k + 1])].id));
  std::vector<bool> in_chain;
  for (const PairRecord& pair : data.pairs) in_chain.push_back(links.count(std::minmax(pair.body_a, pair.body_b)) > 0);
  analysis::draw_force_network(data, output, {width, 0.0, title, in_chain});
  fmt::print("sphero figure: frame {} (t = {:g} s), {} particles, {} contacts -> {}\n", frame, data.time,
             data.outlines.size(), data.forces.size(), output);
  return 0;
}

}  // namespace sphero::app
