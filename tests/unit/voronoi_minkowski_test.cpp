// Voronoi–Minkowski packings: grains inside their cells, no overlaps,
// touching at Δ = 0, exact packing fraction, periodic tiling, seeds.
#include <gtest/gtest.h>

#include <cmath>

#include "geometry/polygon.h"
#include "geometry/segment.h"
#include "packing/voronoi_minkowski.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

VoronoiMinkowskiOptions options(double gap, bool periodic = false, std::uint64_t seed = 4) {
  VoronoiMinkowskiOptions o;
  o.box = {{0, 0}, {10, 8}};
  o.periodic = periodic;
  o.count = 60;
  o.seed = seed;
  o.radius = 0.08;
  o.gap = gap;
  return o;
}

double distance_to_loop(Vec2 p, const std::vector<Vec2>& loop, Vec2 shift = {}) {
  double d = INFINITY;
  for (std::size_t i = 0; i < loop.size(); ++i)
    d = std::min(d, distance_to_segment(p, loop[i] + shift, loop[(i + 1) % loop.size()] + shift));
  return d;
}

// Distance between two closed skeletons (0 if they cross or nest).
double skeleton_distance(const std::vector<Vec2>& a, const std::vector<Vec2>& b, Vec2 shift = {}) {
  double d = INFINITY;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j)
      d = std::min(
          d, segment_segment_distance(a[i], a[(i + 1) % a.size()], b[j] + shift, b[(j + 1) % b.size()] + shift));
  std::vector<Vec2> moved;
  for (Vec2 v : b) moved.push_back(v + shift);
  if (point_in_polygon(a[0], moved) || point_in_polygon(moved[0], a)) return 0.0;
  return d;
}

TEST(VoronoiMinkowski, GrainsSitInsideTheirCellsAndTouchAtZeroGap) {
  const auto p = voronoi_minkowski(options(0.0));
  ASSERT_GT(p.grains.size(), 50u);
  for (const Grain& g : p.grains) {
    const auto& cell = p.cells[static_cast<std::size_t>(g.cell)];
    double closest = INFINITY;
    for (Vec2 v : g.shape.vertices) {
      EXPECT_TRUE(point_in_polygon(v, cell));
      closest = std::min(closest, distance_to_loop(v, cell));
    }
    // The skeleton is the cell eroded by r: its nearest vertex is exactly r
    // from the cell's boundary, so the rounded grain touches its cell.
    EXPECT_NEAR(closest, p.radius, 1e-9);
  }
}

TEST(VoronoiMinkowski, NoTwoGrainsOverlapAndNeighboursTouchAtZeroGap) {
  for (double gap : {0.0, 0.05}) {
    SCOPED_TRACE(gap);
    const auto p = voronoi_minkowski(options(gap));
    double closest = INFINITY;
    for (std::size_t i = 0; i < p.grains.size(); ++i) {
      // Inside the box, by at least r + Δ.
      for (Vec2 v : p.grains[i].shape.vertices)
        EXPECT_GE(std::min({v.x, v.y, 10 - v.x, 8 - v.y}), p.radius + gap - 1e-9);
      for (std::size_t j = i + 1; j < p.grains.size(); ++j) {
        const double d = skeleton_distance(p.grains[i].shape.vertices, p.grains[j].shape.vertices) - 2 * p.radius;
        EXPECT_GE(d, 2 * gap - 1e-9) << i << " " << j;
        closest = std::min(closest, d);
      }
    }
    EXPECT_NEAR(closest, 2 * gap, 1e-9);  // some neighbours meet across a shared face
  }
}

TEST(VoronoiMinkowski, PackingFractionIsTheExactAreaSumAndFallsWithTheGap) {
  double previous = 1.0;
  for (double gap : {0.0, 0.01, 0.03, 0.08}) {
    const auto p = voronoi_minkowski(options(gap));
    double area = 0.0;
    for (const Grain& g : p.grains) area += mass_properties(g.shape).area;
    EXPECT_NEAR(p.packing_fraction, area / 80.0, 1e-12);
    EXPECT_NEAR(p.void_ratio, (80.0 - area) / area, 1e-12);
    EXPECT_LT(p.packing_fraction, previous);
    previous = p.packing_fraction;
  }
}

TEST(VoronoiMinkowski, PeriodicCellsTileTheTorusAndSeamGrainsAreWhole) {
  const auto p = voronoi_minkowski(options(0.02, true));
  double cell_area = 0.0;
  for (const auto& cell : p.cells) cell_area += signed_area(cell);
  EXPECT_NEAR(cell_area, 80.0, 1e-9);
  EXPECT_EQ(p.grains.size() + p.dropped.size(), 60u);
  int across = 0;
  for (const Grain& g : p.grains) {
    bool outside = false;
    for (Vec2 v : g.shape.vertices) outside |= v.x < 0 || v.x > 10 || v.y < 0 || v.y > 8;
    across += outside;
  }
  EXPECT_GT(across, 0);  // grains on the seam keep their whole shape, reaching past the box
  // No overlaps, periodic images included.
  for (std::size_t i = 0; i < p.grains.size(); ++i)
    for (std::size_t j = 0; j < p.grains.size(); ++j)
      for (int ix = -1; ix <= 1; ++ix)
        for (int iy = -1; iy <= 1; ++iy) {
          if (i == j && ix == 0 && iy == 0) continue;
          const double d =
              skeleton_distance(p.grains[i].shape.vertices, p.grains[j].shape.vertices, Vec2{10.0 * ix, 8.0 * iy});
          EXPECT_GE(d - 2 * p.radius, 2 * 0.02 - 1e-9);
        }
}

