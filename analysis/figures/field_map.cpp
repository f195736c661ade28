#include "analysis/figures/field_map.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "analysis/figures/canvas.h"

namespace sphero::analysis {
namespace {

constexpr int kLargestImageSide = 32767;  // Cairo's image surfaces

struct Layout {
  double width = 0.0, height = 0.0;
  double margin = 0.0, font = 0.0, line = 0.0;
  std::vector<std::string> caption;
  double top = 0.0;    // of the drawing
  double scale = 1.0;  // output units per m
  double left = 0.0;   // of the drawing, from the margin: a tall field is centred
  Vec2 low, high;      // the field's extent: the nodes' cells
  double drawing_height = 0.0;
  double bar_top = 0.0;
  double x(Vec2 p) const { return margin + left + (p.x - low.x) * scale; }
  double y(Vec2 p) const { return top + drawing_height - (p.y - low.y) * scale; }
};

Layout layout(const FieldMap& m, int width) {
  Layout l;
  l.width = width;
  l.margin = 0.03 * width + 10.0;
  l.font = std::max(12.0, 0.013 * width);
  l.line = 1.35 * l.font;
  const double room = width - 2.0 * l.margin;
  l.caption = wrap_text(m.caption, l.font, room);
  l.low = m.origin - 0.5 * m.spacing;
  l.high = m.origin + Vec2{(m.nx - 0.5) * m.spacing.x, (m.ny - 0.5) * m.spacing.y};
  // As wide as the figure, but never taller than twice its width.
  l.scale = std::min(room / (l.high.x - l.low.x), kTallestDrawing * room / (l.high.y - l.low.y));
  l.left = 0.5 * (room - (l.high.x - l.low.x) * l.scale);
  l.top = 0.6 * l.margin + l.line * static_cast<double>(l.caption.size()) + 0.3 * l.margin;
  l.drawing_height = (l.high.y - l.low.y) * l.scale;
  l.bar_top = l.top + l.drawing_height + 0.6 * l.margin;
  // The bar, its tick labels and the quantity's name under them.
  l.height = std::ceil(l.bar_top + 0.45 * l.margin + 2.6 * l.line + 0.4 * l.margin);
  return l;
}

std::pair<double, double> value_range(const std::vector<double>& values) {
  double low = INFINITY, high = -INFINITY;
  for (double v : values)
    if (std::isfinite(v)) low = std::min(low, v), high = std::max(high, v);
  if (!(high >= low)) throw std::runtime_error("the field has no finite value to draw");
  // A field uniform to within its rounding gets a range it can be drawn on.
  const double scale = std::max(std::abs(low), std::abs(high));
  if (high - low <= 1e-9 * scale || high - low < 1e-300) {
    const double pad = std::max(1e-12, 1e-3 * scale);
    low -= pad, high += pad;
  }
  return {low, high};
}

// The nodes as an image of one pixel each, painted over the field's extent
// with bilinear smoothing (no seams between cells, in PNG, SVG and PDF).
void draw_nodes(cairo_t* cr, const FieldMap& m, const Layout& l, double low, double high) {
  cairo_surface_t* image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, m.nx, m.ny);
  if (cairo_surface_status(image) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(image);
    throw std::runtime_error(fmt::format("Cairo cannot make an image of {} × {} nodes", m.nx, m.ny));
  }
  const int stride = cairo_image_surface_get_stride(image);
  unsigned char* pixels = cairo_image_surface_get_data(image);
  cairo_surface_flush(image);
  for (int j = 0; j < m.ny; ++j)
    for (int i = 0; i < m.nx; ++i) {
      const double v = m.values[static_cast<std::size_t>(j) * static_cast<std::size_t>(m.nx) + i];
      // Row 0 of the image is the top of the field; a node without a value
      // stays transparent (premultiplied: all zero).
      auto* pixel = reinterpret_cast<std::uint32_t*>(pixels + static_cast<std::ptrdiff_t>(m.ny - 1 - j) * stride) + i;
      if (!std::isfinite(v)) {
        *pixel = 0;
        continue;
      }
      const auto [r, g, b] = map_colour((v - low) / (high - low));
      const auto byte = [](double c) {
        return static_cast<std::uint32_t>(std::lround(255.0 * std::clamp(c, 0.0, 1.0)));
      };
      *pixel = 0xff000000u | byte(r) << 16 | byte(g) << 8 | byte(b);
    }
  cairo_surface_mark_dirty(image);
  cairo_save(cr);
  cairo_translate(cr, l.x(l.low), l.top);
  cairo_scale(cr, (l.high.x - l.low.x) * l.scale / m.nx, l.drawing_height / m.ny);
  cairo_set_source_surface(cr, image, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR);
  cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
  cairo_paint(cr);
  cairo_restore(cr);
  cairo_surface_destroy(image);
}

void trace(cairo_t* cr, const Layout& l, const std::vector<Vec2>& points) {
  if (points.empty()) return;
  cairo_move_to(cr, l.x(points[0]), l.y(points[0]));
  for (std::size_t k = 1; k < points.size(); ++k) cairo_line_to(cr, l.x(points[k]), l.y(points[k]));
  cairo_close_path(cr);
}

// Every `stride`-th node, centred in the field, so that about 25 glyphs span its width.
int glyph_stride(const FieldMap& m) { return std::max(1, static_cast<int>(std::lround(m.nx / 25.0))); }

// White strokes edged in black: visible over every colour of the map.
void stroke_haloed(cairo_t* cr, double width) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 2.2 * width);
  cairo_stroke_preserve(cr);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_set_line_width(cr, width);
  cairo_stroke(cr);
}

