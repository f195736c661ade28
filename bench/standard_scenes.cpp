#include "bench/standard_scenes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <random>
#include <stdexcept>
#include <tuple>

#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero::bench {
namespace {

// A regular polygon of `n` vertices whose rounded outline has diameter 1
// (r = 10% of it for hexagons, 5% for the finer polygons: the same size).
Shape regular_polygon(int n, double r) {
  const double circumradius = 0.5 - r;
  std::vector<Vec2> v;
  for (int k = 0; k < n; ++k) {
    const double a = 2.0 * std::numbers::pi * k / n;
    v.push_back({circumradius * std::cos(a), circumradius * std::sin(a)});
  }
  return make_shape(fmt::format("polygon{}", n), SkeletonKind::polygon, v, r);
}

Shape shape_of(const SceneKind& kind, const std::string& data_dir) {
  if (kind.name == "disks") return make_shape("disk", SkeletonKind::point, {{0, 0}}, 0.5);
  if (kind.name == "hexagons") return regular_polygon(6, 0.1);
  if (kind.name == "cows") return read_shape_file(data_dir + "/shapes/cow.shape");
  return regular_polygon(kind.vertices, 0.05);
}

}  // namespace

const std::vector<SceneKind>& standard_scenes() {
  static const std::vector<SceneKind> scenes{{"disks", 1},      {"hexagons", 6},   {"polygon6", 6},  {"polygon16", 16},
                                             {"polygon32", 32}, {"polygon64", 64}, {"cows", 62}};
  return scenes;
}

const SceneKind& scene_named(const std::string& name) {
  static const SceneKind triangles{"polygon3", 3};  // not standard: the low end of a vertex-count curve
  if (name == triangles.name) return triangles;
  std::string names;
  for (const SceneKind& k : standard_scenes()) {
    if (k.name == name) return k;
    names += (names.empty() ? "" : ", ") + k.name;
  }
  names += ", " + triangles.name;
  throw std::invalid_argument(fmt::format("unknown benchmark scene '{}'; the scenes are {}", name, names));
}

namespace {

// Runs until no surface point moves faster than 1% of sqrt(g · size)
// (checked every 500 steps, from 2000 on), `cap` steps at most; or exactly
// `steps` when that is positive.
void settle(Engine& e, long steps, long cap) {
  for (long done = 0; done < (steps > 0 ? steps : cap);) {
    const long chunk = steps > 0 ? std::min(500L, steps - done) : 500;
    e.run(chunk);
    done += chunk;
    if (steps <= 0 && done >= 2000 && residual_speed(e) < 0.01) break;
  }
}

}  // namespace

