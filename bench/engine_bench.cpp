// Cundall number (particle-steps per CPU second) of the engine on dense,
// frictional, damped packings settled under gravity in a box. The settling
// is not timed. Run: build/bench/sphero_engine_bench
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "engine/engine.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

Shape regular_polygon(int n, double circumradius, double r) {
  std::vector<Vec2> v;
  for (int k = 0; k < n; ++k) {
    const double a = 2.0 * std::numbers::pi * k / n;
    v.push_back({circumradius * std::cos(a), circumradius * std::sin(a)});
  }
  return make_shape("polygon" + std::to_string(n), SkeletonKind::polygon, v, r);
}

Shape scene_shape(int kind) {
  switch (kind) {
    case 0: return make_shape("disk", SkeletonKind::point, {{0, 0}}, 0.5);
    case 1: return regular_polygon(6, 0.4, 0.1);   // hexagon, r = 10% of its size
    case 2: return regular_polygon(16, 0.45, 0.05);
    case 3: return regular_polygon(64, 0.45, 0.05);
    default: {
      Shape cow = read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape");
      return transformed(cow, {}, 0.0);
    }
  }
}

// N particles on a lattice in a box, settled under gravity for 2000 steps.
Engine settled_scene(int kind, int n) {
  const Shape shape = scene_shape(kind);
  const double size = 2.0 * mass_properties(shape).bounding_radius * 1.02;
  const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const double width = columns * size;
  std::vector<BodySpec> bodies;
  BodySpec box;
  box.shape = make_shape("box", SkeletonKind::polyline, {{0, 3 * width}, {0, 0}, {width, 0}, {width, 3 * width}}, 0.1);
  box.position = mass_properties(box.shape).centroid;
  box.big = true;
  bodies.push_back(box);
  std::mt19937_64 g(1);
  for (int k = 0; k < n; ++k) {
    BodySpec b;
    b.shape = shape;
    b.position = {size * (k % columns + 0.5), size * (k / columns + 0.6)};
    b.angle = static_cast<double>(g() % 1000) * 0.00628;
    bodies.push_back(b);
  }
  const double mass = mass_properties(shape).area;
  ContactLaw law;
  law.kn = 1e6 * mass;  // overlaps stay well under the sphero-radius at impact speeds
  law.gamma_n = 0.3 * 2.0 * std::sqrt(mass * law.kn);
  law.kt = 0.5 * law.kn;
  law.mu = 0.5;
  EngineSettings s;
  s.dt = 0.02 * 2.0 * std::numbers::pi * std::sqrt(mass / law.kn);
  s.verlet_distance = 0.05 * size;
  Engine e(make_world(bodies, 1, {law}, {0, -9.81}), s);
  e.run(2000);
  return e;
}

void BM_Step(benchmark::State& state) {
  const int kind = static_cast<int>(state.range(0));
  const int n = static_cast<int>(state.range(1));
  Engine engine = settled_scene(kind, n);
  const long rebuilds = engine.neighbour_stats().rebuilds;
  const long pairs = engine.neighbour_stats().feature_pairs_evaluated;
  for (auto _ : state) engine.step();
  state.SetLabel(scene_shape(kind).name);
  // Particle-steps per second of CPU time (the benchmark measures CPU time).
  state.counters["cundall"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["rebuilds"] = static_cast<double>(engine.neighbour_stats().rebuilds - rebuilds);
  state.counters["pairs_per_particle_step"] =
      static_cast<double>(engine.neighbour_stats().feature_pairs_evaluated - pairs) /
      (static_cast<double>(state.iterations()) * n);
}

BENCHMARK(BM_Step)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {1000}})
    ->Args({1, 10000})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sphero

BENCHMARK_MAIN();
