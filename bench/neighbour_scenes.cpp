#include "bench/neighbour_scenes.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "packing/random_placement.h"
#include "packing/spatial_order.h"
#include "shapes/mass_properties.h"

namespace sphero::bench {
namespace {

constexpr int kClasses = 7;

// How many disks of each class: equal areas, so counts fall as 1/d².
std::vector<int> class_counts(int particles, const std::vector<double>& diameters) {
  double weights = 0.0;
  for (double d : diameters) weights += 1.0 / (d * d);
  std::vector<int> counts;
  int placed = 0;
  for (std::size_t k = diameters.size(); k-- > 1;) {
    counts.push_back(static_cast<int>(std::lround(particles / (diameters[k] * diameters[k]) / weights)));
    placed += counts.back();
  }
  counts.push_back(std::max(0, particles - placed));  // the smallest make up the count
  std::reverse(counts.begin(), counts.end());
  return counts;
}

// A hexagon whose rounded outline fits a circle of `radius`, r = 10% of its diameter.
Shape hexagon(double radius) {
  const double r = 0.2 * radius, circumradius = radius - r;
  std::vector<Vec2> v;
  for (int k = 0; k < 6; ++k)
    v.push_back(circumradius * Vec2{std::cos(k * std::numbers::pi / 3), std::sin(k * std::numbers::pi / 3)});
  return make_shape("hexagon", SkeletonKind::polygon, v, r);
}

std::vector<BodySpec> box_walls(double side) {
  BodySpec walls;
  const std::vector<Vec2> path{{0, 0}, {side, 0}, {side, side}, {0, side}, {0, 0}};
  walls.shape = make_shape("box", SkeletonKind::polyline, path, 0.05);
  walls.position = mass_properties(walls.shape).centroid;
  walls.is_wall = true;
  return {walls};
}

}  // namespace

const std::vector<NeighbourSceneKind>& neighbour_scenes() {
  static const std::vector<NeighbourSceneKind> kinds = [] {
    std::vector<NeighbourSceneKind> all;
    for (bool hexagons : {false, true})
      for (bool gas : {false, true})
        for (int ratio : {1, 10, 30})
          all.push_back(
              {std::string(hexagons ? "hexagons" : "disks") + (gas ? "-gas" : "-dense") + std::to_string(ratio),
               hexagons, static_cast<double>(ratio), gas});
    return all;
  }();
  return kinds;
}

const NeighbourSceneKind* neighbour_scene_named(const std::string& name) {
  for (const NeighbourSceneKind& k : neighbour_scenes())
    if (k.name == name) return &k;
  return nullptr;
}

Engine neighbour_scene(const NeighbourSceneKind& kind, int particles, int threads, std::uint64_t seed) {
  std::vector<double> diameters;
  for (int k = 0; k < kClasses; ++k) diameters.push_back(std::pow(kind.size_ratio, k / (kClasses - 1.0)));
  const std::vector<int> counts = class_counts(particles, diameters);
  double area = 0.0;
  for (int k = 0; k < kClasses; ++k)
    area += counts[static_cast<std::size_t>(k)] * std::numbers::pi / 4.0 * diameters[static_cast<std::size_t>(k)] *
            diameters[static_cast<std::size_t>(k)];
  const double side = std::sqrt(area / (kind.gas ? 0.08 : 0.45));
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> turn(0.0, 2.0 * std::numbers::pi);
  std::vector<Circle> placed;
  std::vector<BodySpec> bodies = box_walls(side);
  const double speed = kind.gas ? 1.0 : 0.1;
  for (int k = kClasses; k-- > 0;) {
    const double radius = 0.5 * diameters[static_cast<std::size_t>(k)];
    const Shape shape = kind.hexagons ? hexagon(radius) : make_shape("disk", SkeletonKind::point, {{0, 0}}, radius);
    const Box region{{0.1, 0.1}, {side - 0.1, side - 0.1}};
    for (Vec2 c : random_centres(random, region, radius, counts[static_cast<std::size_t>(k)], placed, "disk")) {
      placed.push_back({c, radius});
      BodySpec b;
      b.shape = shape;
      b.position = c;
      b.angle = turn(random);
      b.velocity = random_heading_velocity(random, speed);
      bodies.push_back(std::move(b));
    }
  }
  list_grains_along_curve(bodies);  // as `sphero pack sort` lists a packing: neighbours near in memory
  const double small_mass =
      mass_properties(kind.hexagons ? hexagon(0.5) : make_shape("disk", SkeletonKind::point, {{0, 0}}, 0.5)).area;
  ContactLaw law;
  law.kn = 1e3;
  law.gamma_n = 0.1 * 2.0 * std::sqrt(small_mass * law.kn);
  law.kt = 0.5 * law.kn;
  law.mu = 0.3;
  EngineSettings s;
  s.dt = 0.02 * 2.0 * std::numbers::pi * std::sqrt(0.5 * small_mass / law.kn);
  s.verlet_distance = 0.05;
  s.adaptive_verlet_distance = true;
  s.threads = threads;
  return Engine(make_world(bodies, 1, {law}, {}), s);
}

}  // namespace sphero::bench