Engine settled_scene(const SceneKind& kind, const SceneOptions& o, const std::string& data_dir) {
  if (o.particles < 1) throw std::invalid_argument("a benchmark scene needs at least one particle");
  const Shape shape = shape_of(kind, data_dir);
  const MassProperties m = mass_properties(shape);
  const double size = 2.0 * m.bounding_radius;
  const double spacing = 1.01 * size;  // bounding circles apart: no overlap at the start
  // A block of at most kBlock grains is dropped and settled; larger scenes
  // are that block repeated side by side along the periodic x axis, which
  // is already at rest (each copy is the block's periodic continuation)
  // but for the tangential springs, which a short settling loads again.
  // So preparing 10⁶ grains costs what 10³ cost, plus a few thousand steps.
  const int copies = (o.particles + kBlock - 1) / kBlock;
  const int block = (o.particles + copies - 1) / copies;
  const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(block))));
  const double width = columns * spacing;
  const auto floor_spanning = [&](double length) {
    BodySpec floor;
    floor.shape = make_shape("floor", SkeletonKind::segment, {{0, 0}, {length, 0}}, 0.05 * size);
    floor.position = mass_properties(floor.shape).centroid;
    floor.big = true;
    return floor;
  };
  std::vector<BodySpec> bodies{floor_spanning(width)};
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> turn(0.0, 2.0 * std::numbers::pi);
  for (int k = 0; k < block; ++k) {
    BodySpec b;
    b.shape = shape;
    // Odd rows shifted by half a spacing: on a square lattice in a periodic
    // strip, disks fall straight onto one another and stand in columns
    // with two contacts each, a packing no experiment makes.
    const int row = k / columns;
    b.position = {spacing * (k % columns + 0.5 + 0.5 * (row % 2)), spacing * (row + 0.55)};
    b.angle = turn(random);
    bodies.push_back(b);
  }
  ContactLaw law;
  law.kn = 1e6 * m.area;  // per unit density: overlaps of ~1e-5 of the size under the sample's weight
  law.gamma_n = 0.3 * 2.0 * std::sqrt(m.area * law.kn);
  law.kt = 0.5 * law.kn;
  law.mu = 0.5;
  EngineSettings s;
  s.dt = 0.02 * 2.0 * std::numbers::pi * std::sqrt(m.area / law.kn);
  s.verlet_distance = o.verlet_distance > 0.0 ? o.verlet_distance : 0.05 * size;
  s.adaptive_verlet_distance = o.verlet_distance <= 0.0;
  s.threads = o.threads;
  const auto strip = [](double period) { return PeriodicCell{{true, false}, {0.0, 0.0}, {period, 0.0}}; };
  // Settled with strongly damped contacts (half of critical: a 64-gon can
  // press on a neighbour with several vertex contacts at once, which
  // multiplies the damping an explicit step must stay stable with); timed
  // with the scene's damping.
  const auto settling = [&](ContactLaw l) {
    l.gamma_n = 0.5 * 2.0 * std::sqrt(m.area * law.kn);
    return l;
  };
  // A settled block is kept for the next scene of the same kind and block
  // size (`sphero bench` asks for several N); settling does not depend on
  // the number of threads.
  static std::map<std::tuple<std::string, int, long, double>, EngineSnapshot> settled_blocks;
  const auto key = std::make_tuple(kind.name, block, o.settle_steps, o.verlet_distance);
  if (!settled_blocks.count(key)) {
    Engine fresh(make_world(bodies, 1, {settling(law)}, {0, -9.81}, strip(width)), s);
    settle(fresh, o.settle_steps, 100000);
    settled_blocks.emplace(key, fresh.snapshot());
  }
  Engine e{EngineSnapshot(settled_blocks.at(key))};
  e.set_threads(o.threads);
  if (copies > 1) {
    World w = e.world();
    wrap_into_cell(w);  // each copy is laid out from the block's own cell
    std::vector<BodySpec> many{floor_spanning(copies * width)};
    many.reserve(static_cast<std::size_t>(copies) * w.size());
    for (int c = 0; c < copies; ++c)
      for (std::size_t i = 0; i < w.size(); ++i) {
        if (w.big[i]) continue;
        BodySpec b;
        b.shape = shape;
        b.position = w.position[i] + Vec2{c * width, 0.0};
        b.angle = w.angle[i];
        b.velocity = w.velocity[i];
        b.angular_velocity = w.angular_velocity[i];
        many.push_back(std::move(b));
      }
    Engine tiled(make_world(many, 1, {settling(law)}, {0, -9.81}, strip(copies * width)), s);
    settle(tiled, o.settle_steps > 0 ? std::min(o.settle_steps, 2000L) : 0, 5000);
    e = std::move(tiled);
  }
  e.world().law[0].gamma_n = law.gamma_n;
  return e;
}

double residual_speed(const Engine& e) {
  const World& w = e.world();
  double fastest = 0.0, size = 0.0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w.big[i]) continue;
    fastest = std::max(fastest, norm(w.velocity[i]) + w.bounding_radius[i] * std::abs(w.angular_velocity[i]));
    size = std::max(size, 2.0 * w.bounding_radius[i]);
  }
  return fastest / std::sqrt(9.81 * size);
}

}  // namespace sphero::bench
