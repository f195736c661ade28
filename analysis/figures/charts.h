// Publication plots of a run's time series and distributions: x–y charts
// (lines, markers or bars, with axes, nice ticks and a legend) and polar
// roses of axial orientation distributions. Headless Cairo; PNG, or exact
// vector SVG / PDF by the file's extension.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

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

// Throws std::runtime_error when there is nothing finite to plot.
void draw_chart(const Chart& chart, const std::filesystem::path& file, int width = 1200, int height = 800);

// A rose of distributions over the axis angle θ ∈ [0°, 180°) (one value per
// equal bin), drawn over the full circle (θ and θ + 180° are one axis), each
// curve scaled to its own maximum.
struct Rose {
  std::string title;
  std::vector<Curve> curves;  // y per bin; x unused
};
void draw_rose(const Rose& rose, const std::filesystem::path& file, int width = 1000);

}  // namespace sphero::analysis
