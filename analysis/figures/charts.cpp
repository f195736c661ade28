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

// The data's range in chart coordinates, padded, and where the axes, their
// labels, the title and the legend lie on the page.
struct ChartFrame {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  double scale = 1.0, left = 0.0, right = 0.0, top = 0.0, bottom = 0.0;
  double title_font = 22.0, tick_font = 18.0, label_font = 20.0;
  double x_label_y = 0.0, y_label_x = 0.0;  // the axis labels' centres
  std::vector<std::string> title;           // wrapped to the plot's width
  double px(double x) const { return left + (x - x0) / (x1 - x0) * (right - left); }
  double py(double y) const { return bottom - (y - y0) / (y1 - y0) * (bottom - top); }
  double title_line_y(std::size_t k) const { return (35.0 + 28.0 * static_cast<double>(k)) * scale; }
  // Low enough that the first x label clears the lowest y label at the corner.
  double x_tick_label_y() const { return bottom + 24.0 * scale; }
};

// The data's range, padded so that nothing sits on the frame.
void fit_range(ChartFrame& f, const Chart& chart, const std::filesystem::path& file) {
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
}

double widest_tick_label(double low, double high, bool log, double font) {
  double widest = 0.0;
  for (double t : axis_ticks(low, high, log)) widest = std::max(widest, text_width(axis_label(t, log), font));
  return widest;
}

// The text scales with the figure's smaller side, so that a wide, short
// chart keeps room for its axes; the margins make room for the widest tick
// labels, and `below` more under the x label (for a legend there).
ChartFrame chart_frame(const Chart& chart, const std::filesystem::path& file, int width, int height, double below) {
  ChartFrame f;
  fit_range(f, chart, file);
  f.scale = std::min(width / 1200.0, height / 800.0);
  f.title_font = 22 * f.scale, f.tick_font = 18 * f.scale, f.label_font = 20 * f.scale;
  const double y_ticks = widest_tick_label(f.y0, f.y1, chart.y_log, f.tick_font);
  const double x_ticks = widest_tick_label(f.x0, f.x1, chart.x_log, f.tick_font);
  f.y_label_x = 10 * f.scale + 0.7 * f.label_font;
  f.left = std::max(130 * f.scale, f.y_label_x + 0.7 * f.label_font + 10 * f.scale + y_ticks + 10 * f.scale);
  f.right = width - std::max(40 * f.scale, 0.5 * x_ticks + 10 * f.scale);
  f.x_label_y = height - below - 30 * f.scale;
  f.bottom = f.x_label_y - 60 * f.scale;
  f.title = wrap_text(chart.title, f.title_font, f.right - f.left);
  f.top = (70 + 28 * (static_cast<double>(f.title.size()) - 1)) * f.scale;
  return f;
}

void draw_axes(cairo_t* cr, const Chart& chart, const ChartFrame& f) {
  const double scale = f.scale;
  cairo_set_font_size(cr, f.title_font);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_lines(cr, f.left, f.title_line_y(0), 28 * scale, f.title);
  cairo_set_line_width(cr, 1.2 * scale);
  cairo_rectangle(cr, f.left, f.top, f.right - f.left, f.bottom - f.top);
  cairo_stroke(cr);
  cairo_set_font_size(cr, f.tick_font);
  for (double t : axis_ticks(f.x0, f.x1, chart.x_log)) {
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, f.px(t), f.top);
    cairo_line_to(cr, f.px(t), f.bottom);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_text(cr, f.px(t), f.x_tick_label_y(), axis_label(t, chart.x_log), 0.5);
  }
  for (double t : axis_ticks(f.y0, f.y1, chart.y_log)) {
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, f.left, f.py(t));
    cairo_line_to(cr, f.right, f.py(t));
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_text(cr, f.left - 10 * scale, f.py(t), axis_label(t, chart.y_log), 1.0);
  }
  cairo_set_font_size(cr, f.label_font);
  draw_text(cr, 0.5 * (f.left + f.right), f.x_label_y, chart.x_label, 0.5);
  draw_text(cr, f.y_label_x, 0.5 * (f.top + f.bottom), chart.y_label, 0.5, -0.5 * std::numbers::pi);
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

// The axes and the legend: in the corner of the axes that hides no data;
// else beside the axes, where they keep most of their width; else under
// the x label.
struct ChartPlan {
  Chart chart;
  ChartFrame frame;
  LegendBox legend;
};

ChartPlan plan_chart(const Chart& linear_chart, const std::filesystem::path& file, int width, int height) {
  if (width < 100 || width > 20000 || height < 100 || height > 20000)
    throw std::runtime_error(file.string() + ": a chart's width and height must be between 100 and 20000");
  ChartPlan p{with_log_axes(linear_chart), {}, {}};
  p.frame = chart_frame(p.chart, file, width, height, 0.0);
  p.legend = legend_box(p.chart, p.frame);
  const ChartFrame& f = p.frame;
  const bool fits_inside =
      p.legend.width + 20 * f.scale <= f.right - f.left && p.legend.height + 16 * f.scale <= f.bottom - f.top;
  if (p.legend.entries == 0 || (p.legend.hidden == 0 && fits_inside)) return p;
  const double gap = 20 * p.frame.scale;
  if (p.legend.width + gap < 0.4 * (p.frame.right - p.frame.left) && p.legend.height <= f.bottom - f.top) {
    p.frame.right -= p.legend.width + gap;
    p.legend.left = p.frame.right + 12 * p.frame.scale, p.legend.top = p.frame.top;
  } else {
    p.frame = chart_frame(p.chart, file, width, height, p.legend.height + 10 * p.frame.scale);
    p.legend.left = p.frame.left, p.legend.top = height - p.legend.height - 10 * p.frame.scale;
  }
  p.legend.hidden = 0;
  return p;
}

