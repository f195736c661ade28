#include "packing/voronoi_minkowski.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "geometry/polygon.h"
#include "geometry/uniform.h"
#include "morphology/minkowski.h"
#include "packing/spatial_order.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

// Listed along a Hilbert curve, so that the grains (cell k gives grain k)
// come out in spatial order (packing/spatial_order.h).
std::vector<Vec2> random_sites(const Box& box, int count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<Vec2> drawn;
  for (int i = 0; i < count; ++i)
    drawn.push_back({box.low.x + box.size().x * unit_uniform(g), box.low.y + box.size().y * unit_uniform(g)});
  std::vector<Vec2> sites;
  sites.reserve(drawn.size());
  for (std::size_t i : hilbert_order(drawn)) sites.push_back(drawn[i]);
  return sites;
}

// Collinear vertices that the straight skeleton may leave are dropped: a
// skeleton vertex should be a corner.
std::vector<Vec2> without_collinear(std::vector<Vec2> loop, double scale) {
  bool changed = true;
  while (changed && loop.size() > 3) {
    changed = false;
    for (std::size_t i = 0; i < loop.size(); ++i) {
      const Vec2 a = loop[(i + loop.size() - 1) % loop.size()], b = loop[i], c = loop[(i + 1) % loop.size()];
      if (std::abs(cross(b - a, c - b)) <= 1e-12 * scale * scale || norm(c - b) <= 1e-12 * scale) {
        loop.erase(loop.begin() + static_cast<long>(i));
        changed = true;
        break;
      }
    }
  }
  return loop;
}

struct Layout {
  std::vector<Grain> grains;
  std::vector<int> dropped;
  double solid_area = 0.0;
  double roundness = 0.0;
};

Layout erode_cells(const std::vector<std::vector<Vec2>>& cells, double r, double gap, double scale,
                   const Progress& progress = {}) {
  Layout layout;
  double roundness_sum = 0.0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    report(progress, "eroding cells", i, cells.size(), 1024);
    if (cells[i].size() < 3 || signed_area(cells[i]) <= 0.0) {  // a power cell outweighed by its neighbours
      layout.dropped.push_back(static_cast<int>(i));
      continue;
    }
    const auto pieces = erode_polygon_mitred(cells[i], r + gap);
    if (pieces.empty()) {
      layout.dropped.push_back(static_cast<int>(i));
      continue;
    }
    // Eroding a convex cell leaves one convex piece (or none).
    std::vector<Vec2> skeleton = without_collinear(pieces.front(), scale);
    if (skeleton.size() < 3 || signed_area(skeleton) <= 1e-14 * scale * scale) {
      layout.dropped.push_back(static_cast<int>(i));
      continue;
    }
    Shape shape = make_shape(fmt::format("vm{}", i), SkeletonKind::polygon, std::move(skeleton), r);
    const double area = mass_properties(shape).area;
    layout.solid_area += area;
    roundness_sum += r / std::sqrt(area / std::numbers::pi);
    layout.grains.push_back({std::move(shape), static_cast<int>(i)});
  }
  layout.roundness = layout.grains.empty() ? 0.0 : roundness_sum / static_cast<double>(layout.grains.size());
  return layout;
}

// Bisection on a monotone function f over [low, high] for f(x) = target.
template <class F>
double solve(F f, double low, double high, double target, bool decreasing, const Progress& progress,
             std::string_view stage) {
  constexpr int kHalvings = 60;
  for (int k = 0; k < kHalvings; ++k) {
    report(progress, stage, k, kHalvings, 1);
    const double mid = 0.5 * (low + high);
    const bool above = f(mid) > target;
    if (above == decreasing) low = mid;
    else high = mid;
  }
  return 0.5 * (low + high);
}

}  // namespace

