#include "analysis/figures/charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "analysis/figures/canvas.h"

namespace sphero::analysis {
namespace {

std::string tick_label(double v) { return fmt::format("{:.6g}", v); }

// A logarithmic axis is drawn as a linear one of log10(value): ticks at the
// decades it spans (nice ticks in the exponent when it spans less than two).
std::vector<double> axis_ticks(double low, double high, bool log) {
  if (!log) return nice_ticks(low, high, 6);
  std::vector<double> decades, steps;
  for (double t = std::ceil(low - 1e-9); t <= high + 1e-9; t += 1.0) decades.push_back(t);
  if (decades.size() >= 3) return decades;
  // Less than two decades: 1, 2 and 5 times the powers of ten in range.
  for (const std::vector<double>& mantissas :
       {std::vector<double>{1, 2, 5}, std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
    steps.clear();
    for (double k = std::floor(low); k <= std::ceil(high); k += 1.0)
      for (double m : mantissas)
        if (const double t = k + std::log10(m); t >= low - 1e-9 && t <= high + 1e-9) steps.push_back(t);
    if (steps.size() >= 3) return steps;
  }
  return nice_ticks(low, high, 4);
}
std::string axis_label(double t, bool log) { return log ? fmt::format("{:.3g}", std::pow(10.0, t)) : tick_label(t); }

Chart with_log_axes(const Chart& chart) {
  Chart out = chart;
  const auto to_log = [](std::vector<double>& values) {
    for (double& v : values) v = v > 0.0 ? std::log10(v) : NAN;
  };
  for (Curve& c : out.curves) {
    if (chart.x_log) to_log(c.x);
    if (chart.y_log) to_log(c.y);
  }
  if (chart.y_log) out.y_from_zero = false;
  return out;
}

void set_style(cairo_t* cr, Curve::Style style, double scale) {
  cairo_set_line_width(cr, 2.0 * scale);
  if (style == Curve::Style::dashed) {
    const double dash[] = {8.0 * scale, 5.0 * scale};
    cairo_set_dash(cr, dash, 2, 0.0);
  } else {
    cairo_set_dash(cr, nullptr, 0, 0.0);
  }
}

// The data's range in chart coordinates, padded, and where the axes lie
// on the page.
struct ChartFrame {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  double scale = 1.0, left = 0.0, right = 0.0, top = 0.0, bottom = 0.0;
  std::vector<std::string> title;  // wrapped to the plot's width
  double px(double x) const { return left + (x - x0) / (x1 - x0) * (right - left); }
  double py(double y) const { return bottom - (y - y0) / (y1 - y0) * (bottom - top); }
};

ChartFrame chart_frame(const Chart& chart, const std::filesystem::path& file, int width, int height) {
  ChartFrame f;
  for (const Curve& c : chart.curves) {
    // Bars reach half a bin past their centres.
    const double half = c.style == Curve::Style::bars && c.x.size() > 1 ? 0.5 * (c.x[1] - c.x[0]) : 0.0;
    for (std::size_t k = 0; k < std::min(c.x.size(), c.y.size()); ++k)
      if (std::isfinite(c.x[k]) && std::isfinite(c.y[k])) {
        f.x0 = std::min(f.x0, c.x[k] - half), f.x1 = std::max(f.x1, c.x[k] + half);
        f.y0 = std::min(f.y0, c.y[k]), f.y1 = std::max(f.y1, c.y[k]);
      }
  }
  if (!(f.x0 <= f.x1)) throw std::runtime_error(file.string() + ": nothing finite to plot for '" + chart.title + "'");
  if (chart.y_from_zero) f.y0 = std::min(f.y0, 0.0), f.y1 = std::max(f.y1, 0.0);
  // Flat data still gets a visible range.
  if (f.x1 - f.x0 <= 1e-12 * std::max(1.0, std::abs(f.x0))) f.x0 -= 0.5, f.x1 += 0.5;
  if (f.y1 - f.y0 <= 1e-12 * std::max(1.0, std::abs(f.y0)))
    f.y0 -= 0.5 * std::max(1.0, std::abs(f.y0)), f.y1 += 0.5 * std::max(1.0, std::abs(f.y1));
  const bool markers = std::any_of(
      chart.curves.begin(), chart.curves.end(), [](const Curve& c) { return c.style == Curve::Style::markers; });
  if (chart.x_log || markers) {  // markers at the ends of the axis stay whole
    const double x_pad = 0.03 * (f.x1 - f.x0);
    f.x0 -= x_pad, f.x1 += x_pad;
  }
  const double pad = 0.04 * (f.y1 - f.y0);
  if (!(chart.y_from_zero && f.y0 == 0.0)) f.y0 -= pad;
  f.y1 += pad;
  f.scale = width / 1200.0;
  f.left = 130 * f.scale, f.right = width - 40 * f.scale, f.bottom = height - 90 * f.scale;
  f.title = wrap_text(chart.title, 22 * f.scale, f.right - f.left);
  f.top = (70 + 28 * (static_cast<double>(f.title.size()) - 1)) * f.scale;
  return f;
}

void draw_axes(cairo_t* cr, const Chart& chart, const ChartFrame& f, int height) {
  const double scale = f.scale;
  cairo_set_font_size(cr, 22 * scale);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_lines(cr, f.left, 35 * scale, 28 * scale, f.title);
  cairo_set_line_width(cr, 1.2 * scale);
  cairo_rectangle(cr, f.left, f.top, f.right - f.left, f.bottom - f.top);
  cairo_stroke(cr);
  cairo_set_font_size(cr, 18 * scale);
  for (double t : axis_ticks(f.x0, f.x1, chart.x_log)) {
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, f.px(t), f.top);
    cairo_line_to(cr, f.px(t), f.bottom);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_text(cr, f.px(t), f.bottom + 20 * scale, axis_label(t, chart.x_log), 0.5);
  }
  for (double t : axis_ticks(f.y0, f.y1, chart.y_log)) {
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, f.left, f.py(t));
    cairo_line_to(cr, f.right, f.py(t));
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_text(cr, f.left - 10 * scale, f.py(t), axis_label(t, chart.y_log), 1.0);
  }
  cairo_set_font_size(cr, 20 * scale);
  draw_text(cr, 0.5 * (f.left + f.right), height - 30 * scale, chart.x_label, 0.5);
  draw_text(cr, 30 * scale, 0.5 * (f.top + f.bottom), chart.y_label, 0.5, -0.5 * std::numbers::pi);
}

void draw_bars(cairo_t* cr, const Curve& c, const ChartFrame& f) {
  const std::size_t n = std::min(c.x.size(), c.y.size());
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(c.y[k])) continue;
    const double half = 0.5 * (n > 1 ? c.x[1] - c.x[0] : 1.0);  // equal bins
    cairo_rectangle(cr, f.px(c.x[k] - half), f.py(c.y[k]), f.px(c.x[k] + half) - f.px(c.x[k] - half),
                    f.py(std::max(f.y0, 0.0)) - f.py(c.y[k]));
  }
  cairo_save(cr);
  cairo_set_source_rgba(cr, 0.0, 0.447, 0.698, 0.35);
  cairo_fill_preserve(cr);
  cairo_restore(cr);
  cairo_set_line_width(cr, 0.8 * f.scale);
  cairo_stroke(cr);
}