TEST(VoronoiMinkowski, SameSeedSameGrainsOtherSeedOtherGrains) {
  const auto a = voronoi_minkowski(options(0.01, false, 9));
  const auto b = voronoi_minkowski(options(0.01, false, 9));
  const auto c = voronoi_minkowski(options(0.01, false, 10));
  ASSERT_EQ(a.grains.size(), b.grains.size());
  for (std::size_t i = 0; i < a.grains.size(); ++i) EXPECT_EQ(a.grains[i].shape.vertices, b.grains[i].shape.vertices);
  EXPECT_NE(a.grains.front().shape.vertices, c.grains.front().shape.vertices);
}

TEST(VoronoiMinkowski, TargetsAreSolvedFor) {
  VoronoiMinkowskiOptions o = options(0.0);
  o.packing_fraction = 0.80;
  const auto p = voronoi_minkowski(o);
  EXPECT_NEAR(p.packing_fraction, 0.80, 1e-6);
  EXPECT_GT(p.gap, 0.0);
  VoronoiMinkowskiOptions round = options(0.0);
  round.roundness = 0.2;
  round.lloyd_steps = 3;
  const auto q = voronoi_minkowski(round);
  EXPECT_NEAR(q.mean_roundness, 0.2, 1e-4);
  o.packing_fraction = 0.999;
  EXPECT_THROW(voronoi_minkowski(o), std::invalid_argument);  // denser than Δ = 0 allows
}

TEST(VoronoiMinkowski, LloydStepsMakeCellsMoreRegular) {
  const auto spread = [](const VoronoiMinkowskiPacking& p) {
    double mean = 0.0, square = 0.0;
    for (const auto& c : p.cells) mean += signed_area(c), square += signed_area(c) * signed_area(c);
    mean /= static_cast<double>(p.cells.size());
    return std::sqrt(square / static_cast<double>(p.cells.size()) - mean * mean) / mean;
  };
  VoronoiMinkowskiOptions relaxed = options(0.0);
  relaxed.lloyd_steps = 10;
  EXPECT_LT(spread(voronoi_minkowski(relaxed)), 0.5 * spread(voronoi_minkowski(options(0.0))));
}

double area_spread(const std::vector<std::vector<Vec2>>& cells) {
  double mean = 0.0, square = 0.0;
  int n = 0;
  for (const auto& c : cells) {
    if (c.size() < 3) continue;
    const double a = signed_area(c);
    mean += a, square += a * a, ++n;
  }
  mean /= n;
  return std::sqrt(square / n - mean * mean) / mean;
}

TEST(VoronoiMinkowski, PowerCellsWidenTheSizeDistributionAndStillTile) {
  const std::vector<Vec2> sites{{1, 1}, {3, 2}, {6, 1.5}, {8, 6}, {2, 7}, {5, 5}};
  const Box box{{0, 0}, {10, 8}};
  // Equal weights: exactly the Voronoi cells.
  const auto equal = power_cells(sites, std::vector<double>(sites.size(), 0.7), box, false);
  const auto voronoi = voronoi_cells(sites, box);
  for (std::size_t i = 0; i < sites.size(); ++i) EXPECT_NEAR(signed_area(equal[i]), signed_area(voronoi[i]), 1e-9);

  double previous = 0.0;
  for (double spread : {0.0, 0.4, 0.8}) {
    SCOPED_TRACE(spread);
    VoronoiMinkowskiOptions o = options(0.0);
    o.count = 200;
    o.lloyd_steps = 3;  // regular sites, so that the spread shows the weights' effect
    o.size_spread = spread;
    const auto p = voronoi_minkowski(o);
    double total = 0.0;
    for (const auto& c : p.cells)
      if (c.size() >= 3) total += signed_area(c);
    EXPECT_NEAR(total, 80.0, 1e-9);  // the cells still tile the box
    const double s = area_spread(p.cells);
    EXPECT_GT(s, previous);
    previous = s;
    o.periodic = true;  // periodic power cells tile the torus too
    double torus = 0.0;
    for (const auto& c : voronoi_minkowski(o).cells)
      if (c.size() >= 3) torus += signed_area(c);
    EXPECT_NEAR(torus, 80.0, 1e-9);
    // and the grains still keep their distance.
    for (std::size_t i = 0; i < p.grains.size(); i += 7)
      for (std::size_t j = i + 1; j < p.grains.size(); ++j)
        EXPECT_GE(skeleton_distance(p.grains[i].shape.vertices, p.grains[j].shape.vertices) - 2 * p.radius, -1e-9);
  }
}

TEST(VoronoiMinkowski, BadOptionsAreRefused) {
  VoronoiMinkowskiOptions o = options(-0.1);
  EXPECT_THROW(voronoi_minkowski(o), std::invalid_argument);
  o = options(0.0);
  o.radius = 5.0;  // erodes every cell away
  EXPECT_THROW(voronoi_minkowski(o), std::invalid_argument);
  o = options(0.0);
  o.count = 0;
  EXPECT_THROW(voronoi_minkowski(o), std::invalid_argument);
}

}  // namespace
}  // namespace sphero
