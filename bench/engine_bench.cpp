// Google Benchmark over the standard scenes of bench/standard_scenes (the
// same as `sphero bench`): the Cundall number as a counter. The settling is
// not timed. Run: build/bench/sphero_engine_bench
#include <benchmark/benchmark.h>

#include "bench/standard_scenes.h"

namespace sphero::bench {
namespace {

void BM_Step(benchmark::State& state) {
  const SceneKind& kind = standard_scenes()[static_cast<std::size_t>(state.range(0))];
  SceneOptions o;
  o.particles = static_cast<int>(state.range(1));
  o.threads = static_cast<int>(state.range(2));
  Engine engine = settled_scene(kind, o, SPHERO_DATA_DIR);
  const long rebuilds = engine.neighbour_stats().rebuilds;
  const long pairs = engine.neighbour_stats().feature_pairs_evaluated;
  for (auto _ : state) engine.step();
  state.SetLabel(kind.name);
  // Particle-steps per second of CPU time (the benchmark measures CPU time).
  state.counters["cundall"] =
      benchmark::Counter(static_cast<double>(o.particles), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["rebuilds"] = static_cast<double>(engine.neighbour_stats().rebuilds - rebuilds);
  state.counters["pairs_per_particle_step"] =
      static_cast<double>(engine.neighbour_stats().feature_pairs_evaluated - pairs) /
      (static_cast<double>(state.iterations()) * o.particles);
}

BENCHMARK(BM_Step)->ArgsProduct({{0, 1, 2, 3, 4, 5, 6}, {1000}, {1}})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sphero::bench

BENCHMARK_MAIN();
