// The figures' layout: titles wrapped to the width, the caption and legend
// making room for themselves, periodic contacts drawn as two halves.
#include <cairo.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <string>

#include "analysis/figures/canvas.h"
#include "analysis/figures/charts.h"
#include "analysis/figures/field_map.h"
#include "analysis/figures/force_network.h"
#include "geometry/polygon.h"

namespace sphero::analysis {
namespace {

TEST(FigureLayout, ATitleWrapsAtSpacesIntoLinesThatFit) {
  const std::string title =
      "Shear band, Voronoi cells, 10 s after the start of shearing, with the force chains of Peters et al. highlighted";
  const double font = 18.0, width = 300.0;
  const std::vector<std::string> lines = wrap_text(title, font, width);
  ASSERT_GT(lines.size(), 2u);
  std::string joined;
  for (const std::string& line : lines) {
    EXPECT_LE(text_width(line, font), width) << line;
    EXPECT_FALSE(line.empty());
    joined += (joined.empty() ? "" : " ") + line;
  }
  EXPECT_EQ(joined, title);
  EXPECT_EQ(wrap_text("short", font, width).size(), 1u);
  // A word wider than the line stands alone rather than being cut.
  const std::vector<std::string> long_word = wrap_text("a Supercalifragilisticexpialidocious b", font, 50.0);
  ASSERT_EQ(long_word.size(), 3u);
  EXPECT_EQ(long_word[1], "Supercalifragilisticexpialidocious");
}

// Two unit squares touching across the right edge of a periodic cell
// [0, 10): particle 1 at x = 9.5, particle 2 at x = 0.5, the contact line
// from 1 to the image of 2 at x = 10.5.
FrameData periodic_pair() {
  FrameData f;
  for (const auto& [id, x] : {std::pair{1, 9.5}, std::pair{2, 0.5}}) {
    ParticleRecord p;
    p.id = id;
    p.centre = {x, 0.5};
    p.area = 1.0;
    f.particles.push_back(p);
    f.outlines.push_back({{x - 0.5, 0.0}, {x + 0.5, 0.0}, {x + 0.5, 1.0}, {x - 0.5, 1.0}});
  }
  f.pairs.push_back({1, 2, {1.0, 0.0}, {1.0, 0.0}, {-3.0, 0.0}, 3.0});
  f.forces.push_back({{9.5, 0.5}, {10.5, 0.5}, 3.0, false});
  return f;
}

TEST(FigureLayout, AContactAcrossAPeriodicBoundaryIsDrawnAsTwoHalvesAtTheBoundary) {
  const FrameData f = periodic_pair();
  const auto pieces = contact_pieces(f, particle_centres(f), 0);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].first, (Vec2{9.5, 0.5}));
  EXPECT_NEAR(pieces[0].second.x, 10.0, 1e-12);  // ends at the boundary
  EXPECT_NEAR(pieces[1].first.x, 0.0, 1e-12);    // starts at the boundary
  EXPECT_EQ(pieces[1].second, (Vec2{0.5, 0.5}));
  // Without the period, the same pair is one line from centre to centre.
  FrameData plain = f;
  plain.forces[0].b = {0.5, 0.5};
  plain.particles[1].centre = {0.5, 0.5};
  EXPECT_EQ(contact_pieces(plain, particle_centres(plain), 0).size(), 1u);
}

int png_height(const std::filesystem::path& file) {
  cairo_surface_t* image = cairo_image_surface_create_from_png(file.c_str());
  const int height = cairo_image_surface_get_height(image);
  cairo_surface_destroy(image);
  return height;
}

TEST(FigureLayout, ALongTitleMakesTheFigureTallerInsteadOfRunningOffTheEdge) {
  const FrameData f = periodic_pair();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sphero_figure_layout_test";
  std::filesystem::create_directories(dir);
  FigureOptions o;
  o.width = 400;
  o.title = "Short";
  draw_force_network(f, dir / "short.png", o);
  o.title = std::string(30, 'x') + " " + std::string(30, 'y') + " " + std::string(30, 'z');
  draw_force_network(f, dir / "long.png", o);
  EXPECT_GT(png_height(dir / "long.png"), png_height(dir / "short.png"));
  std::filesystem::remove_all(dir);
}

