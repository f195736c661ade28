#include "app/rigid_bench.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <vector>

#include "app/bench_record.h"
#include "io/scene.h"

namespace sphero::app {
namespace {

// 1000 hexagons in an 80 m square under 10 m/s² form their heap in about
// 2 s: 1000 steps of 2 ms.
constexpr long kHeapSteps = 1000;

// The heap's law: restitution 0.2 and Coulomb's μ, or without friction
// the viscous ξ_t = 0.5 of docs/VALIDATION.md's heap.
std::string heap_law(double mu) {
  return mu > 0.0 ? fmt::format("restitution=0.2 mu={:g}", mu) : std::string("restitution=0.2 xi_t=0.5");
}

// The heap's scene text for N hexagons: the square's side grows as √N and
// the field with it, so that every N collapses in the same simulated time.

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

// One timed heap: its size, law, solver, tolerance and threads.
struct HeapCase {
  int n = 0;
  double mu = 0.0;
  RigidSolver solver = RigidSolver::interior_point;
  double tolerance = 0.0;
  int threads = 1;
};

// The heap of h.n hexagons under one solver and tolerance, from its start
// or from `gathered`, timed over its steps; `positions` gets where its
// bodies end.
BenchRecord heap_record(const RigidBenchOptions& o, const std::string& shape, const HeapCase& h,
                        const GatheredHeap* gathered, std::vector<Vec2>& positions) {
  const auto [n, mu, solver, tolerance, threads] = h;
  Engine engine = [&] {
    EngineSnapshot state =
        gathered == nullptr ? heap_at_start(n, shape, solver, tolerance, mu).snapshot() : gathered->state;
    state.settings.rigid.solver = solver;
    state.settings.rigid.qp_tolerance = tolerance;
    state.settings.threads = threads;
    return Engine(std::move(state));
  }();
  const double settle_wall = gathered != nullptr ? gathered->wall_s : 0.0;
  const long steps = o.steps > 0 ? o.steps : kHeapSteps;
  const double cpu0 = cpu_now(), wall0 = wall_now();
  engine.run(steps);
  const double cpu = cpu_now() - cpu0, wall = wall_now() - wall0;
  positions = engine.world().position;
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
      {"wall_ms_per_step", fmt::format("{:.3f}", 1e3 * per(wall, static_cast<double>(steps)))},
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
      {"settle_wall_s", fmt::format("{:.3f}", settle_wall)},
      {"threads", fmt::format("{}", threads)}};
}

// Times the case at each of o.threads; a thread count that ends the heap
// elsewhere than the first is a reproducibility bug.
void time_threads(const RigidBenchOptions& o, const std::string& shape, HeapCase h, const GatheredHeap* gathered,
                  bool& header_printed) {
  std::vector<Vec2> first, positions;
  for (std::size_t t = 0; t < o.threads.size(); ++t) {
    h.threads = o.threads[t];
    BenchRecord record = heap_record(o, shape, h, gathered, t == 0 ? first : positions);
    const bool identical = t == 0 || positions == first;
    record.push_back({"identical_to_first", identical ? "true" : "false"});
    print_bench_record(record, o.csv, header_printed);
    if (!identical)
      throw std::runtime_error(fmt::format(
          "the rigid heap of {} hexagons ends elsewhere with {} threads than with {}: a reproducibility bug", h.n,
          o.threads[t], o.threads.front()));
  }
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
          time_threads(o, shape, {n, mu, solver, tolerance, 1}, gathered ? &*gathered : nullptr, header_printed);
      }
    }
}

}  // namespace sphero::app
