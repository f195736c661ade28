// `sphero bench [options]`: the Cundall number (particle-steps per CPU
// second) of the standard scenes of bench/ — dense, frictional, damped
// packings settled under gravity (not timed) — for several N and thread
// counts, and of the built-in default scene (`hopper`: 200 cows falling
// through a hopper onto a pile, timed from the start, where lists expire
// and rebuilds cost as much as contacts); one JSON record per line on
// stdout.
#include <fmt/format.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>
#include <optional>
#include <sstream>

#include "app/bench_record.h"
#include "app/command_line.h"
#include "app/commands.h"
#include "app/data_directory.h"
#include "app/default_scene.h"
#include "app/frame_bench.h"
#include "app/opencl_backend.h"
#include "app/rigid_bench.h"
#include "bench/neighbour_scenes.h"
#include "bench/standard_scenes.h"
#include "engine/thread_team.h"
#include "io/packing_frame.h"
#include "io/scene.h"
#include "rigid/rigid_law.h"
#include "text/message_text.h"

namespace sphero::app {
namespace {

// Comma-separated whole numbers from 1 to `most` (1e5 as well as 100000).
std::vector<int> integers(const std::string& option, const std::string& text, int most) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    const double value = parse_finite(part).value_or(0.0);
    if (value < 1 || value != std::floor(value))
      throw std::invalid_argument(fmt::format("--{}: '{}' is not a positive whole number", option, part));
    if (value > most) throw std::invalid_argument(fmt::format("--{}: {}; at most {}", option, part, most));
    out.push_back(static_cast<int>(value));
  }
  if (out.empty()) throw std::invalid_argument(fmt::format("--{}: give at least one number", option));
  return out;
}

// --rigid-solver's comma-separated list.
std::vector<RigidSolver> rigid_solvers(const std::string& text) {
  std::vector<RigidSolver> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    if (part != "interior_point" && part != "gauss_seidel")
      throw std::invalid_argument(
          fmt::format("--rigid-solver: '{}' is not a solver: give interior_point, gauss_seidel or both", part));
    out.push_back(part == "gauss_seidel" ? RigidSolver::gauss_seidel : RigidSolver::interior_point);
  }
  if (out.empty()) throw std::invalid_argument("--rigid-solver needs interior_point, gauss_seidel or both");
  return out;
}

// A comma-separated list of numbers from `low` to `high` for `option`;
// `what` names one with its range in messages, `empty` says what an empty
// list needs.
std::vector<double> bounded_list(const std::string& text, const std::string& option, double low, double high,
                                 const std::string& what, const std::string& empty) {
  std::vector<double> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    const std::optional<double> value = parse_finite(part);
    if (!value || !(*value >= low && *value <= high))
      throw std::invalid_argument(fmt::format("{}: '{}' is not {}", option, part, what));
    out.push_back(*value);
  }
  if (out.empty()) throw std::invalid_argument(fmt::format("{} needs {}", option, empty));
  return out;
}

// --rigid-tolerance's list, each within rigid_tolerance's range.
std::vector<double> tolerances(const std::string& text) {
  const std::string range = "a tolerance from 1e-12 to 1e-4";
  return bounded_list(text, "--rigid-tolerance", 1e-12, 1e-4, range, range);
}

// --rigid-mu's list: 0 (the heap's viscous ξ_t) or a Coulomb friction up
// to the rigid laws' largest.
std::vector<double> frictions(const std::string& text) {
  return bounded_list(text, "--rigid-mu", 0.0, kMostRigidFriction,
                      fmt::format("a friction from 0 to {:g}", kMostRigidFriction),
                      "a friction (0: the viscous xi_t = 0.5)");
}

// Coulomb friction needs an iterative solver: a frictional heap is timed
// with the solvers that take it, and refused, before any heap is gathered,
// where none is asked.
void refuse_friction_without_sweeps(const std::vector<double>& mus, const std::vector<RigidSolver>& solvers) {
  const bool frictional = std::any_of(mus.begin(), mus.end(), [](double mu) { return mu > 0.0; });
  if (frictional && std::find(solvers.begin(), solvers.end(), RigidSolver::gauss_seidel) == solvers.end())
    throw std::invalid_argument(
        "--rigid-mu above 0 (Coulomb friction) needs --rigid-solver gauss_seidel: the interior point solves the "
        "frictionless program only");
}