void draw_markers(cairo_t* cr, const Curve& c, const ChartFrame& f) {
  for (std::size_t k = 0; k < std::min(c.x.size(), c.y.size()); ++k) {
    if (!std::isfinite(c.y[k]) || !std::isfinite(c.x[k])) continue;
    cairo_new_sub_path(cr);
    cairo_arc(cr, f.px(c.x[k]), f.py(c.y[k]), 4 * f.scale, 0, 2 * std::numbers::pi);
  }
  cairo_fill(cr);
}

// A line that lifts the pen over points that are not finite.
void draw_line(cairo_t* cr, const Curve& c, const ChartFrame& f) {
  bool pen_down = false;
  for (std::size_t k = 0; k < std::min(c.x.size(), c.y.size()); ++k) {
    if (!std::isfinite(c.y[k]) || !std::isfinite(c.x[k])) {
      pen_down = false;
      continue;
    }
    if (pen_down) cairo_line_to(cr, f.px(c.x[k]), f.py(c.y[k]));
    else cairo_move_to(cr, f.px(c.x[k]), f.py(c.y[k]));
    pen_down = true;
  }
  cairo_stroke(cr);
}

// The curves, clipped to the axes.
void draw_curves(cairo_t* cr, const Chart& chart, const ChartFrame& f) {
  cairo_save(cr);
  cairo_rectangle(cr, f.left, f.top, f.right - f.left, f.bottom - f.top);
  cairo_clip(cr);
  for (std::size_t i = 0; i < chart.curves.size(); ++i) {
    const Curve& c = chart.curves[i];
    set_series_colour(cr, static_cast<int>(i));
    set_style(cr, c.style, f.scale);
    if (c.style == Curve::Style::bars) draw_bars(cr, c, f);
    else if (c.style == Curve::Style::markers) draw_markers(cr, c, f);
    else draw_line(cr, c, f);
  }
  cairo_restore(cr);
}

