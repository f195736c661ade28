#include "analysis/figures/force_network.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
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
  double left = 0.0;  // of the drawing, from the margin: a tall drawing is centred
  double height = 0.0;
  double below = 0.0;  // room under the drawing (for a colour bar)
  double x(Vec2 p) const { return margin + left + (p.x - low.x) * scale; }
  double y(Vec2 p) const { return height - margin - below - (p.y - low.y) * scale; }
};

// One entry of the legend: a line of a force's width and colour (none for
// plain text) and its label, at its place in the legend's rows.
struct LegendEntry {
  double line_width = 0.0;  // 0: text only; a text-only entry heads a group
  std::array<double, 3> colour{};
  std::string label;
  double x = 0.0;
  int row = 0;
};

// The text above the drawing: the caption's lines, then the legend's rows.
struct Heading {
  double font = 12.0, line_height = 16.0, row_height = 16.0, sample = 30.0;
  std::vector<std::string> caption;
  std::vector<LegendEntry> legend;
  int rows = 0;
  double height(double margin) const {
    return margin + line_height * static_cast<double>(caption.size()) + row_height * rows;
  }
};

constexpr std::array<double, 3> sticking_colour{0.55, 0.0, 0.0}, sliding_colour{0.85, 0.45, 0.05},
    chain_colour{0.10, 0.30, 0.75}, width_sample_colour{0.3, 0.3, 0.3};

double strongest_force(const FrameData& f) {
  double strongest = 0.0;
  for (const auto& s : f.forces) strongest = std::max(strongest, s.magnitude);
  return strongest;
}

double force_line_width(double magnitude, double strongest, double widest_px) {
  return std::max(0.3, widest_px * magnitude / strongest);
}

// The legend's entries for a drawing of forces, in two groups that cannot
// be mistaken for each other: line widths (in grey) for the strongest
// force, a half and a quarter of it; then the colours of a contact's state
// (at one width).
std::vector<LegendEntry> legend_entries(const FrameData& f, const FigureOptions& o, double widest_px) {
  const double strongest = strongest_force(f);
  if (!o.draw_forces || strongest <= 0.0) return {};
  std::vector<LegendEntry> entries{{0.0, {}, fmt::format("{} contacts; width: contact force", f.forces.size())}};
  for (double fraction : {1.0, 0.5, 0.25})
    entries.push_back({force_line_width(fraction * strongest, strongest, widest_px), width_sample_colour,
                       fmt::format("{:.3g} N", fraction * strongest)});
  entries.push_back({0.0, {}, "colour: contact state"});
  entries.push_back({std::min(4.0, widest_px), sticking_colour, "sticking"});
  entries.push_back({std::min(4.0, widest_px), sliding_colour, "sliding"});
  if (!o.in_chain.empty())
    entries.push_back({std::min(4.0, widest_px), chain_colour, "force chain (Peters et al. 2005)"});
  return entries;
}

// The caption wrapped to the width and the legend laid out in rows that fit it.
Heading heading(const FrameData& f, const FigureOptions& o, const View& v, double widest_px) {
  Heading h;
  h.font = 14.0 * o.width / 1600.0 + 4.0;
  h.line_height = 1.35 * h.font;
  h.sample = 2.5 * h.font;
  const double room = o.width - 2.0 * v.margin;
  const std::string caption =
      o.show_time ? fmt::format("{}{}t = {:.4g} s", o.title, o.title.empty() ? "" : " — ", f.time) : o.title;
  if (!caption.empty()) h.caption = wrap_text(caption, h.font, room);
  h.legend = legend_entries(f, o, widest_px);
  const auto wide = [&](const LegendEntry& e) {
    return (e.line_width > 0.0 ? h.sample + 0.4 * h.font : 0.0) + text_width(e.label, h.font) + h.font;
  };
  double x = 0.0, thickest = 0.0;
  for (std::size_t k = 0; k < h.legend.size(); ++k) {
    LegendEntry& e = h.legend[k];
    // A group that would break across rows starts a row of its own, where
    // it fits; its entries break only where a row cannot hold them all.
    if (e.line_width == 0.0 && x > 0.0) {
      double group = wide(e);
      for (std::size_t j = k + 1; j < h.legend.size() && h.legend[j].line_width > 0.0; ++j) group += wide(h.legend[j]);
      if (x + group > room && group <= room) x = 0.0, ++h.rows;
    }
    if (x > 0.0 && x + wide(e) > room) x = 0.0, ++h.rows;
    e.x = x, e.row = h.rows;
    x += wide(e);
    thickest = std::max(thickest, e.line_width);
  }
  if (!h.legend.empty()) ++h.rows;
  h.row_height = std::max(h.line_height, thickest + 0.4 * h.font);
  return h;
}

