#include "packing/generators.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "geometry/polygon.h"
#include "geometry/segment.h"
#include "geometry/uniform.h"
#include "packing/random_placement.h"
#include "packing/spatial_order.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

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
  each_edge(a, [&](Vec2 p, Vec2 q) {
    each_edge(b, [&](Vec2 u, Vec2 w) { d = std::min(d, segment_segment_distance(p, q, u, w)); });
  });
  if (a.is_closed() && point_in_polygon(b.vertices[0], a.vertices)) return 0.0;
  if (b.is_closed() && point_in_polygon(a.vertices[0], b.vertices)) return 0.0;
  return d;
}

std::vector<BodySpec> lattice_packing(const LatticeOptions& o) {
  if (o.columns < 1 || o.rows < 1) throw std::invalid_argument("a lattice needs at least one row and one column");
  const double diameter = 2.0 * mass_properties(o.shape).bounding_radius;
  if (!(o.spacing >= diameter))
    throw std::invalid_argument(
        fmt::format("the spacing {} is below the grains' outline diameter {}: they could "
                    "overlap; use a spacing >= {}",
                    o.spacing, diameter, diameter));
  const Shape local = centred_and_scaled(o.shape, 1.0, mass_properties(o.shape).centroid);
  // Rows √3/2 spacing apart and shifted by half a spacing put every
  // neighbour, in its row or the next, exactly a spacing away: the
  // densest arrangement (touching disks at spacing = diameter).
  const double row_step = o.hexagonal ? o.spacing * std::sqrt(3.0) / 2.0 : o.spacing;
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

namespace {

void check_gas_options(const GasOptions& o) {
  if (o.shapes.empty()) throw std::invalid_argument("give at least one shape");
  if (o.count < 1) throw std::invalid_argument("give a count of at least 1");
  if (!(o.packing_fraction > 0.0 && o.packing_fraction < 1.0))
    throw std::invalid_argument("the packing fraction must be in (0, 1)");
  if (!(o.spread >= 0.0 && o.spread < 1.0)) throw std::invalid_argument("the size spread must be in [0, 1)");
  if (!o.fractions.empty() && o.fractions.size() != o.shapes.size())
    throw std::invalid_argument("give one fraction per shape");
  for (double w : o.fractions)
    if (!(w >= 0.0)) throw std::invalid_argument("shape fractions must be >= 0");
}

// The grains of a gas, before placement: each one's shape scaled to its
// area (around its centre of mass) and its bounding radius.
struct GasGrains {
  std::vector<Shape> local;
  std::vector<double> reach, area;
  double largest = 0.0;
};

// Shapes drawn by their fractions and areas uniform around the mean, then
// scaled so that they add up to exactly the target fraction of the box.
GasGrains draw_gas_grains(const GasOptions& o, std::mt19937_64& g) {
  const std::vector<double> weights = o.fractions.empty() ? std::vector<double>(o.shapes.size(), 1.0) : o.fractions;
  double total_weight = 0.0;
  for (double w : weights) total_weight += w;
  const auto n = static_cast<std::size_t>(o.count);
  std::vector<std::size_t> kind(n);
  GasGrains grains;
  grains.area.resize(n);
  double sum = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    double pick = unit_uniform(g) * total_weight;
    std::size_t s = 0;
    while (s + 1 < weights.size() && pick >= weights[s]) pick -= weights[s], ++s;
    kind[k] = s;
    grains.area[k] = 1.0 + o.spread * (2.0 * unit_uniform(g) - 1.0);
    sum += grains.area[k];
  }
  const double target_area = o.packing_fraction * o.box.area();
  // Scaling a shape by λ scales its area by λ² and R by λ: the (possibly
  // slow, exact) mass properties are needed once per shape, not per grain.
  std::vector<MassProperties> base;
  for (const Shape& s : o.shapes) base.push_back(mass_properties(s));
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t s = kind[k];
    grains.area[k] *= target_area / sum;
    const double factor = std::sqrt(grains.area[k] / base[s].area);
    grains.local.push_back(centred_and_scaled(o.shapes[s], factor, base[s].centroid));
    grains.reach.push_back(base[s].bounding_radius * factor);
    grains.largest = std::max(grains.largest, grains.reach.back());
  }
  return grains;
}

// Placed grains in a grid of cells of side 2 R_max, for the overlap tests.
class PlacedGrains {
 public:
  PlacedGrains(const Box& box, double largest, std::size_t count) : box_(box), shapes_(count) {
    const double side = 2.0 * largest;
    nx_ = std::max(1, static_cast<int>(box.size().x / side));
    ny_ = std::max(1, static_cast<int>(box.size().y / side));
    grid_.resize(static_cast<std::size_t>(nx_ * ny_));
  }
  // Whether `candidate`, centred at `at`, stays clear of every placed grain.
  bool free(const Shape& candidate, Vec2 at) const {
    const auto [cx, cy] = cell_of(at);
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy) {
        const int x = cx + dx, y = cy + dy;
        if (x < 0 || y < 0 || x >= nx_ || y >= ny_) continue;
        for (int other : grid_[static_cast<std::size_t>(x + nx_ * y)]) {
          const Shape& b = shapes_[static_cast<std::size_t>(other)];
          if (skeleton_distance(candidate, b) <= candidate.radius + b.radius) return false;
        }
      }
    return true;
  }
  void add(int k, Shape shape, Vec2 at) {
    shapes_[static_cast<std::size_t>(k)] = std::move(shape);
    const auto [cx, cy] = cell_of(at);
    grid_[static_cast<std::size_t>(cx + nx_ * cy)].push_back(k);
  }

 private:
  std::pair<int, int> cell_of(Vec2 p) const {
    const int cx = std::clamp(static_cast<int>((p.x - box_.low.x) / box_.size().x * nx_), 0, nx_ - 1);
    const int cy = std::clamp(static_cast<int>((p.y - box_.low.y) / box_.size().y * ny_), 0, ny_ - 1);
    return {cx, cy};
  }
  Box box_;
  int nx_ = 1, ny_ = 1;
  std::vector<std::vector<int>> grid_;
  std::vector<Shape> shapes_;
};

}  // namespace

GasPacking gas_packing(const GasOptions& o) {
  check_gas_options(o);
  std::mt19937_64 g(o.seed);
  const GasGrains grains = draw_gas_grains(o, g);
  // Largest first: they are the hardest to fit.
  std::vector<int> order(static_cast<std::size_t>(o.count));
  for (int k = 0; k < o.count; ++k) order[static_cast<std::size_t>(k)] = k;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return grains.area[static_cast<std::size_t>(a)] > grains.area[static_cast<std::size_t>(b)];
  });
  PlacedGrains placed_grains(o.box, grains.largest, static_cast<std::size_t>(o.count));
  std::vector<BodySpec> bodies;
  for (int placed_count = 0; placed_count < o.count; ++placed_count) {
    const int k = order[static_cast<std::size_t>(placed_count)];
    const Shape& s = grains.local[static_cast<std::size_t>(k)];
    const double R = grains.reach[static_cast<std::size_t>(k)];
    bool done = false;
    for (int attempt = 0; attempt < 5000 && !done; ++attempt) {
      const Vec2 at = random_centre(g, o.box, R);
      const double angle = 2.0 * std::numbers::pi * unit_uniform(g);
      Shape candidate = placed(s, at, angle);
      if (!placed_grains.free(candidate, at)) continue;
      placed_grains.add(k, std::move(candidate), at);
      BodySpec b;
      b.shape = s;
      b.position = at;
      b.angle = angle;
      b.velocity = random_heading_velocity(g, o.speed);
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
