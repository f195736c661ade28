#include "analysis/figures/charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "analysis/figures/canvas.h"

namespace sphero::analysis {
namespace {

// Ticks at 1, 2 or 5 × 10^k covering [low, high] with about `count` steps.
std::vector<double> nice_ticks(double low, double high, int count) {
  const double raw = (high - low) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  std::vector<double> ticks;
  for (double t = std::ceil(low / step - 1e-9) * step; t <= high + 1e-9 * step; t += step)
    ticks.push_back(std::abs(t) < 1e-12 * step ? 0.0 : t);
  return ticks;
}

std::string tick_label(double v) { return fmt::format("{:.6g}", v); }

// A logarithmic axis is drawn as a linear one of log10(value): ticks at the
// decades it spans (nice ticks in the exponent when it spans less than two).
std::vector<double> axis_ticks(double low, double high, bool log) {
  if (!log) return nice_ticks(low, high, 6);
  std::vector<double> decades, steps;
  for (double t = std::ceil(low - 1e-9); t <= high + 1e-9; t += 1.0) decades.push_back(t);
  if (decades.size() >= 3) return decades;
  // Less than two decades: 1, 2 and 5 times the powers of ten in range.
  for (const std::vector<double>& mantissas : {std::vector<double>{1, 2, 5}, std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
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

}  // namespace

void draw_chart(const Chart& linear_chart, const std::filesystem::path& file, int width, int height) {
  const Chart chart = with_log_axes(linear_chart);
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const Curve& c : chart.curves) {
    // Bars reach half a bin past their centres.
    const double half = c.style == Curve::Style::bars && c.x.size() > 1 ? 0.5 * (c.x[1] - c.x[0]) : 0.0;
    for (std::size_t k = 0; k < std::min(c.x.size(), c.y.size()); ++k)
      if (std::isfinite(c.x[k]) && std::isfinite(c.y[k])) {
        x0 = std::min(x0, c.x[k] - half), x1 = std::max(x1, c.x[k] + half);
        y0 = std::min(y0, c.y[k]), y1 = std::max(y1, c.y[k]);
      }
  }
  if (!(x0 <= x1)) throw std::runtime_error(file.string() + ": nothing finite to plot for '" + chart.title + "'");
  if (chart.y_from_zero) y0 = std::min(y0, 0.0), y1 = std::max(y1, 0.0);
  // Flat data still gets a visible range.
  if (x1 - x0 <= 1e-12 * std::max(1.0, std::abs(x0))) x0 -= 0.5, x1 += 0.5;
  if (y1 - y0 <= 1e-12 * std::max(1.0, std::abs(y0))) y0 -= 0.5 * std::max(1.0, std::abs(y0)), y1 += 0.5 * std::max(1.0, std::abs(y1));
  if (chart.x_log) {  // markers at the first and last decade stay whole
    const double x_pad = 0.03 * (x1 - x0);
    x0 -= x_pad, x1 += x_pad;
  }
  const double pad = 0.04 * (y1 - y0);
  if (!(chart.y_from_zero && y0 == 0.0)) y0 -= pad;
  y1 += pad;

  render_figure(file, width, height, [&](cairo_t* cr) {
    const double scale = width / 1200.0;
    const double left = 130 * scale, right = width - 40 * scale, top = 70 * scale, bottom = height - 90 * scale;
    auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * (right - left); };
    auto py = [&](double y) { return bottom - (y - y0) / (y1 - y0) * (bottom - top); };
    cairo_set_font_size(cr, 22 * scale);
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_text(cr, left, 35 * scale, chart.title);
    // Axes box and ticks
    cairo_set_line_width(cr, 1.2 * scale);
    cairo_rectangle(cr, left, top, right - left, bottom - top);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 18 * scale);
    for (double t : axis_ticks(x0, x1, chart.x_log)) {
      cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
      cairo_move_to(cr, px(t), top);
      cairo_line_to(cr, px(t), bottom);
      cairo_stroke(cr);
      cairo_set_source_rgb(cr, 0, 0, 0);
      draw_text(cr, px(t), bottom + 20 * scale, axis_label(t, chart.x_log), 0.5);
    }
    for (double t : axis_ticks(y0, y1, chart.y_log)) {
      cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
      cairo_move_to(cr, left, py(t));
      cairo_line_to(cr, right, py(t));
      cairo_stroke(cr);
      cairo_set_source_rgb(cr, 0, 0, 0);
      draw_text(cr, left - 10 * scale, py(t), axis_label(t, chart.y_log), 1.0);
    }
    cairo_set_font_size(cr, 20 * scale);
    draw_text(cr, 0.5 * (left + right), height - 30 * scale, chart.x_label, 0.5);
    draw_text(cr, 30 * scale, 0.5 * (top + bottom), chart.y_label, 0.5, -0.5 * std::numbers::pi);
    // Curves, clipped to the axes
    cairo_save(cr);
    cairo_rectangle(cr, left, top, right - left, bottom - top);
    cairo_clip(cr);
    for (std::size_t i = 0; i < chart.curves.size(); ++i) {
      const Curve& c = chart.curves[i];
      const std::size_t n = std::min(c.x.size(), c.y.size());
      set_series_colour(cr, static_cast<int>(i));
      set_style(cr, c.style, scale);
      if (c.style == Curve::Style::bars) {
        for (std::size_t k = 0; k < n; ++k) {
          if (!std::isfinite(c.y[k])) continue;
          const double half = 0.5 * (n > 1 ? c.x[1] - c.x[0] : 1.0);  // equal bins
          cairo_rectangle(cr, px(c.x[k] - half), py(c.y[k]), px(c.x[k] + half) - px(c.x[k] - half), py(std::max(y0, 0.0)) - py(c.y[k]));
        }
        cairo_save(cr);
        cairo_set_source_rgba(cr, 0.0, 0.447, 0.698, 0.35);
        cairo_fill_preserve(cr);
        cairo_restore(cr);
        cairo_set_line_width(cr, 0.8 * scale);
        cairo_stroke(cr);
      } else if (c.style == Curve::Style::markers) {
        for (std::size_t k = 0; k < n; ++k) {
          if (!std::isfinite(c.y[k]) || !std::isfinite(c.x[k])) continue;
          cairo_new_sub_path(cr);
          cairo_arc(cr, px(c.x[k]), py(c.y[k]), 4 * scale, 0, 2 * std::numbers::pi);
        }
        cairo_fill(cr);
      } else {
        bool pen_down = false;
        for (std::size_t k = 0; k < n; ++k) {
          if (!std::isfinite(c.y[k]) || !std::isfinite(c.x[k])) {
            pen_down = false;
            continue;
          }
          if (pen_down)
            cairo_line_to(cr, px(c.x[k]), py(c.y[k]));
          else
            cairo_move_to(cr, px(c.x[k]), py(c.y[k]));
          pen_down = true;
        }
        cairo_stroke(cr);
      }
    }
    cairo_restore(cr);
    // Legend, top right inside the axes, on a white ground
    cairo_set_font_size(cr, 18 * scale);
    double widest = 0.0;
    int entries = 0;
    for (const Curve& c : chart.curves) {
      if (c.label.empty()) continue;
      cairo_text_extents_t e;
      cairo_text_extents(cr, c.label.c_str(), &e);
      widest = std::max(widest, e.x_advance);
      ++entries;
    }
    // The corner of the axes whose legend box would hide the fewest points.
    const double box_width = widest + 65 * scale, box_height = 26 * scale * entries + 8 * scale;
    double box_left = right - widest - 75 * scale, box_top = top + 8 * scale;
    std::size_t fewest = SIZE_MAX;
    for (const auto& [corner_left, corner_top] :
         {std::pair{right - widest - 75 * scale, top + 8 * scale}, std::pair{left + 10 * scale, top + 8 * scale},
          std::pair{right - widest - 75 * scale, bottom - box_height - 8 * scale},
          std::pair{left + 10 * scale, bottom - box_height - 8 * scale}}) {
      std::size_t hidden = 0;
      for (const Curve& c : chart.curves)
        for (std::size_t k = 0; k < std::min(c.x.size(), c.y.size()); ++k) {
          const double u = px(c.x[k]), v = py(c.y[k]);
          hidden += u >= corner_left && u <= corner_left + box_width && v >= corner_top && v <= corner_top + box_height;
        }
      if (hidden < fewest) fewest = hidden, box_left = corner_left, box_top = corner_top;
    }
    if (entries > 0) {
      cairo_set_dash(cr, nullptr, 0, 0.0);
      cairo_rectangle(cr, box_left, box_top, box_width, box_height);
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
  });
}

void draw_rose(const Rose& rose, const std::filesystem::path& file, int width) {
  const int height = width;
  render_figure(file, width, height, [&](cairo_t* cr) {
    const double scale = width / 1000.0;
    const double cx = 0.5 * width, cy = 0.5 * height + 20 * scale, radius = 0.36 * width;
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 22 * scale);
    draw_text(cr, 30 * scale, 35 * scale, rose.title);
    // Grid: circles at quarters of the maximum, spokes every 30°
    cairo_set_line_width(cr, 1.0 * scale);
    cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
    for (int k = 1; k <= 4; ++k) {
      cairo_new_sub_path(cr);
      cairo_arc(cr, cx, cy, radius * k / 4.0, 0, 2 * std::numbers::pi);
    }
    cairo_stroke(cr);
    cairo_set_font_size(cr, 18 * scale);
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
          if (half == 0 && k == 0)
            cairo_move_to(cr, cx + r * std::cos(a0), cy - r * std::sin(a0));
          else
            cairo_line_to(cr, cx + r * std::cos(a0), cy - r * std::sin(a0));
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
        draw_text(cr, 75 * scale, legend_y, fmt::format("{} (outer circle {:.4g})", c.label, top));
        legend_y += 26 * scale;
      }
    }
  });
}

}  // namespace sphero::analysis