double longest(const std::vector<Vec2>& vectors) {
  double most = 0.0;
  for (Vec2 v : vectors)
    if (is_finite(v)) most = std::max(most, norm(v));
  return most;
}

void draw_glyphs(cairo_t* cr, const FieldMap& m, const Layout& l, const std::vector<Vec2>& vectors, bool arrows) {
  const double most = longest(vectors);
  if (!(most > 0.0)) return;
  const int stride = glyph_stride(m);
  const double reach = 0.9 * stride * std::min(m.spacing.x, m.spacing.y) * l.scale;  // the longest glyph, drawn
  const double line = std::max(1.0, 0.0015 * l.width);
  for (int j = stride / 2; j < m.ny; j += stride)
    for (int i = stride / 2; i < m.nx; i += stride) {
      const Vec2 v = vectors[static_cast<std::size_t>(j) * static_cast<std::size_t>(m.nx) + i];
      if (!is_finite(v) || norm(v) == 0.0) continue;
      const Vec2 at = m.origin + Vec2{i * m.spacing.x, j * m.spacing.y};
      const double x = l.x(at), y = l.y(at);
      const Vec2 d = (reach / most) * Vec2{v.x, -v.y};  // page y grows downwards
      if (arrows) {
        const double head = std::min(0.35 * norm(d), 0.25 * reach);
        const Vec2 u = d / norm(d), side{-u.y, u.x};
        const Vec2 tip{x + d.x, y + d.y};
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, tip.x, tip.y);
        cairo_move_to(cr, tip.x - head * u.x + 0.5 * head * side.x, tip.y - head * u.y + 0.5 * head * side.y);
        cairo_line_to(cr, tip.x, tip.y);
        cairo_line_to(cr, tip.x - head * u.x - 0.5 * head * side.x, tip.y - head * u.y - 0.5 * head * side.y);
      } else {
        cairo_move_to(cr, x - 0.5 * d.x, y - 0.5 * d.y);
        cairo_line_to(cr, x + 0.5 * d.x, y + 0.5 * d.y);
      }
      stroke_haloed(cr, line);
    }
}

void draw_quantity_bar(cairo_t* cr, const FieldMap& m, const Layout& l, double low, double high) {
  const double x0 = l.margin, x1 = l.width - l.margin, h = 0.45 * l.margin;
  draw_colour_bar(cr, {x0, x1, l.bar_top, h, low, high, 256, 6, 0.25 * l.font, 0.9 * l.line});
  draw_text(cr, 0.5 * (x0 + x1), l.bar_top + h + 2.0 * l.line, m.quantity, 0.5);
}

}  // namespace

FieldMapLayout field_map_layout(const FieldMap& m, int width) {
  const Layout l = layout(m, width);
  FieldMapLayout out;
  out.width = l.width, out.height = l.height;
  double widest = 0.0;
  for (const std::string& line : l.caption) widest = std::max(widest, text_width(line, l.font));
  out.caption = {
      l.margin, 0.6 * l.margin, l.margin + widest, 0.6 * l.margin + l.line * static_cast<double>(l.caption.size())};
  out.drawing = {l.x(l.low), l.top, l.x(l.high), l.top + l.drawing_height};
  out.colour_bar = {l.margin, l.bar_top, l.width - l.margin, l.bar_top + 0.45 * l.margin + 2.6 * l.line};
  return out;
}

void draw_field_map(const FieldMap& m, const std::filesystem::path& file, int width) {
  if (width < 100 || width > 20000) throw std::runtime_error("the figure width must be between 100 and 20000");
  const std::size_t nodes = static_cast<std::size_t>(std::max(0, m.nx)) * static_cast<std::size_t>(std::max(0, m.ny));
  if (nodes == 0 || m.values.size() != nodes || (!m.arrows.empty() && m.arrows.size() != nodes) ||
      (!m.bars.empty() && m.bars.size() != nodes))
    throw std::runtime_error("the field map's arrays do not match its grid");
  if (m.nx > kLargestImageSide || m.ny > kLargestImageSide)
    throw std::runtime_error(
        fmt::format("a grid of {} × {} nodes is too large to draw (at most {} a side); choose a "
                    "larger cell",
                    m.nx, m.ny, kLargestImageSide));
  const auto [low, high] = value_range(m.values);
  const Layout l = layout(m, width);
  render_figure(file, width, static_cast<int>(l.height), [&](cairo_t* cr) {
    cairo_set_font_size(cr, l.font);
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_lines(cr, l.margin, 0.6 * l.margin + 0.5 * l.line, l.line, l.caption);
    // The drawing stays inside the field's rectangle: walls that reach
    // beyond it are cut at its edge, never drawn over the text.
    cairo_save(cr);
    cairo_rectangle(cr, l.x(l.low), l.top, (l.high.x - l.low.x) * l.scale, l.drawing_height);
    cairo_clip(cr);
    draw_nodes(cr, m, l, low, high);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (const auto& w : m.wall_outlines) {
      trace(cr, l, w);
      cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
      cairo_fill(cr);
    }
    cairo_set_line_width(cr, std::max(0.4, 0.0004 * width));
    for (const auto& o : m.outlines) {
      trace(cr, l, o);
      cairo_set_source_rgba(cr, 1, 1, 1, 0.45);
      cairo_stroke(cr);
    }
    if (!m.bars.empty()) draw_glyphs(cr, m, l, m.bars, false);
    if (!m.arrows.empty()) draw_glyphs(cr, m, l, m.arrows, true);
    cairo_restore(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.0);
    cairo_rectangle(cr, l.x(l.low), l.top, (l.high.x - l.low.x) * l.scale, l.drawing_height);
    cairo_stroke(cr);
    draw_quantity_bar(cr, m, l, low, high);
  });
}

}  // namespace sphero::analysis