// A field with a wall reaching far beyond it, at two aspect ratios and
// with a caption that wraps: caption, drawing and colour bar never overlap,
// all lie inside the figure, and nothing is drawn outside the field's
// rectangle but text and the bar.
TEST(FigureLayout, AFieldMapKeepsItsCaptionDrawingAndColourBarApart) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sphero_field_map_layout_test";
  std::filesystem::create_directories(dir);
  for (const auto& [nx, ny] : {std::pair{40, 10}, std::pair{10, 40}}) {
    FieldMap m;
    m.nx = nx, m.ny = ny, m.origin = {0, 0}, m.spacing = {0.5, 0.5};
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) m.values.push_back(i + j);
    m.caption = "pressure, t = 1 s; coarse-grained with a gaussian kernel of width w = 1 m; " + std::string(40, 'x');
    m.quantity = "pressure p (N/m)";
    m.wall_outlines = {{{-100, -1}, {100, -1}, {100, 1}, {-100, 1}}};  // across the field, far out both ways
    const int width = 500;
    const FieldMapLayout l = field_map_layout(m, width);
    const std::vector<Box> boxes{l.caption, l.drawing, l.colour_bar};
    for (std::size_t a = 0; a < boxes.size(); ++a) {
      EXPECT_GE(boxes[a].x0, 0.0);
      EXPECT_LE(boxes[a].x1, l.width);
      EXPECT_GE(boxes[a].y0, 0.0);
      EXPECT_LE(boxes[a].y1, l.height);
      for (std::size_t b = a + 1; b < boxes.size(); ++b) EXPECT_FALSE(boxes[a].overlaps(boxes[b])) << a << " " << b;
    }
    const auto file = dir / "field.png";
    draw_field_map(m, file, width);
    EXPECT_EQ(png_height(file), static_cast<int>(l.height));
    // The wall's grey stops at the drawing's edge: the margins beside it,
    // at the wall's height, stay white.
    cairo_surface_t* png = cairo_image_surface_create_from_png(file.c_str());
    const int stride = cairo_image_surface_get_stride(png);
    const unsigned char* data = cairo_image_surface_get_data(png);
    const double wall_y = l.drawing.y1 - (0.5 + 0.25) * (l.drawing.y1 - l.drawing.y0) / (ny * 0.5);  // y = 0.5
    const auto pixel = [&](double x, double y) {
      return *reinterpret_cast<const std::uint32_t*>(data + static_cast<int>(y) * stride + 4 * static_cast<int>(x)) &
             0xffffffu;
    };
    EXPECT_EQ(pixel(2, wall_y), 0xffffffu);
    EXPECT_EQ(pixel(width - 3, wall_y), 0xffffffu);
    EXPECT_EQ(pixel(0.5 * (l.drawing.x0 + l.drawing.x1), wall_y), 0x595959u);  // the wall's grey, 0.35
    cairo_surface_destroy(png);
  }
  std::filesystem::remove_all(dir);
}

// A grid of nx × ny unit squares with a contact between each pair of
// neighbours (forces of several sizes, every third sliding), between two
// plates that reach `plate_reach` grains beyond the sample on both sides.
FrameData grid_of_grains(int nx, int ny, double plate_reach) {
  FrameData f;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const Vec2 c{i + 0.5, j + 0.5};
      f.outlines.push_back(
          {c + Vec2{-0.45, -0.45}, c + Vec2{0.45, -0.45}, c + Vec2{0.45, 0.45}, c + Vec2{-0.45, 0.45}});
      ParticleRecord p;
      p.id = j * nx + i, p.centre = c, p.area = 0.81;
      f.particles.push_back(p);
      for (const Vec2 step : {Vec2{1, 0}, Vec2{0, 1}})
        if ((step.x > 0 && i + 1 < nx) || (step.y > 0 && j + 1 < ny))
          f.forces.push_back({c, c + step, 1.0 + static_cast<double>((i * 7 + j * 3) % 11), (i + j) % 3 == 0});
    }
  const double reach = plate_reach + 0.5;
  f.wall_outlines = {{{-reach, -0.2}, {nx + reach, -0.2}, {nx + reach, 0.0}, {-reach, 0.0}},
                     {{-reach, ny * 1.0}, {nx + reach, ny * 1.0}, {nx + reach, ny + 0.2}, {-reach, ny + 0.2}}};
  f.time = 12.5;
  return f;
}