Box centred_text(double x, double y, const std::string& text, double font, double align = 0.0) {
  const double w = text_width(text, font);
  return {x - align * w, y - 0.6 * font, x + (1.0 - align) * w, y + 0.6 * font};
}

}  // namespace

ChartLayout chart_layout(const Chart& chart, int width, int height) {
  const ChartPlan p = plan_chart(chart, "chart", width, height);
  const ChartFrame& f = p.frame;
  ChartLayout out;
  out.width = width, out.height = height;
  out.plot = {f.left, f.top, f.right, f.bottom};
  out.legend = {p.legend.left, p.legend.top, p.legend.left + p.legend.width, p.legend.top + p.legend.height};
  out.legend_shown = p.legend.entries > 0;
  for (std::size_t k = 0; k < f.title.size(); ++k)
    out.text.push_back(centred_text(f.left, f.title_line_y(k), f.title[k], f.title_font));
  for (double t : axis_ticks(f.x0, f.x1, p.chart.x_log))
    out.text.push_back(centred_text(f.px(t), f.x_tick_label_y(), axis_label(t, p.chart.x_log), f.tick_font, 0.5));
  for (double t : axis_ticks(f.y0, f.y1, p.chart.y_log))
    out.text.push_back(centred_text(f.left - 10 * f.scale, f.py(t), axis_label(t, p.chart.y_log), f.tick_font, 1.0));
  out.text.push_back(centred_text(0.5 * (f.left + f.right), f.x_label_y, p.chart.x_label, f.label_font, 0.5));
  const Box y_label = centred_text(0.5 * (f.top + f.bottom), f.y_label_x, p.chart.y_label, f.label_font, 0.5);
  out.text.push_back({y_label.y0, y_label.x0, y_label.y1, y_label.x1});  // turned a quarter
  return out;
}

void draw_chart(const Chart& linear_chart, const std::filesystem::path& file, int width, int height) {
  const ChartPlan p = plan_chart(linear_chart, file, width, height);
  render_figure(file, width, height, [&](cairo_t* cr) {
    draw_axes(cr, p.chart, p.frame);
    draw_curves(cr, p.chart, p.frame);
    draw_legend(cr, p.chart, p.frame, p.legend);
  });
}