void set_colour(cairo_t* cr, const std::array<double, 3>& c) { cairo_set_source_rgb(cr, c[0], c[1], c[2]); }

double caption_y(const Heading& h, const View& v, std::size_t line) {
  return 0.5 * v.margin + (0.5 + static_cast<double>(line)) * h.line_height;
}
double legend_row_y(const Heading& h, const View& v, int row) {
  return 0.5 * v.margin + h.line_height * static_cast<double>(h.caption.size()) + (row + 0.5) * h.row_height;
}
double legend_text_x(const Heading& h, const View& v, const LegendEntry& e) {
  return v.margin + e.x + (e.line_width > 0.0 ? h.sample + 0.4 * h.font : 0.0);
}

void draw_heading(cairo_t* cr, const Heading& h, const View& v) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_font_size(cr, h.font);
  draw_lines(cr, v.margin, caption_y(h, v, 0), h.line_height, h.caption);
  for (const LegendEntry& e : h.legend) {
    const double x = v.margin + e.x, row_y = legend_row_y(h, v, e.row);
    if (e.line_width > 0.0) {
      set_colour(cr, e.colour);
      cairo_set_line_width(cr, e.line_width);
      cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
      cairo_move_to(cr, x, row_y);
      cairo_line_to(cr, x + h.sample, row_y);
      cairo_stroke(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_text(cr, legend_text_x(h, v, e), row_y, e.label);
  }
}

void trace(cairo_t* cr, const View& v, const std::vector<Vec2>& points, bool closed) {
  if (points.empty()) return;
  cairo_move_to(cr, v.x(points[0]), v.y(points[0]));
  for (std::size_t k = 1; k < points.size(); ++k) cairo_line_to(cr, v.x(points[k]), v.y(points[k]));
  if (closed) cairo_close_path(cr);
}

void draw_forces(cairo_t* cr, const FrameData& f, const View& v, const FigureOptions& o, double widest_px) {
  const double strongest = strongest_force(f);
  const ParticleCentres centres = particle_centres(f);
  for (std::size_t k = 0; k < f.forces.size(); ++k) {
    const ForceSegment& s = f.forces[k];
    if (strongest <= 0.0 || s.magnitude <= 0.0) continue;
    cairo_set_line_width(cr, force_line_width(s.magnitude, strongest, widest_px));
    set_colour(cr, k < o.in_chain.size() && o.in_chain[k] ? chain_colour
                   : s.sliding                            ? sliding_colour
                                                          : sticking_colour);
    for (const auto& [a, b] : contact_pieces(f, centres, k)) {
      cairo_move_to(cr, v.x(a), v.y(a));
      cairo_line_to(cr, v.x(b), v.y(b));
    }
    cairo_stroke(cr);
  }
}

// The fill's colour bar under the drawing, its label to the right.
ColourBar fill_bar(const View& v, const FigureOptions& o) {
  const double x0 = v.margin, x1 = v.margin + 0.4 * o.width, y = v.height - 1.2 * v.margin, h = 0.3 * v.margin;
  return {x0, x1, y, h, o.fill_low, o.fill_high, 100, 4, 0.12 * v.margin, 0.35 * v.margin};
}
double fill_label_x(const ColourBar& bar, const FigureOptions& o) { return bar.x1 + 0.02 * o.width; }

void draw_fill_bar(cairo_t* cr, const View& v, const FigureOptions& o) {
  const ColourBar bar = fill_bar(v, o);
  draw_colour_bar(cr, bar);
  draw_text(cr, fill_label_x(bar, o), bar.top + 0.5 * bar.height, o.fill_label);
}

void draw(cairo_t* cr, const FrameData& f, const View& v, const FigureOptions& o, const Heading& h, double widest_px) {
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  // The drawing stays in its view: walls that reach beyond it (a
  // sample's long plates, framed out) are cut at its edge, never drawn
  // over the caption, the legend or the colour bar.
  cairo_save(cr);
  cairo_rectangle(cr, v.x(v.low), v.y(v.high), (v.high.x - v.low.x) * v.scale, (v.high.y - v.low.y) * v.scale);
  cairo_clip(cr);
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
    if (filled && i < o.fill.size()) set_map_colour(cr, (o.fill[i] - o.fill_low) / (o.fill_high - o.fill_low));
    else cairo_set_source_rgb(cr, 0.86, 0.86, 0.86);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.62, 0.62, 0.62);
    cairo_set_line_width(cr, 0.5);
    cairo_stroke(cr);
  }
  if (o.draw_forces) draw_forces(cr, f, v, o, widest_px);
  cairo_restore(cr);
  draw_heading(cr, h, v);
  if (filled) draw_fill_bar(cr, v, o);
}

}  // namespace