// Every figure kind of `sphero figure` that draws grains — force network,
// force chains, a map of a per-grain value with its colour bar — at every
// aspect ratio (a strip 40 grains wide, a square, a column 40 tall) and
// width, with long plates framed out or in, under a long title: the
// layout's text boxes lie inside the figure, apart from one another and
// from the drawing; the picture is as tall as the layout says; and nothing
// but the drawing and the text is drawn (every other pixel white), so that
// plates cut at the drawing's edge never run under the text.
TEST(FigureLayout, AForceNetworkKeepsItsTextApartFromItsDrawingAtEveryAspectRatio) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sphero_force_network_layout_test";
  std::filesystem::create_directories(dir);
  int figures = 0;
  for (const auto& [nx, ny] : {std::pair{40, 1}, std::pair{6, 6}, std::pair{1, 40}, std::pair{3, 12}})
    for (const int width : {150, 420, 1600})
      for (const auto view : {FigureOptions::View::automatic, FigureOptions::View::all})
        for (const int kind : {0, 1, 2}) {  // forces; forces with chains; a map with a colour bar
          const FrameData f = grid_of_grains(nx, ny, 30.0);
          FigureOptions o;
          o.width = width;
          o.view = view;
          o.title = "Biaxial compression of 500 Voronoi-Minkowski grains at 100 kPa, axial strain 2.5 %";
          if (kind == 1) o.in_chain.assign(f.forces.size(), false), o.in_chain[0] = true;
          if (kind == 2) {
            o.draw_forces = false;
            for (std::size_t k = 0; k < f.particles.size(); ++k) o.fill.push_back(0.8 + 0.001 * static_cast<double>(k));
            o.fill_low = 0.8, o.fill_high = 0.9;
            o.fill_label = "local packing fraction";
          }
          const std::string name = fmt::format("{}x{} w{} view{} kind{}", nx, ny, width, static_cast<int>(view), kind);
          const ForceNetworkLayout l = force_network_layout(f, o);
          ASSERT_FALSE(l.text.empty()) << name;
          EXPECT_LE(l.height, 2.0 * l.width + 0.5 * l.width) << name << ": a tall sample makes a tall strip";
          for (std::size_t a = 0; a < l.text.size(); ++a) {
            const Box& t = l.text[a];
            EXPECT_GE(t.x0, 0.0) << name << " text " << a;
            EXPECT_LE(t.x1, l.width) << name << " text " << a;
            EXPECT_GE(t.y0, 0.0) << name << " text " << a;
            EXPECT_LE(t.y1, l.height) << name << " text " << a;
            EXPECT_FALSE(t.overlaps(l.drawing)) << name << " text " << a << " over the drawing";
            for (std::size_t b = a + 1; b < l.text.size(); ++b)
              EXPECT_FALSE(t.overlaps(l.text[b])) << name << " texts " << a << " and " << b;
          }
          const auto file = dir / "figure.png";
          draw_force_network(f, file, o);
          cairo_surface_t* png = cairo_image_surface_create_from_png(file.c_str());
          const int w = cairo_image_surface_get_width(png), h = cairo_image_surface_get_height(png);
          EXPECT_EQ(w, width) << name;
          EXPECT_EQ(h, static_cast<int>(l.height)) << name;
          const int stride = cairo_image_surface_get_stride(png);
          const unsigned char* data = cairo_image_surface_get_data(png);
          int stray = 0;
          for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
              const auto rgb = *reinterpret_cast<const std::uint32_t*>(data + y * stride + 4 * x) & 0xffffffu;
              if (rgb == 0xffffffu) continue;
              const double px = x + 0.5, py = y + 0.5;
              const auto near = [&](const Box& b) {
                return Box{b.x0 - 1.5, b.y0 - 1.5, b.x1 + 1.5, b.y1 + 1.5}.contains(px, py);
              };
              if (near(l.drawing) || std::any_of(l.text.begin(), l.text.end(), near)) continue;
              ++stray;
            }
          EXPECT_EQ(stray, 0) << name << ": pixels drawn outside the drawing and the text";
          cairo_surface_destroy(png);
          ++figures;
        }
  EXPECT_EQ(figures, 72);
  std::filesystem::remove_all(dir);
}

// Pixels of a PNG that are not white and lie outside every one of `boxes`
// (grown by `slack` for antialiasing), and outside the circle, if any.
int stray_pixels(const std::filesystem::path& file, std::vector<Box> boxes, double slack, double cx = 0, double cy = 0,
                 double radius = -1) {
  cairo_surface_t* png = cairo_image_surface_create_from_png(file.c_str());
  const int w = cairo_image_surface_get_width(png), h = cairo_image_surface_get_height(png);
  const int stride = cairo_image_surface_get_stride(png);
  const unsigned char* data = cairo_image_surface_get_data(png);
  for (Box& b : boxes) b = {b.x0 - slack, b.y0 - slack, b.x1 + slack, b.y1 + slack};
  int stray = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if ((*reinterpret_cast<const std::uint32_t*>(data + y * stride + 4 * x) & 0xffffffu) == 0xffffffu) continue;
      const double px = x + 0.5, py = y + 0.5;
      if (std::hypot(px - cx, py - cy) <= radius + slack) continue;
      if (std::none_of(boxes.begin(), boxes.end(), [&](const Box& b) { return b.contains(px, py); })) ++stray;
    }
  cairo_surface_destroy(png);
  return stray;
}

