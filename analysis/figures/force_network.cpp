#include "analysis/figures/force_network.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "analysis/figures/canvas.h"
#include "geometry/polygon.h"

namespace sphero::analysis {
namespace {

struct View {
  Vec2 low, high;
  double scale = 1.0;  // output units per data unit
  double margin = 20.0;
  double height = 0.0;
  double below = 0.0;  // room under the drawing (for a colour bar)
  double x(Vec2 p) const { return margin + (p.x - low.x) * scale; }
  double y(Vec2 p) const { return height - margin - below - (p.y - low.y) * scale; }
};

void trace(cairo_t* cr, const View& v, const std::vector<Vec2>& points, bool closed) {
  if (points.empty()) return;
  cairo_move_to(cr, v.x(points[0]), v.y(points[0]));
  for (std::size_t k = 1; k < points.size(); ++k) cairo_line_to(cr, v.x(points[k]), v.y(points[k]));
  if (closed) cairo_close_path(cr);
}

void draw(cairo_t* cr, const FrameData& f, const View& v, const FigureOptions& o, double widest) {
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  // Walls: their rounded outlines, dark grey.
  for (const auto& w : f.wall_outlines) {
    trace(cr, v, w, true);
    cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
    cairo_fill(cr);
  }
  // Particles: light grey, with a hairline edge. Cairo fills non-convex
  // polygons exactly (non-zero winding).
  const bool filled = !o.fill.empty();
  for (std::size_t i = 0; i < f.outlines.size(); ++i) {
    trace(cr, v, f.outlines[i], true);
    if (filled && i < o.fill.size())
      set_map_colour(cr, (o.fill[i] - o.fill_low) / (o.fill_high - o.fill_low));
    else
      cairo_set_source_rgb(cr, 0.86, 0.86, 0.86);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.62, 0.62, 0.62);
    cairo_set_line_width(cr, 0.5);
    cairo_stroke(cr);
  }
  // Forces: width ∝ |F|, the strongest drawn `widest` wide.
  double strongest = 0.0;
  for (const auto& s : f.forces) strongest = std::max(strongest, s.magnitude);
  for (std::size_t k = 0; o.draw_forces && k < f.forces.size(); ++k) {
    const ForceSegment& s = f.forces[k];
    if (strongest <= 0.0 || s.magnitude <= 0.0) continue;
    const double width = std::max(0.3, widest * v.scale * s.magnitude / strongest);
    cairo_set_line_width(cr, width);
    if (k < o.in_chain.size() && o.in_chain[k])
      cairo_set_source_rgb(cr, 0.10, 0.30, 0.75);
    else if (s.sliding)
      cairo_set_source_rgb(cr, 0.85, 0.45, 0.05);
    else
      cairo_set_source_rgb(cr, 0.55, 0.0, 0.0);
    cairo_move_to(cr, v.x(s.a), v.y(s.a));
    cairo_line_to(cr, v.x(s.b), v.y(s.b));
    cairo_stroke(cr);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_font_size(cr, 14.0 * o.width / 1600.0 + 4.0);
  std::string caption =
      o.show_time ? fmt::format("{}{}t = {:.4g} s", o.title, o.title.empty() ? "" : " — ", f.time) : o.title;
  if (o.draw_forces)
    caption += fmt::format(", {} contacts; line width ∝ contact force (max {:.3g} N); orange: sliding{}", f.forces.size(),
                           strongest, o.in_chain.empty() ? "" : "; blue: force chains (Peters et al. 2005)");
  cairo_move_to(cr, v.margin, v.margin * 0.8 + 10.0);
  cairo_show_text(cr, caption.c_str());
  if (filled) {
    // Colour bar along the bottom margin.
    const double x0 = v.margin, x1 = v.margin + 0.4 * o.width, y = v.height - 1.2 * v.margin, h = 0.3 * v.margin;
    const int steps = 100;
    for (int k = 0; k < steps; ++k) {
      set_map_colour(cr, (k + 0.5) / steps);
      cairo_rectangle(cr, x0 + (x1 - x0) * k / steps, y, (x1 - x0) / steps + 0.5, h);
      cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_text(cr, x0, y + h + 0.3 * v.margin, fmt::format("{:.3g}", o.fill_low));
    draw_text(cr, x1, y + h + 0.3 * v.margin, fmt::format("{:.3g}", o.fill_high), 1.0);
    draw_text(cr, x1 + 0.02 * o.width, y + 0.5 * h, o.fill_label);
  }
}

}  // namespace

void draw_force_network(const FrameData& f, const std::filesystem::path& file, const FigureOptions& o) {
  if (o.width < 100 || o.width > 20000) throw std::runtime_error("the figure width must be between 100 and 20000");
  View v;
  v.low = {INFINITY, INFINITY};
  v.high = {-INFINITY, -INFINITY};
  double sizes = 0.0;
  for (const auto& p : f.outlines) sizes += std::sqrt(std::abs(signed_area(p)));
  const double mean_size = f.outlines.empty() ? 1.0 : sizes / static_cast<double>(f.outlines.size());
  const bool grains_only = o.fit_grains && !f.outlines.empty();
  for (const auto* group : {&f.outlines, &f.wall_outlines}) {
    if (grains_only && group == &f.wall_outlines) continue;
    for (const auto& polygon : *group)
      for (Vec2 p : polygon) {
        v.low = {std::min(v.low.x, p.x), std::min(v.low.y, p.y)};
        v.high = {std::max(v.high.x, p.x), std::max(v.high.y, p.y)};
      }
  }
  if (!(v.high.x > v.low.x && v.high.y > v.low.y)) throw std::runtime_error("the frame has nothing to draw");
  if (grains_only) v.low -= Vec2{mean_size, mean_size}, v.high += Vec2{mean_size, mean_size};
  const double widest = o.widest_line > 0.0 ? o.widest_line : mean_size / 3.0;
  v.margin = 0.03 * o.width + 10.0;
  v.scale = (o.width - 2 * v.margin) / (v.high.x - v.low.x);
  v.below = o.fill.empty() ? 0.0 : v.margin;
  v.height = std::ceil((v.high.y - v.low.y) * v.scale + 2 * v.margin + 20.0 + v.below);
  const int height = static_cast<int>(v.height);

  render_figure(file, o.width, height, [&](cairo_t* cr) { draw(cr, f, v, o, widest); });
}

}  // namespace sphero::analysis
