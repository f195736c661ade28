#include "app/rigid_bench.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <optional>

#include "app/bench_record.h"
#include "io/scene.h"

namespace sphero::app {
namespace {

// 1000 hexagons in an 80 m square under 10 m/s² form their heap in about
// 2 s: 1000 steps of 2 ms.
constexpr long kHeapSteps = 1000;

// The heap's scene text for N hexagons: the square's side grows as √N and
// the field with it, so that every N collapses in the same simulated time.
// The heap's law: restitution 0.2 and Coulomb's μ, or without friction
// the viscous ξ_t = 0.5 of docs/VALIDATION.md's heap.
std::string heap_law(double mu) {
  return mu > 0.0 ? fmt::format("restitution=0.2 mu={:g}", mu) : std::string("restitution=0.2 xi_t=0.5");
}

std::string heap_scene_text(int grains, const std::string& shape_file, double tolerance, RigidSolver solver,
                            double mu) {
  const double half_side = 40.0 * std::sqrt(grains / 1000.0), field = 10.0 * half_side / 40.0;
  return fmt::format(
      "model = rigid\nduration = 2\ndt = 2e-3\nattractor = 0,0 {}\nlaw = 0 0 rigid {}\n"
      "grains = shape={} count={} generator=random region={},{},{},{} angle=random\nrigid_tolerance = {}\n"
      "rigid_solver = {}\n",
      field, heap_law(mu), shape_file, grains, -half_side, -half_side, half_side, half_side, tolerance,
      to_string(solver));
}

std::string hexagon_file(const RigidBenchOptions& o) {
  return (std::filesystem::path(o.data) / "shapes" / "hexagon.shape").string();
}

Engine heap_at_start(int n, const std::string& shape, RigidSolver solver, double tolerance, double mu) {
  const SceneConfig scene = parse_scene(heap_scene_text(n, shape, tolerance, solver, mu), "rigid heap", ".");
  World world = build_world(scene);
  const EngineSettings settings = resolve_engine_settings(scene, world);
  return Engine(std::move(world), settings);
}

// The heap of n hexagons gathered for `settle_steps` steps by Gauss–Seidel
// at kSettleTolerance, whichever solver is timed after: every solver is
// timed on the same compact heap (the interior point at 1e-4 lets the
// overlaps of a compact heap grow until no correction opens them).
struct GatheredHeap {
  EngineSnapshot state;
  double wall_s = 0.0;
};
GatheredHeap gathered_heap(int n, const std::string& shape, long settle_steps, double mu) {
  const double wall0 = wall_now();
  Engine engine = heap_at_start(n, shape, RigidSolver::gauss_seidel, kSettleTolerance, mu);
  engine.run(settle_steps);
  return {engine.snapshot(), wall_now() - wall0};
}

// The heap of n hexagons under one solver and tolerance, from its start or
// from `gathered`, timed over its steps.
BenchRecord heap_record(const RigidBenchOptions& o, const std::string& shape, int n, RigidSolver solver,
                        double tolerance, double mu, const GatheredHeap* gathered) {
  Engine engine = [&] {
    if (gathered == nullptr) return heap_at_start(n, shape, solver, tolerance, mu);
    EngineSnapshot state = gathered->state;
    state.settings.rigid.solver = solver;
    state.settings.rigid.qp_tolerance = tolerance;
    return Engine(std::move(state));
  }();
  const double settle_wall = gathered != nullptr ? gathered->wall_s : 0.0;
  const long steps = o.steps > 0 ? o.steps : kHeapSteps;
  const double cpu0 = cpu_now(), wall0 = wall_now();
  engine.run(steps);
  const double cpu = cpu_now() - cpu0, wall = wall_now() - wall0;
  const CollisionStats c = engine.collision_stats();
  const auto per = [](double a, double b) { return b > 0.0 ? a / b : 0.0; };
  return {
      {"scene", "\"rigid-heap\""},
      {"n", fmt::format("{}", n)},
      {"rigid_tolerance", fmt::format("{:g}", tolerance)},
      {"steps", fmt::format("{}", steps)},
      {"wall_s", fmt::format("{:.3f}", wall)},
      {"cpu_s", fmt::format("{:.3f}", cpu)},
      {"ms_per_step", fmt::format("{:.3f}", 1e3 * per(cpu, static_cast<double>(steps)))},
      {"contacts_per_step", fmt::format("{:.1f}", per(static_cast<double>(c.contacts), static_cast<double>(steps)))},
      {"us_per_contact", fmt::format("{:.2f}", 1e6 * per(cpu, static_cast<double>(c.contacts)))},
      {"groups_per_step", fmt::format("{:.1f}", per(static_cast<double>(c.groups), static_cast<double>(steps)))},
      {"largest_group", fmt::format("{}", c.largest_group)},
      {"programs_per_step",
       fmt::format("{:.2f}", per(static_cast<double>(c.group_programs), static_cast<double>(steps)))},
      {"iterations_per_program",
       fmt::format("{:.2f}", per(static_cast<double>(c.iterations), static_cast<double>(c.group_programs)))},
      {"detection_share", fmt::format("{:.3f}", per(c.seconds_detecting, wall))},
      {"program_share", fmt::format("{:.3f}", per(c.seconds_solving, wall))},
      {"correction_share", fmt::format("{:.3f}", per(c.seconds_correcting, wall))},
      {"corrections", fmt::format("{}", c.corrections)},
      {"largest_kkt_residual", fmt::format("{:.2g}", c.largest_kkt_residual)},
      {"deepest_overlap", fmt::format("{:.3g}", engine.deepest_overlap())},
      {"cundall", fmt::format("{:.4g}", per(static_cast<double>(n) * static_cast<double>(steps), cpu))},
      {"rigid_solver", fmt::format("\"{}\"", to_string(solver))},
      {"mu", fmt::format("{:g}", mu)},
      {"stalled_programs", fmt::format("{}", c.stalled)},
      {"settle_steps", fmt::format("{}", o.settle_steps)},
      {"settle_wall_s", fmt::format("{:.3f}", settle_wall)}};
}

}  // namespace

void run_rigid_bench(const RigidBenchOptions& o) {
  bool header_printed = false;
  const std::string shape = hexagon_file(o);
  for (int n : o.sizes)
    for (double mu : o.frictions) {
      std::optional<GatheredHeap> gathered;
      if (o.settle_steps > 0) gathered = gathered_heap(n, shape, o.settle_steps, mu);
      for (RigidSolver solver : o.solvers) {
        if (mu > 0.0 && solver != RigidSolver::gauss_seidel) continue;  // the interior point has no friction
        for (double tolerance : o.tolerances)
          print_bench_record(
              heap_record(o, shape, n, solver, tolerance, mu, gathered ? &*gathered : nullptr), o.csv, header_printed);
      }
    }
}

}  // namespace sphero::app