// The moving benchmark: `sphero run`'s built-in default scene.
constexpr const char* kHopper = "hopper";
constexpr int kHopperVertices = 62;

// The engine at the scene's start, and the steps of its whole duration.
std::pair<Engine, long> hopper_engine(double verlet_distance) {
  std::vector<std::string> overrides;
  if (verlet_distance > 0.0) overrides = {"--verlet_distance", fmt::format("{}", verlet_distance)};
  const SceneConfig scene = parse_scene(kDefaultSceneText, kDefaultSceneLabel, data_directory() / "scenes", overrides);
  World world = build_world(scene);
  const EngineSettings settings = resolve_engine_settings(scene, world);
  return {Engine(std::move(world), settings), std::lround(scene.duration / settings.dt)};
}

// What the command line asked for.
struct BenchOptions {
  std::vector<bench::SceneKind> kinds;
  bool hopper = false, rigid = false;
  std::vector<int> sizes, thread_counts;
  long steps = 0, settle_steps = 0;
  int repeat = 1;
  double seconds = 2.0, verlet = 0.0;
  bool large = false, csv = false, contact_lists = true, full_rebuilds = false, frames = false;
  std::vector<NeighbourStrategy> strategies{NeighbourStrategy::cells};
  std::vector<Backend> backends{Backend::cpu};
  std::vector<double> rigid_tolerances{RigidSettings{}.qp_tolerance};
  std::vector<RigidSolver> rigid_solvers{RigidSettings{}.solver};
  std::vector<double> rigid_frictions{0.0};
  std::vector<int> rigid_threads{1};  // --threads when given: the rigid heap's default is one thread
  std::string data = data_directory().string();
};

// A case as it is timed: the settled engine state and what its records say.
struct Case {
  bench::SceneKind kind;
  int n;
};
struct SettledCase {
  EngineSnapshot state;
  int grains = 0;
  double residual_speed = NAN, settle_wall = 0.0;
  long timed_steps = 0;
};

// What a case's record needs from its fastest trial.
struct Timing {
  double wall = INFINITY, cpu = 0.0, verlet_distance = 0.0, rebuild_wall = 0.0, contact_pass_wall = NAN;
  double shared_jobs_wall = 0.0, waiting_wall = 0.0;  // in jobs shared among the threads, and waiting there
  long rebuilds = 0, partial_rebuilds = 0, pairs = 0;
  std::size_t bytes = 0;
  bool identical = true;
};

// --scene's comma-separated names, or all.
void choose_scenes(const std::string& text, BenchOptions& o) {
  if (text == "all") {
    o.kinds = bench::standard_scenes();
    o.hopper = true;
    return;
  }
  std::stringstream in(text);
  for (std::string name; std::getline(in, name, ',');)
    if (name == kHopper) o.hopper = true;
    else if (name == "rigid") o.rigid = true;
    else if (bench::neighbour_scene_named(name)) o.kinds.push_back({name, 1});
    else o.kinds.push_back(bench::scene_named(name));
  if (o.kinds.empty() && !o.hopper && !o.rigid) throw std::invalid_argument("--scene: give at least one scene, or all");
}

// --neighbours' and --backend's comma-separated lists.
void choose_neighbours_and_backends(const std::string& neighbours, const std::string& backends, BenchOptions& o) {
  o.strategies.clear();
  std::stringstream strategies(neighbours);
  for (std::string word; std::getline(strategies, word, ',');)
    o.strategies.push_back(neighbour_strategy_from_string(word));
  if (o.strategies.empty()) throw std::invalid_argument("--neighbours needs cells, triangulation or both");
  o.backends.clear();
  std::stringstream in(backends);
  for (std::string word; std::getline(in, word, ',');) {
    try {
      o.backends.push_back(backend_from_string(word));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--backend: ") + e.what());
    }
  }
  if (o.backends.empty()) throw std::invalid_argument("--backend needs cpu, opencl or both");
}