ParticleCentres particle_centres(const FrameData& f) {
  ParticleCentres centres;
  for (const ParticleRecord& p : f.particles) centres[p.id] = p.centre;
  return centres;
}

std::vector<std::pair<Vec2, Vec2>> contact_pieces(const FrameData& f, const ParticleCentres& centres, std::size_t k) {
  const ForceSegment& s = f.forces[k];
  if (k < f.pairs.size()) {
    const auto b = centres.find(f.pairs[k].body_b);
    const Vec2 branch = s.b - s.a;
    if (b != centres.end() && norm(b->second - s.b) > 1e-9 * (1.0 + norm(branch)))
      return {{s.a, s.a + 0.5 * branch}, {b->second - 0.5 * branch, b->second}};
  }
  return {{s.a, s.b}};
}

namespace {

std::pair<Vec2, Vec2> box_of(const std::vector<std::vector<Vec2>>& polygons) {
  Vec2 low{INFINITY, INFINITY}, high{-INFINITY, -INFINITY};
  for (const auto& polygon : polygons)
    for (Vec2 p : polygon) {
      low = {std::min(low.x, p.x), std::min(low.y, p.y)};
      high = {std::max(high.x, p.x), std::max(high.y, p.y)};
    }
  return {low, high};
}

}  // namespace

bool frames_grains_only(const FrameData& f, const FigureOptions& o) {
  if (f.outlines.empty()) return false;
  if (o.view != FigureOptions::View::automatic) return o.view == FigureOptions::View::grains;
  if (f.wall_outlines.empty()) return false;
  const auto [grain_low, grain_high] = box_of(f.outlines);
  const auto [wall_low, wall_high] = box_of(f.wall_outlines);
  const Vec2 grains = grain_high - grain_low;
  const Vec2 all{std::max(grain_high.x, wall_high.x) - std::min(grain_low.x, wall_low.x),
                 std::max(grain_high.y, wall_high.y) - std::min(grain_low.y, wall_low.y)};
  return all.x > 2.0 * grains.x || all.y > 2.0 * grains.y;
}