VoronoiMinkowskiPacking voronoi_minkowski(const VoronoiMinkowskiOptions& o) {
  if (!(o.box.size().x > 0.0 && o.box.size().y > 0.0)) throw std::invalid_argument("the box must have a positive size");
  if (o.sites.empty() && o.count < 1)
    throw std::invalid_argument("give a number of sites (at least 1) or a sites file");
  if (!(o.gap >= 0.0)) throw std::invalid_argument("the gap Δ must be >= 0");
  if (!o.roundness && !(o.radius > 0.0))
    throw std::invalid_argument("give a positive sphero-radius r or a target roundness");
  if (o.lloyd_steps < 0) throw std::invalid_argument("the number of Lloyd steps must be >= 0");

  std::vector<Vec2> sites = o.sites.empty() ? random_sites(o.box, o.count, o.seed) : o.sites;
  for (int k = 0; k < o.lloyd_steps; ++k) {
    report(o.progress, "Lloyd relaxation", k, o.lloyd_steps, 1);
    sites = lloyd_step(sites, o.box, o.periodic);
  }
  report(o.progress, "Voronoi cells", 0, 1, 1);
  const double scale = std::sqrt(o.box.area() / static_cast<double>(sites.size()));  // typical cell size
  if (!(o.size_spread >= 0.0 && o.size_spread < 1.0)) throw std::invalid_argument("the size spread must be in [0, 1)");
  std::vector<std::vector<Vec2>> cells;
  if (o.size_spread == 0.0) {
    cells = o.periodic ? periodic_voronoi_cells(sites, o.box) : voronoi_cells(sites, o.box);
  } else {
    std::mt19937_64 g(o.seed ^ 0x5eedULL);
    std::vector<double> weights;
    for (std::size_t i = 0; i < sites.size(); ++i) {
      const double rho = 0.5 * scale * (1.0 + o.size_spread * (2.0 * unit_uniform(g) - 1.0));
      weights.push_back(rho * rho);
    }
    cells = power_cells(sites, weights, o.box, o.periodic);
  }

  double r = o.radius, gap = o.gap;
  // Targets, each monotone in its parameter: roundness grows with r (at
  // fixed Δ), the packing fraction falls as Δ grows (at fixed r). Solved in
  // turn until both settle.
  for (int round = 0; round < (o.roundness && o.packing_fraction ? 4 : 1); ++round) {
    if (o.roundness) {
      if (!(*o.roundness > 0.0 && *o.roundness < 1.0))
        throw std::invalid_argument("the target roundness must be in (0, 1)");
      r = solve([&](double x) { return erode_cells(cells, x, gap, scale).roundness; }, 1e-6 * scale, 0.49 * scale,
                *o.roundness, false, o.progress, "fitting r to the roundness");
    }
    if (o.packing_fraction) {
      const double phi_max = erode_cells(cells, r, 0.0, scale).solid_area / o.box.area();
      if (!(*o.packing_fraction > 0.0 && *o.packing_fraction <= phi_max))
        throw std::invalid_argument(
            fmt::format("the target packing fraction {} is out of reach: with r = {:g} the "
                        "densest (Δ = 0) is {}; lower the target or r",
                        *o.packing_fraction, r, phi_max));
      gap = solve([&](double x) { return erode_cells(cells, r, x, scale).solid_area / o.box.area(); }, 0.0, 0.5 * scale,
                  *o.packing_fraction, true, o.progress, "fitting the gap to the packing fraction");
    }
  }

  Layout layout = erode_cells(cells, r, gap, scale, o.progress);
  if (layout.grains.empty())
    throw std::invalid_argument(
        fmt::format("every cell vanished under erosion by r + Δ = {:g}; lower r or Δ", r + gap));
  VoronoiMinkowskiPacking p;
  p.cells = cells;
  p.dropped = layout.dropped;
  p.radius = r;
  p.gap = gap;
  p.packing_fraction = layout.solid_area / o.box.area();
  p.void_ratio = (o.box.area() - layout.solid_area) / layout.solid_area;
  p.mean_roundness = layout.roundness;
  p.min_vertices = 1 << 30;
  double vertices = 0.0;
  for (const Grain& g : layout.grains) {
    const int n = static_cast<int>(g.shape.vertices.size());
    p.min_vertices = std::min(p.min_vertices, n);
    p.max_vertices = std::max(p.max_vertices, n);
    vertices += n;
  }
  p.mean_vertices = vertices / static_cast<double>(layout.grains.size());
  p.grains = std::move(layout.grains);
  return p;
}

}  // namespace sphero
