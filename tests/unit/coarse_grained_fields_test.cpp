// Coarse-grained fields checked against what they must equal: the grid's
// integrals against the frame's totals (mass, momentum, the Love–Weber
// sum), a uniform lattice's closed-form stress, the continuity equation
// between two close frames, a simple shear's linear profile, a column's
// weight, and a pair of cows touching at several vertices.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numbers>
#include <random>

#include "analysis/fields/coarse_grained_fields.h"
#include "analysis/frame_analysis.h"
#include "engine/engine.h"
#include "engine/stress.h"
#include "io/frame_grids.h"
#include "io/scene.h"

namespace sphero::analysis {
namespace {

CoarseGrainingOptions options(double width, double cell, KernelKind kind = KernelKind::gaussian) {
  CoarseGrainingOptions o;
  o.kernel.kind = kind;
  o.kernel.width = width;
  o.cell = cell;
  return o;
}

ParticleRecord particle(int id, Vec2 centre, double mass, Vec2 velocity = {}) {
  ParticleRecord p;
  p.id = id, p.centre = centre, p.mass = mass, p.area = mass, p.velocity = velocity;
  return p;
}

// The grid's integral of one component of a field.
double integral(const CoarseGrainedSums& s, std::size_t quantity) {
  double total = 0.0;
  for (const auto& node : s.nodes) total += node[quantity];
  return total * s.grid.cell_area();
}

const FieldArray& field(const std::vector<FieldArray>& fields, const std::string& name) {
  for (const FieldArray& f : fields)
    if (f.name == name) return f;
  throw std::runtime_error("no field " + name);
}

// Random disks with random masses and velocities (no contacts).
FrameData gas(int n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> place(0.0, 10.0), mass(0.5, 2.0), speed(-1.0, 1.0);
  FrameData f;
  for (int i = 0; i < n; ++i)
    f.particles.push_back(particle(i, {place(random), place(random)}, mass(random), {speed(random), speed(random)}));
  return f;
}

// A square lattice of touching disks (radius R, masses 1), each pressed by
// its four neighbours with force F, and by the walls around it at the edge:
// the lattice's uniform stress is F / 2R in both directions.
FrameData pressed_lattice(int n, double R, double F) {
  FrameData f;
  WallRecord walls;
  walls.id = 10000;
  for (int i = 0; i < n * n; ++i) {
    const int column = i % n, row = i / n;
    const Vec2 c{R + 2 * R * column, R + 2 * R * row};
    std::vector<ContactOnParticle> contacts;
    for (Vec2 u : {Vec2{1, 0}, Vec2{-1, 0}, Vec2{0, 1}, Vec2{0, -1}}) contacts.push_back({c + R * u, -F * u});
    const double a = std::numbers::pi * R * R;
    const Stress s = love_weber(c, contacts, a);
    ParticleRecord p = particle(i, c, 1.0);
    p.area = a, p.stress = {s.xx, s.xy, s.yx, s.yy}, p.coordination = 4;
    f.particles.push_back(p);
    if (column + 1 < n) f.pairs.push_back({i, i + 1, {2 * R, 0}, {1, 0}, {-F, 0}, F});
    if (row + 1 < n) f.pairs.push_back({i, i + n, {0, 2 * R}, {0, 1}, {0, -F}, F});
    // The walls: force on the wall, at the touching point.
    if (column == 0) walls.contacts.push_back({c + Vec2{-R, 0}, {-F, 0}, i});
    if (column == n - 1) walls.contacts.push_back({c + Vec2{R, 0}, {F, 0}, i});
    if (row == 0) walls.contacts.push_back({c + Vec2{0, -R}, {0, -F}, i});
    if (row == n - 1) walls.contacts.push_back({c + Vec2{0, R}, {0, F}, i});
  }
  f.walls.push_back(walls);
  return f;
}

TEST(CoarseGraining, LucysKernelHasTheWidthAsItsStandardDeviation) {
  for (KernelKind kind : {KernelKind::gaussian, KernelKind::lucy}) {
    FieldGrid grid{{-5, -5}, 0.01, 0.01, 1001, 1001};
    KernelStencil stencil(grid, {kind, 0.7, 5.0});
    double total = 0.0, x2 = 0.0;
    for (const auto& [node, w] : stencil.at({0.0, 0.0})) {
      const double x = grid.node(static_cast<int>(node % 1001), 0).x;
      total += w * grid.cell_area(), x2 += w * grid.cell_area() * x * x;
    }
    EXPECT_NEAR(total, 1.0, 1e-12);
    // The Gaussian cut at 5w and lowered by e^-12.5 keeps all but 1.5e-4
    // of its standard deviation.
    EXPECT_NEAR(std::sqrt(x2), 0.7, 1.2e-4) << to_string(kind);
  }
}

TEST(CoarseGraining, EveryKernelIsNormalisedOnTheGridItself) {
  const FieldGrid grid{{0, 0}, 0.3, 0.2, 40, 50};
  for (KernelKind kind : {KernelKind::gaussian, KernelKind::lucy}) {
    KernelStencil stencil(grid, {kind, 0.45, 3.0});
    for (Vec2 source : {Vec2{5.01, 4.37}, Vec2{6.0, 5.0}, Vec2{3.33, 7.77}}) {
      double total = 0.0;
      for (const auto& [node, w] : stencil.at(source)) total += w * grid.cell_area();
      EXPECT_NEAR(total, 1.0, 1e-14);
    }
    double along = 0.0;
    for (const auto& [node, w] : stencil.along({4.0, 3.0}, {6.5, 5.2})) along += w * grid.cell_area();
    EXPECT_NEAR(along, 1.0, 1e-14);
    // The weight at the source itself is the continuous kernel's peak over
    // its integral: (1 − e^−4.5) / 2πw²(1 − 5.5 e^−4.5) for the Gaussian
    // lowered at 3w, 5/(πc²) for Lucy's, to the lattice's discretisation.
    const double w2 = 0.45 * 0.45, floor = std::exp(-4.5);
    const double peak = kind == KernelKind::gaussian
                            ? (1.0 - floor) / (2.0 * std::numbers::pi * w2 * (1.0 - 5.5 * floor))
                            : 5.0 / (std::numbers::pi * (56.0 / 5.0) * w2);
    double at_source = 0.0;
    for (const auto& [node, w] : stencil.at({6.0, 5.0})) at_source = std::max(at_source, w);
    EXPECT_NEAR(at_source, peak, 1e-2 * peak) << to_string(kind);
    // Near an edge the kernel keeps its lattice normalisation: what falls
    // off the grid is lost, not piled onto the nodes inside.
    double cut = 0.0;
    for (const auto& [node, w] : stencil.at({0.0, 5.0})) cut += w * grid.cell_area();
    EXPECT_GT(cut, 0.4);
    EXPECT_LT(cut, 0.65);
  }
}

TEST(CoarseGraining, OverTheWholeSampleTheGridIntegratesToTheTotalMassAndMomentum) {
  const FrameData f = gas(300, 7);
  double mass = 0.0;
  Vec2 momentum;
  for (const ParticleRecord& p : f.particles) mass += p.mass, momentum += p.mass * p.velocity;
  for (KernelKind kind : {KernelKind::gaussian, KernelKind::lucy}) {
    const CoarseGrainingOptions o = options(0.4, 0.1, kind);
    const CoarseGrainedSums s = coarse_grain(f, field_grid(f, o), o.kernel);
    EXPECT_NEAR(integral(s, sums::mass), mass, 1e-12 * mass);
    EXPECT_NEAR(integral(s, sums::number), 300.0, 1e-11);
    EXPECT_NEAR(integral(s, sums::momentum_x), momentum.x, 1e-12 * mass);
    EXPECT_NEAR(integral(s, sums::momentum_y), momentum.y, 1e-12 * mass);
  }
}

TEST(CoarseGraining, TheStressIntegratesToTheLoveWeberSumWallsIncluded) {
  const FrameData f = pressed_lattice(8, 0.5, 3.0);
  Stress love_weber_sum;
  for (const ParticleRecord& p : f.particles)
    love_weber_sum += Stress{p.stress[0], p.stress[1], p.stress[2], p.stress[3]}.scaled(p.area);
  ASSERT_NEAR(love_weber_sum.xx, 3.0 * 64, 1e-12);  // F · 2R per particle
  for (KernelKind kind : {KernelKind::gaussian, KernelKind::lucy}) {
    const CoarseGrainingOptions o = options(0.5, 0.125, kind);
    const CoarseGrainedSums s = coarse_grain(f, field_grid(f, o), o.kernel);
    EXPECT_NEAR(integral(s, sums::contact_xx), love_weber_sum.xx, 1e-12 * 192);
    EXPECT_NEAR(integral(s, sums::contact_yy), love_weber_sum.yy, 1e-12 * 192);
    EXPECT_NEAR(integral(s, sums::contact_xy), 0.0, 1e-12 * 192);
    EXPECT_NEAR(integral(s, sums::contact_yx), 0.0, 1e-12 * 192);
    // Each inner particle has 4 contacts with particles, each horizontal
    // and vertical alike.
    EXPECT_NEAR(integral(s, sums::contacts), 2.0 * static_cast<double>(f.pairs.size()), 1e-10);
    EXPECT_NEAR(integral(s, sums::fabric_xx), integral(s, sums::fabric_yy), 1e-10);
  }
}

// A uniform lattice's fields are uniform up to the lattice's ripple, which
// the kernel's smoothness sets: about 1e-3 of the mean for Lucy's and the
// default Gaussian (cut at 3w) when w is the lattice's spacing, 1e-6 for
// the Gaussian cut at 5w.
struct KernelAndRipple {
  CoarseGrainingKernel kernel;
  double ripple;
};
const KernelAndRipple kLatticeKernels[] = {{{KernelKind::gaussian, 1.0, 3.0}, 2e-3},
                                           {{KernelKind::lucy, 1.0}, 2e-3},
                                           {{KernelKind::gaussian, 1.0, 5.0}, 1e-5}};

TEST(CoarseGraining, AWindowInsideAUniformLatticeHasItsClosedFormStressAndFabric) {
  // 20 × 20 disks of radius 0.5: σ = F / 2R = 3 everywhere inside, ρ = m/(2R)².
  const FrameData f = pressed_lattice(20, 0.5, 3.0);
  for (const auto& [kernel, ripple] : kLatticeKernels) {
    CoarseGrainingOptions o = options(1.0, 0.25);
    o.kernel = kernel;
    o.window = {6, 6, 14, 14};  // four widths and more from the lattice's edges
    const CoarseGrainedSums s = coarse_grain(f, field_grid(f, o), o.kernel);
    const auto fields = continuum_fields(s);
    const auto& stress = field(fields, "stress").values;
    const auto& density = field(fields, "density").values;
    const auto& z = field(fields, "coordination").values;
    const auto& fabric = field(fields, "fabric").values;
    double worst_stress = 0.0, worst_density = 0.0, worst_z = 0.0, worst_fabric = 0.0, worst_shear = 0.0;
    for (std::size_t k = 0; k < s.nodes.size(); ++k) {
      worst_stress = std::max({worst_stress, std::abs(stress[4 * k] - 3.0), std::abs(stress[4 * k + 3] - 3.0)});
      worst_shear = std::max({worst_shear, std::abs(stress[4 * k + 1]), std::abs(stress[4 * k + 2])});
      worst_density = std::max(worst_density, std::abs(density[k] - 1.0));
      worst_z = std::max(worst_z, std::abs(z[k] - 4.0));
      worst_fabric = std::max({worst_fabric, std::abs(fabric[4 * k] - 0.5), std::abs(fabric[4 * k + 3] - 0.5)});
    }
    EXPECT_LT(worst_stress, 3.0 * ripple) << to_string(kernel.kind) << " cut at " << kernel.cutoff();
    EXPECT_LT(worst_shear, 3.0 * ripple);
    EXPECT_LT(worst_density, ripple);
    EXPECT_LT(worst_z, 1e-9);  // a ratio of two sums over the same particles
    EXPECT_LT(worst_fabric, 1e-9);
    // `sphero analyze`'s window stress over the same window: the field's
    // mean over the window equals it within the ripple.
    const FrameSummary analysed = analyze_frame(f, {Window{Window::Kind::rectangle, 6, 6, 14, 14, {}, 0.0}});
    double mean = 0.0;
    for (double p : field(fields, "pressure").values) mean += p;
    EXPECT_NEAR(analysed.pressure, 3.0, 1e-12);
    EXPECT_NEAR(mean / static_cast<double>(s.nodes.size()), analysed.pressure, 3.0 * ripple);
    EXPECT_LT(field(fields, "deviator_stress").values[0], 3.0 * ripple);
  }
}

TEST(CoarseGraining, DensityAndMomentumObeyTheContinuityEquation) {
  // Two frames dt apart of a gas in free flight: ∂ρ/∂t = −∇·(ρv), with the
  // time derivative a central difference about the middle frame.
  const double dt = 1e-4;
  FrameData before = gas(400, 11), middle = before, after = before;
  for (std::size_t i = 0; i < before.particles.size(); ++i) {
    middle.particles[i].centre += dt * before.particles[i].velocity;
    after.particles[i].centre += 2 * dt * before.particles[i].velocity;
  }
  // Kernels smooth enough for the grid's differences: Lucy's (C²), and the
  // Gaussian cut far out (its kink at 3w would dominate the differences).
  for (const CoarseGrainingKernel kernel :
       {CoarseGrainingKernel{KernelKind::lucy, 0.5}, CoarseGrainingKernel{KernelKind::gaussian, 0.5, 5.0}}) {
    CoarseGrainingOptions o = options(0.5, 0.025);
    o.kernel = kernel;
    o.window = {2, 2, 8, 8};
    const FieldGrid grid = field_grid(middle, o);
    const auto s0 = coarse_grain(before, grid, o.kernel), s1 = coarse_grain(middle, grid, o.kernel),
               s2 = coarse_grain(after, grid, o.kernel);
    double worst = 0.0, scale = 0.0;
    for (int j = 1; j + 1 < grid.ny; ++j)
      for (int i = 1; i + 1 < grid.nx; ++i) {
        const auto k = grid.index(i, j);
        const double drho_dt = (s2.nodes[k][sums::mass] - s0.nodes[k][sums::mass]) / (2 * dt);
        const double divergence =
            (s1.nodes[grid.index(i + 1, j)][sums::momentum_x] - s1.nodes[grid.index(i - 1, j)][sums::momentum_x]) /
                (2 * grid.hx) +
            (s1.nodes[grid.index(i, j + 1)][sums::momentum_y] - s1.nodes[grid.index(i, j - 1)][sums::momentum_y]) /
                (2 * grid.hy);
        worst = std::max(worst, std::abs(drho_dt + divergence));
        scale = std::max(scale, std::abs(drho_dt));
      }
    // The grid's central differences err by (h/w)²/6 of the derivatives.
    EXPECT_LT(worst, 2e-3 * scale) << to_string(kernel.kind);
    EXPECT_GT(scale, 1.0);
  }
}

TEST(CoarseGraining, ASimpleShearHasALinearVelocityProfileAndAUniformStress) {
  // The pressed lattice moving as v = (γ̇ y, 0).
  FrameData f = pressed_lattice(24, 0.5, 2.0);
  const double rate = 0.3;
  for (ParticleRecord& p : f.particles) p.velocity = {rate * p.centre.y, 0.0};
  for (const auto& [kernel, ripple] : kLatticeKernels) {
    CoarseGrainingOptions o = options(1.0, 0.25);
    o.kernel = kernel;
    o.window = {7, 7, 17, 17};
    const CoarseGrainedSums s = coarse_grain(f, field_grid(f, o), o.kernel);
    const auto fields = continuum_fields(s);
    const auto& v = field(fields, "velocity").values;
    const auto& contact = field(fields, "contact_stress").values;
    double worst_v = 0.0, worst_stress = 0.0;
    for (int j = 0; j < s.grid.ny; ++j)
      for (int i = 0; i < s.grid.nx; ++i) {
        const auto k = s.grid.index(i, j);
        worst_v = std::max({worst_v, std::abs(v[3 * k] - rate * s.grid.node(i, j).y), std::abs(v[3 * k + 1])});
        worst_stress = std::max({worst_stress, std::abs(contact[4 * k] - 2.0), std::abs(contact[4 * k + 3] - 2.0)});
      }
    EXPECT_LT(worst_v, rate * 17 * ripple) << to_string(kernel.kind) << " cut at " << kernel.cutoff();
    EXPECT_LT(worst_stress, 2.0 * ripple);
  }
}

TEST(CoarseGraining, AColumnAtRestCarriesItsWeight) {
  // 12 disks (m = 1.5, R = 0.5) stacked on a floor under g: the contact
  // below disk k carries the weight of the disks above it. Integrated
  // across the column, σ_yy(y) = ∫_y^∞ ρ g dy.
  const int n = 12;
  const double R = 0.5, m = 1.5, g = 9.81;
  FrameData f;
  WallRecord floor;
  floor.id = 100;
  for (int k = 0; k < n; ++k) {
    f.particles.push_back(particle(k, {0.0, R + 2 * R * k}, m));
    if (k + 1 < n) f.pairs.push_back({k, k + 1, {0, 2 * R}, {0, 1}, {0, -(n - 1 - k) * m * g}, (n - 1 - k) * m * g});
  }
  floor.contacts.push_back({{0.0, 0.0}, {0.0, -n * m * g}, 0});
  f.walls.push_back(floor);
  for (KernelKind kind : {KernelKind::gaussian, KernelKind::lucy}) {
    CoarseGrainingOptions o = options(0.6, 0.05, kind);
    const CoarseGrainedSums s = coarse_grain(f, field_grid(f, o), o.kernel);
    const FieldGrid& grid = s.grid;
    std::vector<double> load(static_cast<std::size_t>(grid.ny)), mass(static_cast<std::size_t>(grid.ny));
    for (int j = 0; j < grid.ny; ++j)
      for (int i = 0; i < grid.nx; ++i) {
        load[static_cast<std::size_t>(j)] += s.nodes[grid.index(i, j)][sums::contact_yy] * grid.hx;
        mass[static_cast<std::size_t>(j)] += s.nodes[grid.index(i, j)][sums::mass] * grid.hx;
      }
    // The weight above each row by the trapezoidal rule, from the top down.
    double above = 0.0, worst = 0.0;
    for (int j = grid.ny - 1; j >= 0; --j) {
      if (j + 1 < grid.ny)
        above += 0.5 * g * grid.hy * (mass[static_cast<std::size_t>(j)] + mass[static_cast<std::size_t>(j) + 1]);
      if (grid.node(0, j).y > o.kernel.cutoff())  // the floor's own line ends at y = 0
        worst = std::max(worst, std::abs(load[static_cast<std::size_t>(j)] - above));
    }
    EXPECT_LT(worst, 1e-3 * n * m * g) << to_string(kind);
  }
}

TEST(CoarseGraining, APeriodicAxisWrapsKernelsAndContactLines) {
  // A row of 10 touching disks along a periodic x of period 10, the last
  // pressed against the first's image.
  FrameData f;
  for (int k = 0; k < 10; ++k) {
    f.particles.push_back(particle(k, {0.5 + k, 0.0}, 1.0));
    f.pairs.push_back({k, (k + 1) % 10, {1, 0}, {1, 0}, {-2.0, 0}, 2.0});
  }
  CoarseGrainingOptions o = options(0.8, 0.1);
  o.periodic = {true, false};
  o.cell_low = {0, -5}, o.cell_size = {10, 10};
  const CoarseGrainedSums s = coarse_grain(f, field_grid(f, o), o.kernel);
  EXPECT_EQ(s.grid.nx, 100);
  EXPECT_NEAR(integral(s, sums::mass), 10.0, 1e-12);
  EXPECT_NEAR(integral(s, sums::contact_xx), 20.0, 1e-12);
  // Uniform along x: the same line density at x = 0 as in the middle.
  double edge = 0.0, middle = 0.0;
  for (int j = 0; j < s.grid.ny; ++j) {
    edge += s.nodes[s.grid.index(0, j)][sums::contact_xx];
    middle += s.nodes[s.grid.index(50, j)][sums::contact_xx];
  }
  EXPECT_NEAR(edge, middle, 1e-6 * middle);
  // A window across the seam takes the images: the same line density.
  o.window = {-2, -3, 2, 3};
  const CoarseGrainedSums seam = coarse_grain(f, field_grid(f, o), o.kernel);
  EXPECT_FALSE(seam.grid.periodic[0]);
  double across = 0.0;
  for (int j = 0; j < seam.grid.ny; ++j) across += seam.nodes[seam.grid.index(20, j)][sums::contact_xx];  // x = 0
  EXPECT_NEAR(across * seam.grid.hy, middle * s.grid.hy, 1e-6 * middle * s.grid.hy);
}

TEST(CoarseGraining, AMeanOverFramesIsTheMeanOfTheirSums) {
  const FrameData a = gas(50, 1), b = gas(50, 2);
  const CoarseGrainingOptions o = options(0.5, 0.25);
  const FieldGrid grid = field_grid(a, o);
  const auto sa = coarse_grain(a, grid, o.kernel), sb = coarse_grain(b, grid, o.kernel);
  const auto mean = weighted_mean({sa, sb}, {1.0, 3.0});
  for (std::size_t k = 0; k < mean.nodes.size(); k += 97)
    EXPECT_NEAR(mean.nodes[k][sums::mass], 0.25 * sa.nodes[k][sums::mass] + 0.75 * sb.nodes[k][sums::mass], 1e-12);
}

TEST(CoarseGraining, BadGridsAreRefusedWithWhatToDo) {
  const FrameData f = gas(10, 3);
  const auto refused = [&](CoarseGrainingOptions o, const std::string& words) {
    try {
      field_grid(f, o);
      ADD_FAILURE() << "accepted: " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  refused(options(0.0, 0.1), "width must be a positive length");
  refused(options(-1.0, 0.1), "width must be a positive length");
  refused(options(1.0, 0.0), "cell size must be a positive length");
  refused(options(1.0, NAN), "cell size must be a positive length");
  refused(options(0.5, 1.0), "wider than the kernel's width");
  refused(options(1.0, 1e-4), "is too fine for a kernel reaching 3");
  FrameData spread;
  spread.particles = {particle(0, {0, 0}, 1.0), particle(1, {100, 100}, 1.0)};
  try {
    field_grid(spread, options(1.0, 0.05));  // 2121 × 2121 nodes
    ADD_FAILURE() << "accepted a grid of 4.5e6 nodes";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("nodes is more than the 4000000 allowed"), std::string::npos) << e.what();
  }
  CoarseGrainingOptions wide = options(0.5, 0.25);
  wide.periodic = {true, false}, wide.cell_low = {0, 0}, wide.cell_size = {5, 10};
  wide.window = {0, 0, 8, 8};
  refused(wide, "more than its period 5");
  CoarseGrainingOptions outside = options(1.0, 0.5);
  outside.window = {100, 100, 120, 120};
  refused(outside, "lies outside the sample");
  FrameData lost = gas(3, 5);
  lost.particles[1].centre = {NAN, 1.0};
  EXPECT_THROW(coarse_grain(lost, field_grid(f, options(1.0, 0.5)), options(1.0, 0.5).kernel), std::runtime_error);
  FrameData massless;
  massless.particles = {particle(0, {0, 0}, 0.0)};
  EXPECT_THROW(coarse_grain(massless, field_grid(f, options(1.0, 0.5)), options(1.0, 0.5).kernel), std::runtime_error);
}

// Two cows pressed together in a box touch at several vertices; each
// vertex contact adds its own force along the line between the centres.
TEST(CoarseGraining, EveryVertexContactOfAPairOfCowsCounts) {
  const SceneConfig scene = parse_scene(
      "duration = 1\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e5 kt=5e4 mu=0.5 gamma_n=20\n"
      "wall = radius=0.05 points=0,16;0,0;9,0;9,16\n"
      "seed = 4\ngrains = shape=cow.shape count=6 region=0.3,0.3,8.7,15.7\n",
      "t.ini", SPHERO_DATA_DIR "/shapes");
  World w = build_world(scene);
  const EngineSettings settings = resolve_engine_settings(scene, w);
  Engine engine(std::move(w), settings);
  engine.run(30000);
  FrameData f = frame_in_memory(engine, 16);
  const CoarseGrainingOptions o = options(0.5, 0.1);
  const FieldGrid grid = field_grid(f, o);
  // All contacts: the Love–Weber sum of every particle, walls included.
  Stress love_weber_sum;
  for (const ParticleRecord& p : f.particles)
    love_weber_sum += Stress{p.stress[0], p.stress[1], p.stress[2], p.stress[3]}.scaled(p.area);
  const CoarseGrainedSums all = coarse_grain(f, grid, o.kernel);
  const double scale = 1e-9 * (std::abs(love_weber_sum.xx) + std::abs(love_weber_sum.yy));
  EXPECT_NEAR(integral(all, sums::contact_xx), love_weber_sum.xx, scale);
  EXPECT_NEAR(integral(all, sums::contact_xy), love_weber_sum.xy, scale);
  EXPECT_NEAR(integral(all, sums::contact_yx), love_weber_sum.yx, scale);
  EXPECT_NEAR(integral(all, sums::contact_yy), love_weber_sum.yy, scale);
  // One pair of cows with two or more vertex contacts, alone.
  std::map<std::pair<int, int>, std::vector<const VertexContactRecord*>> by_pair;
  for (const VertexContactRecord& c : f.vertex_contacts)
    by_pair[{std::min(c.vertex_body, c.edge_body), std::max(c.vertex_body, c.edge_body)}].push_back(&c);
  const PairRecord* chosen = nullptr;
  for (const PairRecord& p : f.pairs)
    if (by_pair[{std::min(p.body_a, p.body_b), std::max(p.body_a, p.body_b)}].size() >= 2 && p.body_a > 0 &&
        p.body_b > 0)
      chosen = &p;
  ASSERT_NE(chosen, nullptr) << "no pair of cows touching at two vertices";
  FrameData pair_only = f;
  pair_only.pairs = {*chosen};
  pair_only.walls.clear();
  const CoarseGrainedSums one = coarse_grain(pair_only, grid, o.kernel);
  Stress expected, first_only;
  const auto& contacts = by_pair[{std::min(chosen->body_a, chosen->body_b), std::max(chosen->body_a, chosen->body_b)}];
  for (const VertexContactRecord* c : contacts) {
    // −ℓ ⊗ f with ℓ from the vertex body to the edge body and f on the vertex body.
    const Vec2 l = c->vertex_body == chosen->body_a ? chosen->branch : -chosen->branch;
    const Stress s{-l.x * c->force.x, -l.x * c->force.y, -l.y * c->force.x, -l.y * c->force.y};
    expected += s;
    if (c == contacts.front()) first_only = s;
  }
  const double pair_scale = 1e-9 * (std::abs(expected.xx) + std::abs(expected.yy));
  EXPECT_NEAR(integral(one, sums::contact_xx), expected.xx, pair_scale);
  EXPECT_NEAR(integral(one, sums::contact_yy), expected.yy, pair_scale);
  EXPECT_NEAR(integral(one, sums::contact_xy), expected.xy, pair_scale);
  EXPECT_GT(std::abs(expected.xx - first_only.xx) + std::abs(expected.yy - first_only.yy), 1e3 * pair_scale);
}

}  // namespace
}  // namespace sphero::analysis
