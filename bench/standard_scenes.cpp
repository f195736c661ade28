#include "bench/standard_scenes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

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

Engine settled_scene(const SceneKind& kind, const SceneOptions& o, const std::string& data_dir) {
  if (o.particles < 1) throw std::invalid_argument("a benchmark scene needs at least one particle");
  const Shape shape = shape_of(kind, data_dir);
  const MassProperties m = mass_properties(shape);
  const double size = 2.0 * m.bounding_radius;
  const double spacing = 1.01 * size;  // bounding circles apart: no overlap at the start
  const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(o.particles))));
  const double width = columns * spacing;
  std::vector<BodySpec> bodies;
  BodySpec box;
  box.shape = make_shape("box", SkeletonKind::polyline, {{0, 3 * width}, {0, 0}, {width, 0}, {width, 3 * width}}, 0.05 * size);
  box.position = mass_properties(box.shape).centroid;
  box.big = true;
  bodies.push_back(box);
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> turn(0.0, 2.0 * std::numbers::pi);
  for (int k = 0; k < o.particles; ++k) {
    BodySpec b;
    b.shape = shape;
    b.position = {spacing * (k % columns + 0.5), spacing * (k / columns + 0.55)};
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
  Engine e(make_world(bodies, 1, {law}, {0, -9.81}), s);
  // Settle with strongly damped contacts (half of critical: a 64-gon can
  // press on a neighbour with several vertex contacts at once, which
  // multiplies the damping an explicit step must stay stable with) until no
  // grain moves faster than 1% of sqrt(g · size), or for 30 000 steps at
  // most (a fixed number when asked); then time with the scene's damping.
  e.world().law[0].gamma_n = 0.5 * 2.0 * std::sqrt(m.area * law.kn);
  const long cap = 30000;
  for (long done = 0; done < (o.settle_steps > 0 ? o.settle_steps : cap);) {
    const long chunk = o.settle_steps > 0 ? std::min(500L, o.settle_steps - done) : 500;
    e.run(chunk);
    done += chunk;
    if (o.settle_steps == 0 && done >= 2000 && residual_speed(e) < 0.01) break;
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
