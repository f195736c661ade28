#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "analysis/packing/packing_fraction.h"

namespace sphero::analysis {
namespace {

TEST(PackingFraction, SquareLatticeOfTouchingDisksHasVoidRatioFourOverPiMinusOne) {
  // n x n disks of radius r touching on a square lattice fill a (2rn)² box.
  const int n = 5;
  const double r = 0.5;
  std::vector<Shape> disks;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      disks.push_back(make_shape("disk", SkeletonKind::point, {{r + 2 * r * i, r + 2 * r * j}}, r));
  const PackingMeasure m = measure_packing(disks, (2 * r * n) * (2 * r * n));
  EXPECT_NEAR(m.packing_fraction(), std::numbers::pi / 4.0, 1e-14);
  EXPECT_NEAR(m.void_ratio(), 4.0 / std::numbers::pi - 1.0, 1e-14);
}

TEST(PackingFraction, RefusesImpossibleRegions) {
  const std::vector<Shape> one{make_shape("disk", SkeletonKind::point, {{0, 0}}, 1.0)};
  EXPECT_THROW(measure_packing(one, 0.0), std::invalid_argument);
  EXPECT_THROW(measure_packing(one, 3.0), std::invalid_argument);  // π > 3: they would overlap
}

}  // namespace
}  // namespace sphero::analysis
