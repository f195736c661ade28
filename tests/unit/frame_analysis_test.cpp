// Per-frame analysis of hand-built frames with closed-form answers.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "analysis/frame_analysis.h"
#include "shapes/shape.h"

namespace sphero::analysis {
namespace {

// A square lattice of touching disks (radius R), each pressed by its four
// neighbours with force F, as a frame a run would have written.
FrameData lattice_frame(int n, double R, double F) {
  FrameData f;
  for (int i = 0; i < n * n; ++i) {
    const Vec2 c{R + 2 * R * (i % n), R + 2 * R * (i / n)};
    std::vector<ContactOnParticle> contacts;
    for (Vec2 u : {Vec2{1, 0}, Vec2{-1, 0}, Vec2{0, 1}, Vec2{0, -1}}) contacts.push_back({c + R * u, -F * u});
    const double a = std::numbers::pi * R * R;
    const Stress s = love_weber(c, contacts, a);
    f.particles.push_back({100 + i, c, a, {s.xx, s.xy, s.yx, s.yy}, 4});
    std::vector<Vec2> outline;
    for (int k = 0; k < 64; ++k)
      outline.push_back(c + R * Vec2{std::cos(2 * std::numbers::pi * k / 64), std::sin(2 * std::numbers::pi * k / 64)});
    f.outlines.push_back(outline);
    if (i % n + 1 < n) f.pairs.push_back({100 + i, 101 + i, {2 * R, 0}, {1, 0}, {-F, 0}, F});
    if (i + n < n * n) f.pairs.push_back({100 + i, 100 + i + n, {0, 2 * R}, {0, 1}, {0, -F}, F});
  }
  return f;
}

TEST(FrameAnalysis, LatticeOfTouchingDisksHasTheClosedFormStressAndVoidRatio) {
  const int n = 6;
  const double R = 0.5, F = 3.0;
  Window box{Window::Kind::rectangle, 0, 0, 2 * R * n, 2 * R * n, {}, 0.0};
  const FrameSummary s = analyze_frame(lattice_frame(n, R, F), {box});
  EXPECT_NEAR(s.stress.xx, F / (2 * R), 1e-12);
  EXPECT_NEAR(s.stress.yy, F / (2 * R), 1e-12);
  EXPECT_NEAR(s.pressure, F / (2 * R), 1e-12);
  EXPECT_NEAR(s.deviator, 0.0, 1e-12);
  EXPECT_NEAR(s.packing_fraction, std::numbers::pi / 4, 1e-12);
  EXPECT_NEAR(s.void_ratio, 4 / std::numbers::pi - 1, 1e-12);
  EXPECT_EQ(s.particles, n * n);
  EXPECT_DOUBLE_EQ(s.coordination, 4.0);
  EXPECT_TRUE(s.chains.chains.empty());  // uniform: nobody above the mean
  // As many horizontal as vertical contacts: an isotropic fabric.
  EXPECT_NEAR(s.fabric_xx, 0.5, 1e-12);
  EXPECT_NEAR(s.fabric_yy, 0.5, 1e-12);
  EXPECT_NEAR(s.fabric_xy, 0.0, 1e-12);
  EXPECT_NEAR(s.anisotropy, 0.0, 1e-12);
  // Only the vertical contacts: every normal along y, anisotropy 2.
  FrameData columns = lattice_frame(n, R, F);
  std::erase_if(columns.pairs, [](const PairRecord& p) { return p.normal.x != 0.0; });
  const FrameSummary c = analyze_frame(columns, {box});
  EXPECT_NEAR(c.fabric_yy, 1.0, 1e-12);
  EXPECT_NEAR(c.anisotropy, 2.0, 1e-12);
  // The default window is the box around the outlines: the same here.
  EXPECT_NEAR(analyze_frame(lattice_frame(n, R, F), {}).packing_fraction, std::numbers::pi / 4, 1e-3);
  // A circular window holding the middle four disks' centres.
  Window circle;
  circle.kind = Window::Kind::circle;
  circle.centre = {3.0, 3.0};
  circle.radius = 0.75;
  EXPECT_EQ(analyze_frame(lattice_frame(n, R, F), {circle}).particles, 4);
}

TEST(FrameAnalysis, TheWindowCountsTheExactPartOfEachDiskInsideIt) {
  // The lattice's disks given exactly (point skeletons of radius R): a window
  // from the middle of the first column's disks to the middle of the last's
  // holds 5 whole disks' widths out of 6 in x — half disks at both sides —
  // and the full 6 rows in y; a window through the centres of the corner
  // disks holds a quarter of each corner disk.
  const int n = 6;
  const double R = 0.5, F = 3.0;
  FrameData f = lattice_frame(n, R, F);
  for (const ParticleRecord& p : f.particles)
    f.exact_shapes.push_back({make_shape("disk", SkeletonKind::point, {{0.0, 0.0}}, R), p.centre, 0.0});
  const double disk = std::numbers::pi * R * R;
  const Window middles{Window::Kind::rectangle, R, 0, 2 * R * n - R, 2 * R * n, {}, 0.0};
  const FrameSummary s = analyze_frame(f, {middles});
  EXPECT_TRUE(s.packing_exact);
  EXPECT_NEAR(s.packing_fraction, (n - 1) * n * disk / middles.area(), 1e-14);
  // By centres the two side columns count whole (their centres lie on the edges).
  AnalysisOptions by_centres{middles};
  by_centres.packing_by_centres = true;
  const FrameSummary c = analyze_frame(f, by_centres);
  EXPECT_FALSE(c.packing_exact);
  EXPECT_NEAR(c.packing_fraction, n * n * disk / middles.area(), 1e-14);
  // A 2R × 2R window centred on a lattice node where four disks meet: a
  // quarter of each, the whole of π/4 again.
  const Window node{Window::Kind::rectangle, 2 * R - R, 2 * R - R, 2 * R + R, 2 * R + R, {}, 0.0};
  EXPECT_NEAR(analyze_frame(f, {node}).packing_fraction, disk / node.area(), 1e-14);
  // A circle of radius R about the same node: four quarter-lenses of two
  // circles of radius R whose centres are R√2 apart.
  Window circle;
  circle.kind = Window::Kind::circle;
  circle.centre = {2 * R, 2 * R};
  circle.radius = R;
  const double d = R * std::sqrt(2.0);
  const double lens = 2 * R * R * std::acos(d / (2 * R)) - 0.5 * d * std::sqrt(4 * R * R - d * d);
  EXPECT_NEAR(analyze_frame(f, {circle}).packing_fraction, 4 * lens / circle.area(), 1e-13);
  // The default window: the box around the exact outlines, the lattice's own.
  EXPECT_NEAR(analyze_frame(f, {}).packing_fraction, std::numbers::pi / 4, 1e-14);
}

TEST(FrameAnalysis, OrientationRosesAndCoordinationDistributionOfTheLattice) {
  const int n = 6;
  const double R = 0.5, F = 3.0;
  AnalysisOptions o;
  o.rose_bins = 18;  // 10° each: normals along x fall in bin 0, along y in bin 9
  const FrameSummary s = analyze_frame(lattice_frame(n, R, F), o);
  const double bin = std::numbers::pi / 18;
  for (int k = 0; k < 18; ++k) {
    const bool occupied = k == 0 || k == 9;
    EXPECT_NEAR(s.normal_density[static_cast<std::size_t>(k)], occupied ? 0.5 / bin : 0.0, 1e-12) << "bin " << k;
    EXPECT_NEAR(s.mean_normal_force[static_cast<std::size_t>(k)], occupied ? F : 0.0, 1e-12) << "bin " << k;
  }
  double integral = 0.0;
  for (double d : s.normal_density) integral += d * bin;
  EXPECT_NEAR(integral, 1.0, 1e-12);
  ASSERT_EQ(s.coordination_distribution.size(), 5u);  // z = 0 … 4
  EXPECT_DOUBLE_EQ(s.coordination_distribution[4], 1.0);
  EXPECT_DOUBLE_EQ(s.coordination_distribution[3], 0.0);
}

TEST(FrameAnalysis, IsotropicNormalsHaveAFlatRoseAtOneOverPi) {
  FrameData f = lattice_frame(2, 0.5, 1.0);
  f.pairs.clear();
  std::mt19937 random(3);
  std::uniform_real_distribution<double> angle(0.0, 2 * std::numbers::pi);
  for (int k = 0; k < 200000; ++k) {
    const double a = angle(random);
    f.pairs.push_back({100, 101, {1, 0}, {std::cos(a), std::sin(a)}, {}, 1.0});
  }
  AnalysisOptions o;
  o.rose_bins = 12;
  const FrameSummary s = analyze_frame(f, o);
  // 200000 normals in 12 bins: each bin's count is binomial, relative σ ≈ 0.7%.
  for (double d : s.normal_density) EXPECT_NEAR(d, 1.0 / std::numbers::pi, 0.035 / std::numbers::pi);
  EXPECT_LT(s.anisotropy, 0.02);
}

// The lattice's bottom two rows named "small", the rest "large": each
// group's count, area and mean centre, over the window's particles only.
TEST(FrameAnalysis, ShapeGroupsGiveEachShapesCountAreaAndMeanCentre) {
  const int n = 4;
  const double R = 0.5;
  FrameData f = lattice_frame(n, R, 1.0);
  for (std::size_t i = 0; i < f.particles.size(); ++i) f.particles[i].shape = i < 2 * n ? "small" : "large";
  AnalysisOptions o;
  FrameSummary s = analyze_frame(f, o);
  ASSERT_EQ(s.shapes.size(), 2u);
  EXPECT_EQ(s.shapes[0].shape, "large");  // alphabetical
  EXPECT_EQ(s.shapes[0].grains, 2 * n);
  EXPECT_NEAR(s.shapes[0].area, 2 * n * std::numbers::pi * R * R, 1e-12);
  EXPECT_NEAR(s.shapes[0].mean_centre.y, 3.0, 1e-12);  // rows 2 and 3: y = 2.5 and 3.5
  EXPECT_NEAR(s.shapes[1].mean_centre.y, 1.0, 1e-12);  // rows 0 and 1: y = 0.5 and 1.5
  EXPECT_NEAR(s.shapes[1].mean_centre.x, 2.0, 1e-12);
  // A window over the lower three rows leaves the top row's large grains out.
  o.window = {Window::Kind::rectangle, 0.0, 0.0, 4.0, 3.0, {}, 0.0};
  s = analyze_frame(f, o);
  EXPECT_EQ(s.shapes[0].grains, n);
  EXPECT_NEAR(s.shapes[0].mean_centre.y, 2.5, 1e-12);
  // A frame that names no shapes has no groups.
  for (ParticleRecord& p : f.particles) p.shape.clear();
  EXPECT_TRUE(analyze_frame(f, o).shapes.empty());
}

}  // namespace
}  // namespace sphero::analysis
