// Shared by the figures: a Cairo surface of the format the file's extension
// asks for (.png, or exact vector .svg / .pdf), drawn by `draw` and written
// whole or not at all. Internal to analysis/figures (it exposes Cairo).
#pragma once

#include <cairo.h>

#include <array>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace sphero::analysis {

// A map's drawing (grains, a field) is at most this many times as tall as
// it is wide: a tall sample is drawn narrower, centred, not as a strip of
// a figure taller than any page.
constexpr double kTallestDrawing = 2.0;

// Throws std::runtime_error for an unknown extension, a size out of range
// or an unwritable file.
void render_figure(const std::filesystem::path& file, int width, int height, const std::function<void(cairo_t*)>& draw);

// Colour-blind-safe qualitative palette (Okabe & Ito), cycled.
void set_series_colour(cairo_t* cr, int index);

// Perceptually uniform colour map (viridis) at t ∈ [0, 1]: red, green, blue.
std::array<double, 3> map_colour(double t);
void set_map_colour(cairo_t* cr, double t);

// Text with its anchor at (x, y): `align` 0 left, 0.5 centre, 1 right;
// vertically centred on y.
void draw_text(cairo_t* cr, double x, double y, const std::string& text, double align = 0.0, double angle = 0.0);

// Lines of text, the first centred on `first_y`, each `line_height` below
// the one before, left-aligned at x.
void draw_lines(cairo_t* cr, double x, double first_y, double line_height, const std::vector<std::string>& lines);

// `text` broken at spaces into lines no wider than `width` at `font_size`
// (a word wider than that stands alone on its line). Measured on a scratch
// surface, so that a figure can size itself before it is drawn.
std::vector<std::string> wrap_text(const std::string& text, double font_size, double width);

// The advance width of `text` at `font_size`, measured the same way.
double text_width(const std::string& text, double font_size);

// Ticks at 1, 2 or 5 × 10^k covering [low, high] with about `count` steps.
std::vector<double> nice_ticks(double low, double high, int count);

// A horizontal colour bar: viridis over [low, high] in `steps` bands across
// x0..x1, from `top` down `height`, framed, with about `ticks` ticks at
// round values (`tick_length` long) labelled `label_below` under the bar.
struct ColourBar {
  double x0 = 0, x1 = 0, top = 0, height = 0;
  double low = 0, high = 1;
  int steps = 256, ticks = 6;
  double tick_length = 0, label_below = 0;
};
void draw_colour_bar(cairo_t* cr, const ColourBar& bar);

}  // namespace sphero::analysis