std::optional<int> parse_bench_options(const std::vector<std::string>& args, BenchOptions& o) {
  namespace po = boost::program_options;
  std::string scenes_text = "all", n_text = "1000,10000,100000", threads_text = "1,2", neighbours_text = "cells",
              backends_text = "cpu", tolerances_text = "1e-6", solvers_text = "gauss_seidel", mus_text = "0";
  po::options_description options("options");
  options.add_options()("help,h", "show this help")(
      "scene", po::value(&scenes_text),
      "comma-separated: disks, hexagons, polygon6, polygon16, polygon32, polygon64, cows, hopper, or all; also "
      "polygon3, rigid, and the neighbour-search scenes disks-dense1, disks-dense10, disks-dense30, disks-gas1, "
      "disks-gas10, disks-gas30 and the same with hexagons- (sizes spread over 1:1, 1:10 or 1:30, packed or as a gas, "
      "in a box without gravity; not settled). hopper: the built-in default scene of `sphero run` (200 cows, not "
      "settled, --n ignored), timed over its whole 10 s (43 937 steps) unless --steps. rigid: the rigid model's heap "
      "of --n hexagons, timed over its 1000-step collapse unless --steps, or once compact with --settle-steps "
      "(records of its own: time per step and contact, iterations, residual, the program's share)")(
      "n", po::value(&n_text), "particle counts (default 1000,10000,100000)")(
      "large", "also 10^6 hexagons (a few GB of memory while the scene is built; minutes)")(
      "threads", po::value(&threads_text),
      "thread counts (default 1,2; the rigid heap: 1); results are compared for identity")(
      "neighbours", po::value(&neighbours_text),
      "neighbour strategies, comma-separated: cells, triangulation (default cells); each is timed with each thread "
      "count in turn, and the results are compared for identity")(
      "backend", po::value(&backends_text),
      "where the contact pass runs, comma-separated: cpu, opencl (default cpu; docs/OPENCL.md); each with each "
      "strategy and thread count, and the results compared for identity")(
      "rigid-tolerance", po::value(&tolerances_text),
      "the rigid heap's rigid_tolerance, comma-separated, 1e-12 to 1e-4 (default 1e-6): each timed in turn")(
      "rigid-mu", po::value(&mus_text),
      "the rigid heap's law, comma-separated: 0 for its viscous tangential dissipation xi_t = 0.5 (default), or a "
      "Coulomb friction mu up to 100 (timed with gauss_seidel only, which --rigid-solver must name); each heap "
      "gathered and timed in turn")(
      "rigid-solver", po::value(&solvers_text),
      "the rigid heap's rigid_solver, comma-separated: gauss_seidel, interior_point (default gauss_seidel): each "
      "timed in turn")("steps", po::value(&o.steps),
                       "timed steps per case (default: as many as --seconds takes with the first thread count)")(
      "seconds", po::value(&o.seconds), "timing per case when --steps is not given (default 2)")(
      "repeat", po::value(&o.repeat),
      "time each case this many times, the thread counts in turn, and report the fastest (default 1)")(
      "verlet-distance", po::value(&o.verlet), "fixed skin per body (default: adaptive, at most 5% of a size)")(
      "settle-steps", po::value(&o.settle_steps),
      "settling steps (default: until at rest, 100000 at most; a larger scene tiles a settled block of 1000 and "
      "continues it). rigid: steps gathering the heap by Gauss-Seidel at rigid_tolerance 1e-4, once for every solver, "
      "before the timed ones (default 0: "
      "timed from the start; 1500 gathers it)")(
      "csv", "print CSV (a header, then a row per case) instead of JSON lines")(
      "frames",
      "also what a frame of each case costs: each field's file alone and the light set (state, contacts, walls), in "
      "bytes per grain and seconds to make and write (on the thread that writes it, at the scene's arc resolution "
      "24), and in steps of the case on the first thread count (records \"frame\")")(
      "no-contact-lists", "time without contact lists: every vertex pair of neighbouring particles, each step")(
      "full-rebuilds",
      "rebuild every expired list whole, not only the pairs of the few bodies that moved (the cost partial rebuilds "
      "save)")("data", po::value(&o.data), "the data directory holding shapes/cow.shape");
  po::variables_map vm;
  std::string unused;
  if (const auto stop =
          parse_command_line(args, options, unused, false, "bench", "usage: sphero bench [options]\n", vm))
    return stop;
  if (!unused.empty()) throw std::invalid_argument(fmt::format("unexpected argument '{}'", unused));
  choose_scenes(scenes_text, o);
  o.sizes = integers("n", n_text, 10'000'000);
  o.thread_counts = integers("threads", threads_text, 256);
  if (vm.count("threads")) o.rigid_threads = o.thread_counts;
  choose_neighbours_and_backends(neighbours_text, backends_text, o);
  o.rigid_tolerances = tolerances(tolerances_text);
  o.rigid_solvers = rigid_solvers(solvers_text);
  o.rigid_frictions = frictions(mus_text);
  refuse_friction_without_sweeps(o.rigid_frictions, o.rigid_solvers);
  if (o.steps < 0 || o.settle_steps < 0 || !(o.seconds > 0.0) || o.verlet < 0.0 || o.repeat < 1)
    throw std::invalid_argument("--steps, --settle-steps, --seconds, --repeat and --verlet-distance must be positive");
  // A benchmark measures; a typo's 10^11 steps would run for days.
  if (o.steps > 1'000'000'000 || o.settle_steps > 100'000'000 || o.repeat > 1000 || o.seconds > 86400.0)
    throw std::invalid_argument("at most --steps 1e9, --settle-steps 1e8, --repeat 1000 and --seconds 86400");
  o.large = vm.count("large") > 0;
  o.csv = vm.count("csv") > 0;
  o.contact_lists = !vm.count("no-contact-lists");
  o.full_rebuilds = vm.count("full-rebuilds") > 0;
  o.frames = vm.count("frames") > 0;
  if (o.frames && o.csv)
    throw std::invalid_argument("--frames prints records of their own, as JSON lines: leave out --csv");
  return std::nullopt;
}

// The case's engine ready to time: settled (the standard scenes) or at its
// start (the hopper), with the options that change how it is stepped.
SettledCase settle(const Case& c, const BenchOptions& o) {
  bench::SceneOptions scene;
  scene.particles = c.n;
  scene.threads = *std::max_element(o.thread_counts.begin(), o.thread_counts.end());  // settle fast
  scene.verlet_distance = o.verlet;
  scene.settle_steps = o.settle_steps;
  const double start = wall_now();
  const bench::NeighbourSceneKind* unsettled = bench::neighbour_scene_named(c.kind.name);
  const bool moving = c.kind.name == kHopper;
  long whole_run = 0;
  const Engine settling = moving ? [&] {
    auto [engine, run_steps] = hopper_engine(o.verlet);
    whole_run = run_steps;
    return std::move(engine);
  }()
                                 : unsettled ? bench::neighbour_scene(*unsettled, c.n, scene.threads)
                                             : bench::settled_scene(c.kind, scene, o.data);
  SettledCase out;
  out.residual_speed = moving || unsettled ? NAN : bench::residual_speed(settling);
  // Large scenes are whole copies of a settled block: N may be rounded up.
  const std::vector<std::uint8_t>& walls = settling.world().is_wall;
  out.grains = static_cast<int>(std::count(walls.begin(), walls.end(), 0));
  out.state = settling.snapshot();
  if (!o.contact_lists) {
    out.state.settings.contact_lists = false;
    out.state.neighbours.built = false;  // rebuilt at the first timed step, with every vertex pair
  }
  if (o.full_rebuilds) out.state.settings.partial_rebuilds = false;
  out.settle_wall = wall_now() - start;
  // The hopper is timed over its whole run (its phases differ too much for
  // a few seconds of it to say anything), unless --steps says otherwise.
  out.timed_steps = o.steps > 0 || !moving ? o.steps : whole_run;
  return out;
}

// Each trial times the same steps from the same settled state (the same
// results) with every thread count in turn, so that the counts are compared
// at the same time: a machine's capacity for busy threads drifts. The
// fastest trial by wall time is reported; on a shared machine the slow ones
// measure the neighbours.
std::size_t variant_count(const BenchOptions& o) {
  return o.backends.size() * o.strategies.size() * o.thread_counts.size();
}
int threads_of(const BenchOptions& o, std::size_t variant) { return o.thread_counts[variant % o.thread_counts.size()]; }
NeighbourStrategy strategy_of(const BenchOptions& o, std::size_t variant) {
  return o.strategies[variant / o.thread_counts.size() % o.strategies.size()];
}
Backend backend_of(const BenchOptions& o, std::size_t variant) {
  return o.backends[variant / (o.thread_counts.size() * o.strategies.size())];
}

// The device in e's place, when the variant asks for it (opencl_backend.h);
// returns its contact pass's wall time so far, as a function.
std::function<double()> use_backend(Engine& e, Backend backend, const BenchOptions& o) {
  if (backend != Backend::opencl) return {};
  return use_opencl_backend(e, "sphero bench", std::filesystem::path(o.data) / "opencl").contact_pass_seconds;
}

std::vector<Timing> time_case(SettledCase& c, const BenchOptions& o) {
  std::vector<Timing> timings(variant_count(o));
  std::vector<Vec2> first_positions;
  for (int trial = 0; trial < o.repeat; ++trial)
    for (std::size_t t = 0; t < variant_count(o); ++t) {
      Engine e{EngineSnapshot(c.state)};
      e.set_threads(threads_of(o, t));
      e.set_neighbour_strategy(strategy_of(o, t));
      e.prepare_neighbour_search();  // a long run builds its triangulation once: not timed
      const std::function<double()> device_seconds = use_backend(e, backend_of(o, t), o);
      const long rebuilds = e.neighbour_stats().rebuilds, pairs = e.neighbour_stats().feature_pairs_evaluated;
      const long partial_rebuilds = e.neighbour_partial_rebuilds();
      const double rebuild_seconds = e.neighbour_rebuild_seconds();
      const double cpu0 = cpu_now(), wall0 = wall_now(), shared0 = ThreadTeam::seconds_in_shared_jobs(),
                   waiting0 = ThreadTeam::seconds_waiting_in_shared_jobs();
      if (c.timed_steps > 0) {
        e.run(c.timed_steps);
      } else {  // the first trial fixes the steps for all
        long done = 0;
        while (wall_now() - wall0 < o.seconds) e.run(10), done += 10;
        c.timed_steps = done;
      }
      const double trial_cpu = cpu_now() - cpu0, trial_wall = wall_now() - wall0;
      Timing& best = timings[t];
      if (first_positions.empty()) first_positions = e.world().position;
      else best.identical = best.identical && first_positions == e.world().position;
      if (trial_wall < best.wall) {
        best.wall = trial_wall, best.cpu = trial_cpu;
        best.rebuilds = e.neighbour_stats().rebuilds - rebuilds;
        best.partial_rebuilds = e.neighbour_partial_rebuilds() - partial_rebuilds;
        best.pairs = e.neighbour_stats().feature_pairs_evaluated - pairs;
        best.verlet_distance = e.neighbour_verlet_distance();
        best.rebuild_wall = e.neighbour_rebuild_seconds() - rebuild_seconds;
        best.contact_pass_wall = device_seconds ? device_seconds() : NAN;
        best.shared_jobs_wall = ThreadTeam::seconds_in_shared_jobs() - shared0;
        best.waiting_wall = ThreadTeam::seconds_waiting_in_shared_jobs() - waiting0;
        best.bytes = e.memory_bytes();
      }
    }
  return timings;
}

BenchRecord record_of(const Case& c, const SettledCase& s, const BenchOptions& o, const std::vector<Timing>& timings,
                      std::size_t t) {
  const std::string missing = o.csv ? "" : "null";  // a field not measured
  const auto& [wall, cpu, verlet_distance, rebuild_wall, contact_pass_wall, shared_jobs_wall, waiting_wall, rebuilds,
               partial_rebuilds, pairs, bytes, identical] = timings[t];
  const double particle_steps = static_cast<double>(s.grains) * static_cast<double>(s.timed_steps);
  return {{"scene", fmt::format("\"{}\"", c.kind.name)},
          {"n", fmt::format("{}", s.grains)},
          {"vertices", fmt::format("{}", c.kind.vertices)},
          {"contact_lists", o.contact_lists ? "true" : "false"},
          {"steps", fmt::format("{}", s.timed_steps)},
          {"threads", fmt::format("{}", threads_of(o, t))},
          {"wall_s", fmt::format("{:.4f}", wall)},
          {"cpu_s", fmt::format("{:.4f}", cpu)},
          {"cundall", fmt::format("{:.4g}", particle_steps / std::max(cpu, 1e-9))},
          {"cundall_wall", fmt::format("{:.4g}", particle_steps / std::max(wall, 1e-9))},
          {"speedup", fmt::format("{:.3f}", timings[0].wall / std::max(wall, 1e-9))},
          {"identical_to_first", identical ? "true" : "false"},
          {"bytes_per_particle", fmt::format("{:.0f}", static_cast<double>(bytes) / s.grains)},
          {"rebuilds", fmt::format("{}", rebuilds)},
          {"partial_rebuilds", fmt::format("{}", partial_rebuilds)},
          {"pairs_per_particle_step", fmt::format("{:.3f}", static_cast<double>(pairs) / particle_steps)},
          {"verlet_distance", fmt::format("{:.4g}", verlet_distance)},
          {"settle_wall_s", fmt::format("{:.1f}", s.settle_wall)},
          {"settled_speed", std::isnan(s.residual_speed) ? missing : fmt::format("{:.2g}", s.residual_speed)},
          {"repeats", fmt::format("{}", o.repeat)},
          {"rebuild_wall_s", fmt::format("{:.4f}", rebuild_wall)},
          {"neighbours",
           o.csv ? std::string(to_string(strategy_of(o, t))) : fmt::format("\"{}\"", to_string(strategy_of(o, t)))},
          {"backend",
           o.csv ? std::string(to_string(backend_of(o, t))) : fmt::format("\"{}\"", to_string(backend_of(o, t)))},
          {"contact_pass_wall_s", std::isnan(contact_pass_wall) ? missing : fmt::format("{:.4f}", contact_pass_wall)},
          // The rest of the device's step: integration, the energy sums, the host's books.
          {"integration_wall_s",
           std::isnan(contact_pass_wall) ? missing : fmt::format("{:.4f}", wall - rebuild_wall - contact_pass_wall)},
          // The shares of the wall time on one thread while the others wait
          // (with it, Amdahl's law bounds the speed-up on more cores), and
          // that the threads wait within the shared passes (hand-offs, an
          // uneven split).
          {"serial_share",
           threads_of(o, t) < 2 ? missing : fmt::format("{:.4f}", std::max(0.0, 1.0 - shared_jobs_wall / wall))},
          {"wait_share", threads_of(o, t) < 2 ? missing : fmt::format("{:.4f}", waiting_wall / wall)}};
}

// The case's frames: what each costs, against a step of its first
// variant's timing.
void print_frame_costs(const Case& c, const SettledCase& s, const BenchOptions& o, const Timing& first,
                       bool& header_printed) {
  Engine engine{EngineSnapshot(s.state)};
  const double step_seconds = first.wall / static_cast<double>(std::max(s.timed_steps, 1L));
  for (const FrameCost& cost : frame_costs(engine, kPackingArcResolution, std::max(o.repeat, 3))) {
    const BenchRecord record{{"record", "\"frame\""},
                             {"scene", fmt::format("\"{}\"", c.kind.name)},
                             {"n", fmt::format("{}", s.grains)},
                             {"fields", fmt::format("\"{}\"", cost.fields)},
                             {"precision", fmt::format("\"{}\"", cost.precision)},
                             {"bytes_per_grain", fmt::format("{:.1f}", cost.bytes_per_grain)},
                             {"write_ms", fmt::format("{:.3f}", 1e3 * cost.write_seconds)},
                             {"step_ms", fmt::format("{:.3f}", 1e3 * step_seconds)},
                             {"steps_per_frame", fmt::format("{:.2f}", cost.write_seconds / step_seconds)},
                             {"threads", fmt::format("{}", threads_of(o, 0))}};
    print_bench_record(record, o.csv, header_printed);
  }
}

}  // namespace

