// Set-Voronoi local packing fraction against lattices whose cells are known.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "analysis/packing/local_packing.h"
#include "geometry/polygon.h"

namespace sphero::analysis {
namespace {

std::vector<Vec2> disk(Vec2 centre, double radius, int points = 96) {
  std::vector<Vec2> outline;
  for (int k = 0; k < points; ++k) {
    const double a = 2 * std::numbers::pi * k / points;
    outline.push_back(centre + radius * Vec2{std::cos(a), std::sin(a)});
  }
  return outline;
}

TEST(LocalPacking, SquareLatticeOfTouchingDisksGivesEveryDiskASquareCell) {
  // Cells are the 2R × 2R squares (the box around the outlines is the
  // lattice's own box), so every disk has φ = (area of its outline)/(4R²).
  const int n = 8;
  const double R = 0.5;
  std::vector<std::vector<Vec2>> outlines;
  std::vector<double> area;
  for (int i = 0; i < n * n; ++i) {
    outlines.push_back(disk({R + 2 * R * (i % n), R + 2 * R * (i / n)}, R));
    area.push_back(std::abs(signed_area(outlines.back())));
  }
  const LocalPacking p = local_packing_fractions(outlines, area);
  double total = 0.0;
  for (std::size_t i = 0; i < outlines.size(); ++i) {
    EXPECT_NEAR(p.cell_area[i], 4 * R * R, 1e-3 * 4 * R * R) << "disk " << i;
    EXPECT_NEAR(p.packing_fraction[i], area[i] / (4 * R * R), 1e-3) << "disk " << i;
    total += p.cell_area[i];
  }
  EXPECT_NEAR(total, (2 * R * n) * (2 * R * n), 1e-9);              // the cells tile the box
  EXPECT_NEAR(p.packing_fraction[27], std::numbers::pi / 4, 2e-3);  // the 96-gon is 0.07% short of the disk
}

TEST(LocalPacking, HexagonalLatticeGivesInteriorDisksHexagonalCells) {
  const int rows = 9, columns = 9;
  const double R = 1.0, gap = 0.1;  // not touching: cells of the centres' lattice
  const double d = 2 * R + gap;
  std::vector<std::vector<Vec2>> outlines;
  std::vector<double> area;
  std::vector<bool> interior;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) {
      outlines.push_back(disk({d * c + 0.5 * d * (r % 2), std::sqrt(3.0) / 2 * d * r}, R));
      area.push_back(std::abs(signed_area(outlines.back())));
      interior.push_back(r > 1 && r < rows - 2 && c > 1 && c < columns - 2);
    }
  const LocalPacking p = local_packing_fractions(outlines, area);
  const double hexagon = std::sqrt(3.0) / 2 * d * d;  // the Wigner–Seitz cell
  for (std::size_t i = 0; i < outlines.size(); ++i) {
    if (!interior[i]) continue;
    EXPECT_NEAR(p.cell_area[i], hexagon, 2e-3 * hexagon) << "disk " << i;
  }
}

// A straight rod of half-thickness r from x = −5 to 5 at height y, as a
// stadium outline.
std::vector<Vec2> rod(double y, double r) {
  std::vector<Vec2> outline;
  for (int k = 0; k <= 48; ++k) {
    const double a = -std::numbers::pi / 2 + std::numbers::pi * k / 48;
    outline.push_back(Vec2{5, y} + r * Vec2{std::cos(a), std::sin(a)});
  }
  for (int k = 0; k <= 48; ++k) {
    const double a = std::numbers::pi / 2 + std::numbers::pi * k / 48;
    outline.push_back(Vec2{-5, y} + r * Vec2{std::cos(a), std::sin(a)});
  }
  return outline;
}

TEST(LocalPacking, TheCellBoundaryRunsMidwayBetweenSurfacesNotCentres) {
  // A thick rod (r = 0.5) at y = 0 under a thin one (r = 0.1) at y = 2. The
  // set-Voronoi boundary lies midway between the surfaces, y = (0.5 + 1.9)/2
  // = 1.2; a Voronoi of centres (or skeletons) would put it at y = 1 and
  // give the thick rod 11 × 1.5 = 16.5 instead of 11 × 1.7 = 18.7.
  const std::vector<std::vector<Vec2>> outlines{rod(0.0, 0.5), rod(2.0, 0.1)};
  const std::vector<double> area{std::abs(signed_area(outlines[0])), std::abs(signed_area(outlines[1]))};
  const LocalPacking p = local_packing_fractions(outlines, area);
  EXPECT_NEAR(p.cell_area[0], 11.0 * 1.7, 0.01 * 18.7);  // the caps bend the boundary near the box's ends
  EXPECT_NEAR(p.cell_area[0] + p.cell_area[1], 11.0 * 2.6, 1e-9);
  EXPECT_NEAR(p.packing_fraction[0], area[0] / p.cell_area[0], 1e-15);
}

}  // namespace
}  // namespace sphero::analysis