namespace {

// Where everything goes: the view of the drawing and the text above it.
struct Plan {
  View v;
  Heading h;
  double widest_px = 0.0;
};

Plan plan(const FrameData& f, const FigureOptions& o) {
  if (o.width < 100 || o.width > 20000) throw std::runtime_error("the figure width must be between 100 and 20000");
  Plan p;
  View& v = p.v;
  v.low = {INFINITY, INFINITY};
  v.high = {-INFINITY, -INFINITY};
  double sizes = 0.0;
  for (const auto& outline : f.outlines) sizes += std::sqrt(std::abs(signed_area(outline)));
  const double mean_size = f.outlines.empty() ? 1.0 : sizes / static_cast<double>(f.outlines.size());
  const bool grains_only = frames_grains_only(f, o);
  for (const auto* group : {&f.outlines, &f.wall_outlines}) {
    if (grains_only && group == &f.wall_outlines) continue;
    for (const auto& polygon : *group)
      for (Vec2 q : polygon) {
        v.low = {std::min(v.low.x, q.x), std::min(v.low.y, q.y)};
        v.high = {std::max(v.high.x, q.x), std::max(v.high.y, q.y)};
      }
  }
  if (!(v.high.x > v.low.x && v.high.y > v.low.y)) throw std::runtime_error("the frame has nothing to draw");
  if (grains_only) v.low -= Vec2{mean_size, mean_size}, v.high += Vec2{mean_size, mean_size};
  const double widest = o.widest_line > 0.0 ? o.widest_line : mean_size / 3.0;
  v.margin = 0.03 * o.width + 10.0;
  // As wide as the figure, but never taller than twice its width: a tall
  // sample is drawn narrower, centred, rather than as a strip of a figure.
  const double room = o.width - 2 * v.margin;
  v.scale = std::min(room / (v.high.x - v.low.x), kTallestDrawing * room / (v.high.y - v.low.y));
  v.left = 0.5 * (room - (v.high.x - v.low.x) * v.scale);
  v.below = o.fill.empty() ? 0.0 : v.margin;
  p.widest_px = widest * v.scale;
  p.h = heading(f, o, v, p.widest_px);
  v.height = std::ceil((v.high.y - v.low.y) * v.scale + v.margin + p.h.height(v.margin) + v.below);
  return p;
}

// The k-th of lines `line_height` apart from `top`, `width` wide from x.
Box line_box(double x, double top, double line_height, double k, double width) {
  return {x, top + k * line_height, x + width, top + (k + 1.0) * line_height};
}

}  // namespace

ForceNetworkLayout force_network_layout(const FrameData& f, const FigureOptions& o) {
  const Plan p = plan(f, o);
  const View& v = p.v;
  const Heading& h = p.h;
  ForceNetworkLayout out;
  out.width = o.width, out.height = v.height;
  out.drawing = {v.x(v.low), v.y(v.high), v.x(v.high), v.y(v.low)};
  const double caption_top = caption_y(h, v, 0) - 0.5 * h.line_height;
  for (std::size_t k = 0; k < h.caption.size(); ++k)
    out.text.push_back(
        line_box(v.margin, caption_top, h.line_height, static_cast<double>(k), text_width(h.caption[k], h.font)));
  const double legend_top = caption_top + h.line_height * static_cast<double>(h.caption.size());
  for (const LegendEntry& e : h.legend)
    out.text.push_back(line_box(v.margin + e.x, legend_top, h.row_height, e.row,
                                legend_text_x(h, v, e) + text_width(e.label, h.font) - v.margin - e.x));
  if (!o.fill.empty()) {
    const ColourBar bar = fill_bar(v, o);
    double half_label = 0.0;
    for (double t : nice_ticks(bar.low, bar.high, bar.ticks))
      half_label = std::max(half_label, 0.5 * text_width(fmt::format("{:.6g}", t), h.font));
    out.text.push_back({bar.x0 - half_label, bar.top,
                        std::max(bar.x1 + half_label, fill_label_x(bar, o) + text_width(o.fill_label, h.font)),
                        bar.top + bar.height + bar.label_below + 0.5 * h.line_height});
  }
  return out;
}

void draw_force_network(const FrameData& f, const std::filesystem::path& file, const FigureOptions& o) {
  const Plan p = plan(f, o);
  render_figure(
      file, o.width, static_cast<int>(p.v.height), [&](cairo_t* cr) { draw(cr, f, p.v, o, p.h, p.widest_px); });
}

}  // namespace sphero::analysis
