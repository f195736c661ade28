// The force-network figure of one frame, for papers: particles as their
// exact rounded outlines in light grey, walls in dark grey, and every
// contact as a line whose width is proportional to its force (a contact
// across a periodic boundary as its two halves, one at each grain), under
// a caption wrapped to the width and a legend of line widths and colours. Rendered with
// Cairo, headless; PNG, or vector SVG / PDF, chosen by the file's extension.
// Everything drawn stays inside the view: walls reaching beyond it are cut
// at its edge, never drawn over the caption, legend or colour bar.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/figures/box.h"
#include "io/frame_data.h"

namespace sphero::analysis {

struct FigureOptions {
  int width = 1600;          // pixels (PNG) or points (SVG, PDF); the height follows the aspect
  double widest_line = 0.0;  // in data units; 0: a third of the mean particle size
  std::string title;         // drawn at the top left; empty for none
  // Per force segment of the frame: part of a force chain (drawn in blue).
  // Empty for no highlighting.
  std::vector<bool> in_chain;
  // Per particle of the frame: a value to fill it with (viridis over
  // [fill_low, fill_high], with a colour bar labelled `fill_label`) instead
  // of light grey — a map of local packing fraction, say. Empty for grey.
  std::vector<double> fill;
  double fill_low = 0.0, fill_high = 1.0;
  std::string fill_label;
  bool draw_forces = true;
  bool show_time = true;  // false: the caption is the title alone (a packing has no time)
  // What the drawing frames: the grains only (with a margin of a mean grain
  // size), cutting off walls that reach far beyond them; grains and walls;
  // or, automatically, the grains where the walls reach more than twice as
  // far as they do along either axis (a biaxial sample's long plates),
  // else everything.
  enum class View { automatic, grains, all } view = View::automatic;
};

// Whether a figure of `f` with `o` frames its grains only.
bool frames_grains_only(const FrameData& f, const FigureOptions& o);

// Each particle's centre, by body id.
using ParticleCentres = std::map<int, Vec2>;
ParticleCentres particle_centres(const FrameData& frame);

// The segments contact k of the frame is drawn as: its line from centre to
// centre, or, where the pair touches across a periodic boundary (the line
// reaches an image of the second body, not where that body is drawn), two
// halves, each from its grain's centre to the middle of the line through
// the nearest image.
std::vector<std::pair<Vec2, Vec2>> contact_pieces(const FrameData& frame, const ParticleCentres& centres,
                                                  std::size_t k);

// Where the figure puts its parts, in output units (y down): the drawing
// (grains, walls and forces are clipped to it) and every piece of text —
// each caption line, each legend entry with its sample line, the colour bar
// with its tick labels and label. Drawn exactly so.
struct ForceNetworkLayout {
  double width = 0, height = 0;
  Box drawing;
  std::vector<Box> text;
};
ForceNetworkLayout force_network_layout(const FrameData& frame, const FigureOptions& options);

// Throws std::runtime_error for an unknown extension or an unwritable file;
// never leaves a partial file.
void draw_force_network(const FrameData& frame, const std::filesystem::path& file, const FigureOptions& options);

}  // namespace sphero::analysis
