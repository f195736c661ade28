// Publication plots of a run's time series and distributions: x–y charts
// (lines, markers or bars, with axes, nice ticks and a legend) and polar
// roses of axial orientation distributions. Headless Cairo; PNG, or exact
// vector SVG / PDF by the file's extension.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/figures/box.h"

namespace sphero::analysis {

struct Curve {
  enum class Style { line, dashed, markers, bars };
  std::string label;  // in the legend; empty for none
  std::vector<double> x, y;
  Style style = Style::line;
};

struct Chart {
  std::string title, x_label, y_label;
  std::vector<Curve> curves;
  bool y_from_zero = false;           // include 0 in the y range (linear y only)
  bool x_log = false, y_log = false;  // logarithmic axes: non-positive values are left out
};

// Where a chart puts its parts, in output units (y down): the axes (the
// curves are clipped to them), the legend (inside the axes only in a
// corner where it hides no point) and every piece of text — the title's
// lines, each tick label, the axis labels. Drawn exactly so.
struct ChartLayout {
  double width = 0, height = 0;
  Box plot, legend;
  bool legend_shown = false;
  std::vector<Box> text;
};
ChartLayout chart_layout(const Chart& chart, int width, int height);

// Throws std::runtime_error when there is nothing finite to plot, or for a
// side outside [100, 20000].
void draw_chart(const Chart& chart, const std::filesystem::path& file, int width = 1200, int height = 800);

// A rose of distributions over the axis angle θ ∈ [0°, 180°) (one value per
// equal bin), drawn over the full circle (θ and θ + 180° are one axis), each
// curve scaled to its own maximum.
struct Rose {
  std::string title;
  std::vector<Curve> curves;  // y per bin; x unused
};
// Where a rose puts its parts: the circle (its centre and radius), every
// piece of text around it — the title's lines, the angles, the legend —
// and the rings' labels of its radial scale, on the circle. The figure is
// `width` wide and as tall as they need.
struct RoseLayout {
  double width = 0, height = 0, centre_x = 0, centre_y = 0, radius = 0;
  std::vector<Box> text, scale_labels;
};
RoseLayout rose_layout(const Rose& rose, int width);
void draw_rose(const Rose& rose, const std::filesystem::path& file, int width = 1000);

}  // namespace sphero::analysis