// The legend's box: its size, and the corner of the axes where it hides the
// fewest points (`hidden` of them).
struct LegendBox {
  double left = 0.0, top = 0.0, width = 0.0, height = 0.0;
  int entries = 0;
  std::size_t hidden = 0;
};

LegendBox legend_box(const Chart& chart, const ChartFrame& f) {
  const double scale = f.scale;
  LegendBox b;
  double widest = 0.0;
  for (const Curve& c : chart.curves) {
    if (c.label.empty()) continue;
    widest = std::max(widest, text_width(c.label, 18 * scale));
    ++b.entries;
  }
  b.width = widest + 65 * scale, b.height = 26 * scale * b.entries + 8 * scale;
  b.hidden = SIZE_MAX;
  const double right = f.right - b.width - 10 * scale, left = f.left + 10 * scale;
  const double top = f.top + 8 * scale, bottom = f.bottom - b.height - 8 * scale;
  for (const auto& [corner_left, corner_top] :
       {std::pair{right, top}, std::pair{left, top}, std::pair{right, bottom}, std::pair{left, bottom}}) {
    std::size_t hidden = 0;
    for (const Curve& c : chart.curves)
      for (std::size_t k = 0; k < std::min(c.x.size(), c.y.size()); ++k) {
        const double u = f.px(c.x[k]), v = f.py(c.y[k]);
        hidden += u >= corner_left && u <= corner_left + b.width && v >= corner_top && v <= corner_top + b.height;
      }
    if (hidden < b.hidden) b.hidden = hidden, b.left = corner_left, b.top = corner_top;
  }
  return b;
}

// The legend on a white ground, where `box` puts it.
void draw_legend(cairo_t* cr, const Chart& chart, const ChartFrame& f, const LegendBox& box) {
  const double scale = f.scale;
  const double box_left = box.left, box_top = box.top;
  cairo_set_font_size(cr, 18 * scale);
  if (box.entries > 0) {
    cairo_set_dash(cr, nullptr, 0, 0.0);
    cairo_rectangle(cr, box_left, box_top, box.width, box.height);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.7, 0.7, 0.7);
    cairo_set_line_width(cr, 0.8 * scale);
    cairo_stroke(cr);
  }
  double y = box_top + 17 * scale;
  for (std::size_t i = 0; i < chart.curves.size(); ++i) {
    const Curve& c = chart.curves[i];
    if (c.label.empty()) continue;
    const double x = box_left + 55 * scale;
    set_series_colour(cr, static_cast<int>(i));
    set_style(cr, c.style, scale);
    if (c.style == Curve::Style::markers || c.style == Curve::Style::bars) {
      cairo_rectangle(cr, x - 38 * scale, y - 6 * scale, 28 * scale, 12 * scale);
      cairo_fill(cr);
    } else {
      cairo_move_to(cr, x - 45 * scale, y);
      cairo_line_to(cr, x - 10 * scale, y);
      cairo_stroke(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_text(cr, x, y, c.label);
    y += 26 * scale;
  }
}

}  // namespace

void draw_chart(const Chart& linear_chart, const std::filesystem::path& file, int width, int height) {
  const Chart chart = with_log_axes(linear_chart);
  ChartFrame frame = chart_frame(chart, file, width, height);
  LegendBox legend = legend_box(chart, frame);
  if (legend.entries > 0 && legend.hidden > 0) {
    // Every corner would hide data: the legend goes beside the axes.
    frame.right -= legend.width + 20 * frame.scale;
    legend.left = frame.right + 12 * frame.scale, legend.top = frame.top;
  }
  render_figure(file, width, height, [&](cairo_t* cr) {
    draw_axes(cr, chart, frame, height);
    draw_curves(cr, chart, frame);
    draw_legend(cr, chart, frame, legend);
  });
}