void expect_apart(const std::vector<Box>& text, double width, double height, const std::string& name) {
  for (std::size_t a = 0; a < text.size(); ++a) {
    EXPECT_GE(text[a].x0, 0.0) << name << " text " << a;
    EXPECT_LE(text[a].x1, width) << name << " text " << a;
    EXPECT_GE(text[a].y0, 0.0) << name << " text " << a;
    EXPECT_LE(text[a].y1, height) << name << " text " << a;
    for (std::size_t b = a + 1; b < text.size(); ++b)
      EXPECT_FALSE(text[a].overlaps(text[b])) << name << " texts " << a << " and " << b;
  }
}

// x–y charts at every aspect ratio from 1:4 to 8:1 and sizes from 150 to
// 3000, with a y axis from 0 under an x axis from 800 (their first labels
// meet at the corner): the title, tick labels and axis labels stay inside the figure,
// apart from one another and off the axes; the legend sits inside the axes
// only where it fits, otherwise apart from everything;
// and nothing is drawn elsewhere.
TEST(FigureLayout, AChartKeepsItsTextApartFromItsAxesAtEveryAspectRatio) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sphero_chart_layout_test";
  std::filesystem::create_directories(dir);
  for (const auto& [width, height] : {std::pair{150, 150}, std::pair{300, 1200}, std::pair{1200, 800},
                                      std::pair{2400, 300}, std::pair{3000, 3000}, std::pair{800, 100}})
    for (const int data : {0, 1, 2, 3}) {  // one curve; three filling the axes; log axes; y from 0, x from 800
      Chart c;
      c.title = "Stress ratio q/p against axial strain, biaxial test of 500 grains at 100 kPa confinement";
      c.x_label = "axial strain ε_a (-)";
      c.y_label = data == 2 ? "kinetic energy (J)" : "stress ratio q/p (-)";
      c.x_log = c.y_log = data == 2;
      c.y_from_zero = data == 3;
      for (int k = 0; k < (data == 1 ? 3 : 1); ++k) {
        Curve curve;
        curve.label = fmt::format("confinement {} kPa, seed {}", 100 * (k + 1), k);
        for (int i = 0; i <= 200; ++i) {
          const double x = data == 2 ? std::pow(10.0, -6 + 0.03 * i) : data == 3 ? 800.0 + 2.5 * i : -1.2345e-5 * i;
          curve.x.push_back(x);
          curve.y.push_back(data == 1 ? std::fmod(i * 0.618 + k * 0.3, 1.0) : data == 2 ? 1e-3 * x * x : std::sqrt(i));
        }
        c.curves.push_back(curve);
      }
      const std::string name = fmt::format("{}x{} data{}", width, height, data);
      const ChartLayout l = chart_layout(c, width, height);
      expect_apart(l.text, width, height, name);
      for (std::size_t a = 0; a < l.text.size(); ++a)
        EXPECT_FALSE(l.text[a].overlaps(l.plot)) << name << " text " << a << " over the axes";
      EXPECT_LT(l.plot.x0, l.plot.x1) << name;
      EXPECT_LT(l.plot.y0, l.plot.y1) << name;
      ASSERT_TRUE(l.legend_shown) << name;
      const bool inside =
          l.legend.x0 >= l.plot.x0 && l.legend.x1 <= l.plot.x1 && l.legend.y0 >= l.plot.y0 && l.legend.y1 <= l.plot.y1;
      if (!inside) {
        EXPECT_FALSE(l.legend.overlaps(l.plot)) << name;
        for (const Box& t : l.text) EXPECT_FALSE(l.legend.overlaps(t)) << name;
        EXPECT_LE(l.legend.x1, width) << name;
        EXPECT_LE(l.legend.y1, height) << name;
      }
      const auto file = dir / "chart.png";
      draw_chart(c, file, width, height);
      std::vector<Box> drawn = l.text;
      drawn.push_back(l.plot);
      drawn.push_back(l.legend);
      EXPECT_EQ(stray_pixels(file, drawn, 2.0 + 1.2 * std::min(width / 1200.0, height / 800.0)), 0) << name;
    }
  std::filesystem::remove_all(dir);
}

