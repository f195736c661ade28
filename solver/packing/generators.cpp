#include "packing/generators.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "geometry/polygon.h"
#include "geometry/segment.h"
#include "packing/spatial_order.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

double unit(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }

// The shape scaled about its centre of mass (skeleton and radius alike, so
// the area scales by factor²) and placed with its centre of mass at the
// origin.
Shape centred_and_scaled(const Shape& shape, double factor, Vec2 centroid) {
  const Vec2 c = centroid;
  std::vector<Vec2> v;
  for (Vec2 p : shape.vertices) v.push_back(factor * (p - c));
  return make_shape(shape.name, shape.kind, std::move(v), factor * shape.radius);
}

Shape placed(const Shape& local, Vec2 at, double angle) {
  Shape s = transformed(local, {}, angle);
  for (Vec2& p : s.vertices) p += at;
  return s;
}

}  // namespace

double skeleton_distance(const Shape& a, const Shape& b) {
  double d = INFINITY;
  const auto each_edge = [](const Shape& s, auto&& f) {
    if (s.vertices.size() == 1) return f(s.vertices[0], s.vertices[0]);
    for (int i = 0; i < s.edge_count(); ++i) f(s.edge_start(i), s.edge_end(i));
  };
  each_edge(a, [&](Vec2 p, Vec2 q) { each_edge(b, [&](Vec2 u, Vec2 w) { d = std::min(d, segment_segment_distance(p, q, u, w)); }); });
  if (a.is_closed() && point_in_polygon(b.vertices[0], a.vertices)) return 0.0;
  if (b.is_closed() && point_in_polygon(a.vertices[0], b.vertices)) return 0.0;
  return d;
}

std::vector<BodySpec> lattice_packing(const LatticeOptions& o) {
  if (o.columns < 1 || o.rows < 1) throw std::invalid_argument("a lattice needs at least one row and one column");
  const double diameter = 2.0 * mass_properties(o.shape).bounding_radius;
  if (!(o.spacing >= diameter))
    throw std::invalid_argument(fmt::format("the spacing {:g} is below the grains' outline diameter {:g}: they could "
                                            "overlap; use a spacing >= {:g}",
                                            o.spacing, diameter, diameter));
  const Shape local = centred_and_scaled(o.shape, 1.0, mass_properties(o.shape).centroid);
  const double row_step = o.hexagonal ? o.spacing * std::sqrt(3.0) / 2.0 : o.spacing;
  if (o.hexagonal && row_step < diameter)
    throw std::invalid_argument(fmt::format("on a hexagonal lattice rows are spacing × √3/2 = {:g} apart, below the "
                                            "outline diameter {:g}; use a spacing >= {:g}",
                                            row_step, diameter, diameter * 2.0 / std::sqrt(3.0)));
  std::vector<BodySpec> bodies;
  for (int j = 0; j < o.rows; ++j)
    for (int i = 0; i < o.columns; ++i) {
      BodySpec b;
      b.shape = local;
      b.position = o.origin + Vec2{o.spacing * i + (o.hexagonal && j % 2 ? 0.5 * o.spacing : 0.0), row_step * j};
      bodies.push_back(b);
    }
  return bodies;
}