int run_bench_command(const std::vector<std::string>& args) {
  BenchOptions o;
  if (const auto stop = parse_bench_options(args, o)) return *stop;
  std::vector<Case> cases;
  for (const auto& k : o.kinds)
    for (int n : o.sizes) cases.push_back({k, n});
  if (o.large) cases.push_back({bench::scene_named("hexagons"), 1000000});
  if (o.hopper) cases.push_back({{kHopper, kHopperVertices}, 0});
  if (o.rigid)
    run_rigid_bench({o.sizes, o.steps, o.settle_steps, o.rigid_tolerances, o.rigid_solvers, o.rigid_frictions,
                     o.rigid_threads, o.csv, o.data});
  bool header_printed = false;
  for (const Case& c : cases) {
    SettledCase settled = settle(c, o);
    const std::vector<Timing> timings = time_case(settled, o);
    for (std::size_t t = 0; t < variant_count(o); ++t) {
      print_bench_record(record_of(c, settled, o, timings, t), o.csv, header_printed);
      if (!timings[t].identical)
        throw std::runtime_error(fmt::format(
            "{} with {} threads, {} and backend {} differs from {} threads, {} and backend {}: a reproducibility bug",
            c.kind.name, threads_of(o, t), to_string(strategy_of(o, t)), to_string(backend_of(o, t)), threads_of(o, 0),
            to_string(strategy_of(o, 0)), to_string(backend_of(o, 0))));
    }
    if (o.frames) print_frame_costs(c, settled, o, timings.front(), header_printed);
  }
  return 0;
}

}  // namespace sphero::app