// Roses of one to four labelled curves under titles of one to five lines, at
// widths from 150 to 3000: the angles, title and legend stay inside the
// figure, apart from one another and off the circle; nothing is drawn
// elsewhere.
TEST(FigureLayout, ARoseKeepsItsTitleAnglesAndLegendOffTheCircle) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sphero_rose_layout_test";
  std::filesystem::create_directories(dir);
  for (const int width : {150, 400, 1000, 3000})
    for (const int curves : {1, 4}) {
      Rose r;
      r.title =
          curves == 1 ? "Contact normals" : std::string(60, 'x') + " " + std::string(60, 'y') + " contact normals";
      for (int k = 0; k < curves; ++k) {
        Curve c;
        c.label = fmt::format("frame {}, contact normals weighted by the normal force", 10 * k);
        for (int b = 0; b < 18; ++b) c.y.push_back(1.0 + std::cos(2.0 * b * std::numbers::pi / 18 + k));
        r.curves.push_back(c);
      }
      const std::string name = fmt::format("w{} curves{}", width, curves);
      const RoseLayout l = rose_layout(r, width);
      expect_apart(l.text, l.width, l.height, name);
      for (std::size_t a = 0; a < l.text.size(); ++a) {
        const Box& t = l.text[a];
        const double nx = std::clamp(l.centre_x, t.x0, t.x1), ny = std::clamp(l.centre_y, t.y0, t.y1);
        EXPECT_GT(std::hypot(nx - l.centre_x, ny - l.centre_y), l.radius) << name << " text " << a << " on the circle";
      }
      const auto file = dir / "rose.png";
      draw_rose(r, file, width);
      EXPECT_EQ(png_height(file), static_cast<int>(l.height)) << name;
      std::vector<Box> all_text = l.text;
      all_text.insert(all_text.end(), l.scale_labels.begin(), l.scale_labels.end());
      expect_apart(all_text, l.width, l.height, name);
      const double stroke = 2.0 * width / 1000.0;  // the curves' line width
      EXPECT_EQ(stray_pixels(file, all_text, 2.0 + stroke, l.centre_x, l.centre_y, l.radius), 0) << name;
    }
  std::filesystem::remove_all(dir);
}

// A sample between plates ten times as long as it is wide: the automatic
// view frames the grains, and the plates, cut at the view's edge, leave the
// margins and the caption white.
TEST(FigureLayout, LongPlatesAreFramedOutAndCutAtTheViewsEdge) {
  FrameData f;
  for (int k = 0; k < 4; ++k) {
    const Vec2 c{1.0 + k, 1.0};
    std::vector<Vec2> square{c + Vec2{-0.4, -0.4}, c + Vec2{0.4, -0.4}, c + Vec2{0.4, 0.4}, c + Vec2{-0.4, 0.4}};
    f.outlines.push_back(square);
    ParticleRecord p;
    p.id = k, p.centre = c, p.area = 0.64;
    f.particles.push_back(p);
  }
  f.wall_outlines = {{{-20, 0.4}, {25, 0.4}, {25, 0.5}, {-20, 0.5}}, {{-20, 1.5}, {25, 1.5}, {25, 1.6}, {-20, 1.6}}};
  FigureOptions o;
  o.width = 600;
  o.title = "plates far longer than the sample";
  EXPECT_TRUE(frames_grains_only(f, o));
  o.view = FigureOptions::View::all;
  EXPECT_FALSE(frames_grains_only(f, o));
  o.view = FigureOptions::View::automatic;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sphero_long_plates_test";
  std::filesystem::create_directories(dir);
  const auto file = dir / "plates.png";
  draw_force_network(f, file, o);
  cairo_surface_t* png = cairo_image_surface_create_from_png(file.c_str());
  const int stride = cairo_image_surface_get_stride(png), height = cairo_image_surface_get_height(png);
  const unsigned char* data = cairo_image_surface_get_data(png);
  const auto pixel = [&](int x, int y) {
    return *reinterpret_cast<const std::uint32_t*>(data + y * stride + 4 * x) & 0xffffffu;
  };
  // Along the figure's left and right edges, top to bottom: no wall grey.
  for (int y = 0; y < height; ++y) {
    EXPECT_EQ(pixel(1, y), 0xffffffu) << "row " << y;
    EXPECT_EQ(pixel(o.width - 2, y), 0xffffffu) << "row " << y;
  }
  cairo_surface_destroy(png);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sphero::analysis
