#include "analysis/figures/canvas.h"

#include <fmt/format.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "io/atomic_file.h"

namespace sphero::analysis {

void render_figure(const std::filesystem::path& file, int width, int height,
                   const std::function<void(cairo_t*)>& draw) {
  if (width < 100 || width > 20000 || height < 50 || height > 20000)
    throw std::runtime_error("the figure's size must be between 100 and 20000 (width) and 50 and 20000 (height)");
  const std::string ext = file.extension().string();
  if (ext != ".png" && ext != ".svg" && ext != ".pdf")
    throw std::runtime_error(file.string() + ": unknown figure format; use .png, .svg or .pdf");
  write_atomically(file, [&](const std::filesystem::path& temporary) {
    cairo_surface_t* surface = nullptr;
    if (ext == ".png") surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    else if (ext == ".svg") surface = cairo_svg_surface_create(temporary.c_str(), width, height);
    else surface = cairo_pdf_surface_create(temporary.c_str(), width, height);
    std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> owner(surface, cairo_surface_destroy);
    cairo_t* cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    draw(cr);
    cairo_destroy(cr);
    if (ext == ".png" && cairo_surface_write_to_png(surface, temporary.c_str()) != CAIRO_STATUS_SUCCESS)
      throw std::runtime_error(file.string() + ": cannot write the PNG");
    cairo_surface_finish(surface);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS)
      throw std::runtime_error(file.string() + ": cannot write the figure");
  });
}

void set_series_colour(cairo_t* cr, int index) {
  static constexpr std::array<std::array<double, 3>, 7> okabe_ito{{{0.000, 0.447, 0.698},
                                                                   {0.835, 0.369, 0.000},
                                                                   {0.000, 0.620, 0.451},
                                                                   {0.800, 0.475, 0.655},
                                                                   {0.337, 0.706, 0.914},
                                                                   {0.902, 0.624, 0.000},
                                                                   {0.000, 0.000, 0.000}}};
  const auto& c = okabe_ito[static_cast<std::size_t>(index) % okabe_ito.size()];
  cairo_set_source_rgb(cr, c[0], c[1], c[2]);
}

std::array<double, 3> map_colour(double t) {
  // viridis (R's viridis(9)), linearly interpolated
  static constexpr std::array<std::array<double, 3>, 9> stops{{{0.267, 0.004, 0.329},
                                                               {0.278, 0.176, 0.482},
                                                               {0.231, 0.322, 0.545},
                                                               {0.173, 0.447, 0.557},
                                                               {0.129, 0.565, 0.549},
                                                               {0.153, 0.678, 0.506},
                                                               {0.365, 0.784, 0.388},
                                                               {0.667, 0.863, 0.196},
                                                               {0.992, 0.906, 0.145}}};
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * (stops.size() - 1);
  const auto k = std::min(static_cast<std::size_t>(t), stops.size() - 2);
  const double u = t - static_cast<double>(k);
  const auto &a = stops[k], &b = stops[k + 1];
  return {a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1]), a[2] + u * (b[2] - a[2])};
}

void set_map_colour(cairo_t* cr, double t) {
  const auto [r, g, b] = map_colour(t);
  cairo_set_source_rgb(cr, r, g, b);
}

void draw_text(cairo_t* cr, double x, double y, const std::string& text, double align, double angle) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, text.c_str(), &e);
  cairo_save(cr);
  cairo_translate(cr, x, y);
  cairo_rotate(cr, angle);
  cairo_move_to(cr, -align * e.x_advance, -(e.y_bearing + 0.5 * e.height));
  cairo_show_text(cr, text.c_str());
  cairo_restore(cr);
}

void draw_lines(cairo_t* cr, double x, double first_y, double line_height, const std::vector<std::string>& lines) {
  for (std::size_t k = 0; k < lines.size(); ++k)
    draw_text(cr, x, first_y + line_height * static_cast<double>(k), lines[k]);
}

namespace {

// A context on a 1×1 surface with the figures' font, for measuring text.
struct Measure {
  Measure() : surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)), cr(cairo_create(surface)) {
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  }
  ~Measure() {
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
  }
  Measure(const Measure&) = delete;
  Measure& operator=(const Measure&) = delete;
  double width(const std::string& text, double font_size) {
    cairo_set_font_size(cr, font_size);
    cairo_text_extents_t e;
    cairo_text_extents(cr, text.c_str(), &e);
    return e.x_advance;
  }
  cairo_surface_t* surface;
  cairo_t* cr;
};

}  // namespace

double text_width(const std::string& text, double font_size) { return Measure().width(text, font_size); }

std::vector<std::string> wrap_text(const std::string& text, double font_size, double width) {
  Measure measure;
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(' ', start), text.size());
    const std::string word = text.substr(start, end - start);
    const std::string longer = line.empty() ? word : line + " " + word;
    if (!line.empty() && measure.width(longer, font_size) > width) {
      lines.push_back(line);
      line = word;
    } else {
      line = longer;
    }
    start = end + 1;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::vector<double> nice_ticks(double low, double high, int count) {
  const double raw = (high - low) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  // Counted, not accumulated: a step under the values' resolution would
  // never advance a running sum.
  const double first = std::ceil(low / step - 1e-9), last = std::floor(high / step + 1e-9);
  if (!std::isfinite(first) || !std::isfinite(last) || last - first > 1000.0 || !(step > 0.0)) return {low, high};
  std::vector<double> ticks;
  for (double k = first; k <= last; ++k) {
    const double t = k * step;
    ticks.push_back(std::abs(t) < 1e-12 * step ? 0.0 : t);
  }
  return ticks;
}

void draw_colour_bar(cairo_t* cr, const ColourBar& b) {
  for (int k = 0; k < b.steps; ++k) {
    set_map_colour(cr, (k + 0.5) / b.steps);
    cairo_rectangle(cr, b.x0 + (b.x1 - b.x0) * k / b.steps, b.top, (b.x1 - b.x0) / b.steps + 0.5, b.height);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 1.0);
  cairo_rectangle(cr, b.x0, b.top, b.x1 - b.x0, b.height);
  cairo_stroke(cr);
  const double bottom = b.top + b.height;
  for (double t : nice_ticks(b.low, b.high, b.ticks)) {
    const double x = b.x0 + (b.x1 - b.x0) * (t - b.low) / (b.high - b.low);
    cairo_move_to(cr, x, bottom);
    cairo_line_to(cr, x, bottom + b.tick_length);
    cairo_stroke(cr);
    draw_text(cr, x, bottom + b.label_below, fmt::format("{:.6g}", t), 0.5);
  }
}

}  // namespace sphero::analysis