namespace {

// The rose's title on top, the circle under it with its angles around it,
// the legend under them: the figure grows taller to keep them apart.
struct RosePlan {
  double scale = 1.0, height = 0.0, cx = 0.0, cy = 0.0, radius = 0.0, legend_top = 0.0;
  std::vector<std::string> title;
  std::vector<std::string> legend;  // per curve; empty for one without a label or data
  std::vector<double> tops;         // per curve, its largest value
};

RosePlan plan_rose(const Rose& rose, int width) {
  if (width < 100 || width > 20000) throw std::runtime_error("the figure width must be between 100 and 20000");
  RosePlan p;
  p.scale = width / 1000.0;
  const double s = p.scale;
  p.title = wrap_text(rose.title, 22 * s, width - 60 * s);
  for (const Curve& c : rose.curves) {
    double top = 0.0;
    for (double v : c.y)
      if (std::isfinite(v)) top = std::max(top, v);
    p.tops.push_back(top);
    p.legend.push_back(c.label.empty() || c.y.empty() || top <= 0.0 ? ""
                                                                    : fmt::format("{}; 100% = {:.4g}", c.label, top));
  }
  p.radius = 0.36 * width;
  p.cx = 0.5 * width;
  const double title_bottom = (35.0 + 28.0 * static_cast<double>(p.title.size() - 1) + 14.0) * s;
  const double angle_room = 30 * s + 12 * s;  // from the circle to the far side of an angle's label
  p.cy = title_bottom + 16 * s + angle_room + p.radius;
  p.legend_top = p.cy + p.radius + angle_room + 16 * s;
  const auto rows =
      static_cast<double>(std::count_if(p.legend.begin(), p.legend.end(), [](auto& l) { return !l.empty(); }));
  p.height = std::ceil(p.legend_top + 26 * s * rows + 10 * s);
  return p;
}

std::pair<double, double> angle_label_at(const RosePlan& p, int degrees) {
  const double a = degrees * std::numbers::pi / 180.0, r = p.radius + 30 * p.scale;
  return {p.cx + r * std::cos(a), p.cy - r * std::sin(a)};
}

// The k-th ring's label (k = 1..4, a quarter each), on the 15° ray between
// two spokes.
std::pair<double, double> ring_label_at(const RosePlan& p, int k) {
  const double ray = 15.0 * std::numbers::pi / 180.0, r = p.radius * k / 4.0;
  return {p.cx + r * std::cos(ray), p.cy - r * std::sin(ray)};
}

double legend_row_y(const RosePlan& p, int row) { return p.legend_top + (row + 0.5) * 26 * p.scale; }

void draw_rose_grid(cairo_t* cr, const RosePlan& p) {
  const double scale = p.scale, cx = p.cx, cy = p.cy, radius = p.radius;
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
  for (int k = 1; k <= 4; ++k) {
    const auto [x, y] = ring_label_at(p, k);
    draw_text(cr, x, y, fmt::format("{}%", 25 * k), 0.5);
  }
  for (int d = 0; d < 360; d += 30) {
    const double a = d * std::numbers::pi / 180.0;
    cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
    cairo_move_to(cr, cx, cy);
    cairo_line_to(cr, cx + radius * std::cos(a), cy - radius * std::sin(a));
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    const auto [x, y] = angle_label_at(p, d);
    draw_text(cr, x, y, fmt::format("{}°", d), 0.5);
  }
}

// One curve: each bin an arc step at its value; θ and θ + 180° mirror.
void draw_rose_curve(cairo_t* cr, const RosePlan& p, const Curve& c, double top, bool filled) {
  const std::size_t bins = c.y.size();
  const double w = std::numbers::pi / static_cast<double>(bins);
  for (int half = 0; half < 2; ++half)
    for (std::size_t k = 0; k < bins; ++k) {
      const double r = p.radius * (std::isfinite(c.y[k]) ? c.y[k] : 0.0) / top;
      const double a0 = half * std::numbers::pi + static_cast<double>(k) * w, a1 = a0 + w;
      if (half == 0 && k == 0) cairo_move_to(cr, p.cx + r * std::cos(a0), p.cy - r * std::sin(a0));
      else cairo_line_to(cr, p.cx + r * std::cos(a0), p.cy - r * std::sin(a0));
      cairo_arc_negative(cr, p.cx, p.cy, r, -a0, -a1);
    }
  cairo_close_path(cr);
  if (filled) {
    cairo_save(cr);
    cairo_set_source_rgba(cr, 0.0, 0.447, 0.698, 0.25);
    cairo_fill_preserve(cr);
    cairo_restore(cr);
  }
  cairo_stroke(cr);
}

}  // namespace

RoseLayout rose_layout(const Rose& rose, int width) {
  const RosePlan p = plan_rose(rose, width);
  const double s = p.scale;
  RoseLayout out;
  out.width = width, out.height = p.height, out.centre_x = p.cx, out.centre_y = p.cy, out.radius = p.radius;
  for (std::size_t k = 0; k < p.title.size(); ++k) {
    const double y = (35.0 + 28.0 * static_cast<double>(k)) * s;
    out.text.push_back({30 * s, y - 13.2 * s, 30 * s + text_width(p.title[k], 22 * s), y + 13.2 * s});
  }
  for (int d = 0; d < 360; d += 30) {
    const auto [x, y] = angle_label_at(p, d);
    const double half = 0.5 * text_width(fmt::format("{}°", d), 18 * s);
    out.text.push_back({x - half, y - 10.8 * s, x + half, y + 10.8 * s});
  }
  for (int k = 1; k <= 4; ++k) {
    const auto [x, y] = ring_label_at(p, k);
    const double half = 0.5 * text_width(fmt::format("{}%", 25 * k), 18 * s);
    out.scale_labels.push_back({x - half, y - 10.8 * s, x + half, y + 10.8 * s});
  }
  int row = 0;
  for (const std::string& entry : p.legend)
    if (!entry.empty()) {
      const double y = legend_row_y(p, row++);
      out.text.push_back({30 * s, y - 13 * s, 75 * s + text_width(entry, 18 * s), y + 13 * s});
    }
  return out;
}

void draw_rose(const Rose& rose, const std::filesystem::path& file, int width) {
  const RosePlan p = plan_rose(rose, width);
  render_figure(file, width, static_cast<int>(p.height), [&](cairo_t* cr) {
    const double scale = p.scale;
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 22 * scale);
    draw_lines(cr, 30 * scale, 35 * scale, 28 * scale, p.title);
    draw_rose_grid(cr, p);
    int row = 0;
    for (std::size_t i = 0; i < rose.curves.size(); ++i) {
      const Curve& c = rose.curves[i];
      if (c.y.empty() || p.tops[i] <= 0.0) continue;
      set_series_colour(cr, static_cast<int>(i));
      set_style(cr, c.style, scale);
      draw_rose_curve(cr, p, c, p.tops[i], i == 0);
      if (p.legend[i].empty()) continue;
      const double y = legend_row_y(p, row++);
      cairo_move_to(cr, 30 * scale, y);
      cairo_line_to(cr, 65 * scale, y);
      cairo_stroke(cr);
      cairo_set_source_rgb(cr, 0, 0, 0);
      draw_text(cr, 75 * scale, y, p.legend[i]);
    }
  });
}

}  // namespace sphero::analysis