void draw_rose(const Rose& rose, const std::filesystem::path& file, int width) {
  const int height = width;
  render_figure(file, width, height, [&](cairo_t* cr) {
    const double scale = width / 1000.0;
    const double cx = 0.5 * width, cy = 0.5 * height + 20 * scale, radius = 0.36 * width;
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 22 * scale);
    draw_lines(cr, 30 * scale, 35 * scale, 28 * scale, wrap_text(rose.title, 22 * scale, width - 60 * scale));
    // Grid: circles at quarters of the maximum, spokes every 30°
    cairo_set_line_width(cr, 1.0 * scale);
    cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
    for (int k = 1; k <= 4; ++k) {
      cairo_new_sub_path(cr);
      cairo_arc(cr, cx, cy, radius * k / 4.0, 0, 2 * std::numbers::pi);
    }
    cairo_stroke(cr);
    cairo_set_font_size(cr, 18 * scale);
    // The radial scale: each ring's share of a curve's outer circle, along
    // the 15° ray between two spokes.
    cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
    const double ray = 15.0 * std::numbers::pi / 180.0;
    for (int k = 1; k <= 4; ++k)
      draw_text(cr, cx + radius * k / 4.0 * std::cos(ray), cy - radius * k / 4.0 * std::sin(ray),
                fmt::format("{}%", 25 * k), 0.5);
    for (int d = 0; d < 360; d += 30) {
      const double a = d * std::numbers::pi / 180.0;
      cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
      cairo_move_to(cr, cx, cy);
      cairo_line_to(cr, cx + radius * std::cos(a), cy - radius * std::sin(a));
      cairo_stroke(cr);
      cairo_set_source_rgb(cr, 0, 0, 0);
      draw_text(cr, cx + (radius + 30 * scale) * std::cos(a), cy - (radius + 30 * scale) * std::sin(a),
                fmt::format("{}°", d), 0.5);
    }
    double legend_y = height - 30 * scale - 26 * scale * static_cast<double>(rose.curves.size() - 1);
    for (std::size_t i = 0; i < rose.curves.size(); ++i) {
      const Curve& c = rose.curves[i];
      const std::size_t bins = c.y.size();
      double top = 0.0;
      for (double v : c.y)
        if (std::isfinite(v)) top = std::max(top, v);
      if (bins == 0 || top <= 0.0) continue;
      set_series_colour(cr, static_cast<int>(i));
      set_style(cr, c.style, scale);
      // Each bin an arc step at its value; θ and θ + 180° mirror.
      const double w = std::numbers::pi / static_cast<double>(bins);
      for (int half = 0; half < 2; ++half)
        for (std::size_t k = 0; k < bins; ++k) {
          const double r = radius * (std::isfinite(c.y[k]) ? c.y[k] : 0.0) / top;
          const double a0 = half * std::numbers::pi + static_cast<double>(k) * w, a1 = a0 + w;
          if (half == 0 && k == 0) cairo_move_to(cr, cx + r * std::cos(a0), cy - r * std::sin(a0));
          else cairo_line_to(cr, cx + r * std::cos(a0), cy - r * std::sin(a0));
          cairo_arc_negative(cr, cx, cy, r, -a0, -a1);
        }
      cairo_close_path(cr);
      if (i == 0) {
        cairo_save(cr);
        cairo_set_source_rgba(cr, 0.0, 0.447, 0.698, 0.25);
        cairo_fill_preserve(cr);
        cairo_restore(cr);
      }
      cairo_stroke(cr);
      if (!c.label.empty()) {
        cairo_move_to(cr, 30 * scale, legend_y);
        cairo_line_to(cr, 65 * scale, legend_y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        draw_text(cr, 75 * scale, legend_y, fmt::format("{}; 100% = {:.4g}", c.label, top));
        legend_y += 26 * scale;
      }
    }
  });
}

}  // namespace sphero::analysis
