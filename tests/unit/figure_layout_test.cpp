// The figures' layout: titles wrapped to the width, the caption and legend
// making room for themselves, periodic contacts drawn as two halves.
#include <cairo.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "analysis/figures/canvas.h"
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