GasPacking gas_packing(const GasOptions& o) {
  if (o.shapes.empty()) throw std::invalid_argument("give at least one shape");
  if (o.count < 1) throw std::invalid_argument("give a count of at least 1");
  if (!(o.packing_fraction > 0.0 && o.packing_fraction < 1.0))
    throw std::invalid_argument("the packing fraction must be in (0, 1)");
  if (!(o.spread >= 0.0 && o.spread < 1.0)) throw std::invalid_argument("the size spread must be in [0, 1)");
  std::vector<double> weights = o.fractions.empty() ? std::vector<double>(o.shapes.size(), 1.0) : o.fractions;
  if (weights.size() != o.shapes.size()) throw std::invalid_argument("give one fraction per shape");
  double total_weight = 0.0;
  for (double w : weights) {
    if (!(w >= 0.0)) throw std::invalid_argument("shape fractions must be >= 0");
    total_weight += w;
  }
  std::mt19937_64 g(o.seed);
  // Areas first: uniform around the mean, then scaled so that they add up
  // to exactly the target fraction of the box.
  std::vector<int> kind(static_cast<std::size_t>(o.count));
  std::vector<double> area(static_cast<std::size_t>(o.count));
  double sum = 0.0;
  for (int k = 0; k < o.count; ++k) {
    double pick = unit(g) * total_weight;
    std::size_t s = 0;
    while (s + 1 < weights.size() && pick >= weights[s]) pick -= weights[s], ++s;
    kind[static_cast<std::size_t>(k)] = static_cast<int>(s);
    area[static_cast<std::size_t>(k)] = 1.0 + o.spread * (2.0 * unit(g) - 1.0);
    sum += area[static_cast<std::size_t>(k)];
  }
  const double target_area = o.packing_fraction * o.box.area();
  // Scaling a shape by λ scales its area by λ² and R by λ: the (possibly
  // slow, exact) mass properties are needed once per shape, not per grain.
  std::vector<MassProperties> base;
  for (const Shape& s : o.shapes) base.push_back(mass_properties(s));
  std::vector<Shape> local;
  std::vector<double> reach;  // bounding radius of each grain
  double largest = 0.0;
  for (int k = 0; k < o.count; ++k) {
    const std::size_t s = static_cast<std::size_t>(kind[static_cast<std::size_t>(k)]);
    area[static_cast<std::size_t>(k)] *= target_area / sum;
    const double factor = std::sqrt(area[static_cast<std::size_t>(k)] / base[s].area);
    local.push_back(centred_and_scaled(o.shapes[s], factor, base[s].centroid));
    reach.push_back(base[s].bounding_radius * factor);
    largest = std::max(largest, reach.back());
  }
  // Largest first: they are the hardest to fit.
  std::vector<int> order(static_cast<std::size_t>(o.count));
  for (int k = 0; k < o.count; ++k) order[static_cast<std::size_t>(k)] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return area[static_cast<std::size_t>(a)] > area[static_cast<std::size_t>(b)]; });

  // A grid of cells of side 2 R_max for the overlap tests.
  const double side = 2.0 * largest;
  const int nx = std::max(1, static_cast<int>(o.box.size().x / side)), ny = std::max(1, static_cast<int>(o.box.size().y / side));
  std::vector<std::vector<int>> grid(static_cast<std::size_t>(nx * ny));
  const auto cell_of = [&](Vec2 p) {
    const int cx = std::clamp(static_cast<int>((p.x - o.box.low.x) / o.box.size().x * nx), 0, nx - 1);
    const int cy = std::clamp(static_cast<int>((p.y - o.box.low.y) / o.box.size().y * ny), 0, ny - 1);
    return std::pair{cx, cy};
  };
  std::vector<Shape> world_shape(static_cast<std::size_t>(o.count));
  std::vector<BodySpec> bodies;
  for (int placed_count = 0; placed_count < o.count; ++placed_count) {
    const int k = order[static_cast<std::size_t>(placed_count)];
    const Shape& s = local[static_cast<std::size_t>(k)];
    const double R = reach[static_cast<std::size_t>(k)];
    bool done = false;
    for (int attempt = 0; attempt < 5000 && !done; ++attempt) {
      const Vec2 at{o.box.low.x + R + (o.box.size().x - 2 * R) * unit(g), o.box.low.y + R + (o.box.size().y - 2 * R) * unit(g)};
      const double angle = 2.0 * std::numbers::pi * unit(g);
      const Shape candidate = placed(s, at, angle);
      const auto [cx, cy] = cell_of(at);
      bool free = true;
      for (int dx = -1; dx <= 1 && free; ++dx)
        for (int dy = -1; dy <= 1 && free; ++dy) {
          const int x = cx + dx, y = cy + dy;
          if (x < 0 || y < 0 || x >= nx || y >= ny) continue;
          for (int other : grid[static_cast<std::size_t>(x + nx * y)]) {
            const Shape& b = world_shape[static_cast<std::size_t>(other)];
            if (skeleton_distance(candidate, b) <= candidate.radius + b.radius) {
              free = false;
              break;
            }
          }
        }
      if (!free) continue;
      world_shape[static_cast<std::size_t>(k)] = candidate;
      grid[static_cast<std::size_t>(cx + nx * cy)].push_back(k);
      BodySpec b;
      b.shape = s;
      b.position = at;
      b.angle = angle;
      const double heading = 2.0 * std::numbers::pi * unit(g);
      b.velocity = o.speed * Vec2{std::cos(heading), std::sin(heading)};
      bodies.push_back(b);
      done = true;
    }
    if (!done)
      throw std::invalid_argument(fmt::format(
          "random placement placed only {} of {} grains at packing fraction {:g}: the box is too crowded for "
          "random sequential placement; lower the fraction (random placement of such grains jams near 0.5) or "
          "use sphero pack voronoi / lattice and compress",
          placed_count, o.count, o.packing_fraction));
  }
  // Placed in random order; listed along a Hilbert curve
  // (packing/spatial_order.h).
  list_grains_along_curve(bodies);
  return {std::move(bodies), o.packing_fraction};
}

}  // namespace sphero
