// `sphero bench [options]`: the Cundall number (particle-steps per CPU
// second) of the standard scenes of bench/ — dense, frictional, damped
// packings settled under gravity (not timed) — for several N and thread
// counts, and of the built-in default scene (`hopper`: 200 cows falling
// through a hopper onto a pile, timed from the start, where lists expire
// and rebuilds cost as much as contacts); one JSON record per line on
// stdout.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cmath>
#include <chrono>
#include <ctime>
#include <sstream>
#include <thread>

#include "app/command_line.h"
#include "app/commands.h"
#include "app/default_scene.h"
#include "bench/machine_probe.h"
#include "bench/standard_scenes.h"
#include "io/scene.h"

namespace sphero::app {
namespace {

std::vector<int> integers(const std::string& option, const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    try {
      std::size_t used = 0;
      const double value = std::stod(part, &used);  // 1e5 as well as 100000
      if (used != part.size() || value < 1 || value > 1e8 || value != static_cast<int>(value)) throw std::invalid_argument(part);
      out.push_back(static_cast<int>(value));
    } catch (const std::exception&) {
      throw std::invalid_argument(fmt::format("--{}: '{}' is not a positive whole number", option, part));
    }
  }
  if (out.empty()) throw std::invalid_argument(fmt::format("--{}: give at least one number", option));
  return out;
}

// The moving benchmark: `sphero run`'s built-in default scene.
constexpr const char* kHopper = "hopper";
constexpr int kHopperVertices = 62;

// The engine at the scene's start, and the steps of its whole duration.
std::pair<Engine, long> hopper_engine(double verlet_distance) {
  std::vector<std::string> overrides;
  if (verlet_distance > 0.0) overrides = {"--verlet_distance", fmt::format("{}", verlet_distance)};
  const SceneConfig scene = parse_scene(kDefaultSceneText, "built-in default scene (data/scenes/hopper.ini)",
                                        kDefaultSceneDirectory, overrides);
  World world = build_world(scene);
  const EngineSettings settings = resolve_engine_settings(scene, world);
  return {Engine(std::move(world), settings), std::lround(scene.duration / settings.dt)};
}

double cpu_now() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }
double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int run_bench_command(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string scenes_text = "all", n_text = "1000,10000,100000", threads_text = "1,2", data = SPHERO_DATA_DIR;
  long steps = 0, settle_steps = 0;
  int repeat = 1;
  double seconds = 2.0, verlet = 0.0;
  po::options_description options("options");
  options.add_options()("help,h", "show this help")(
      "scene", po::value(&scenes_text), "comma-separated: disks, hexagons, polygon6, polygon16, polygon32, polygon64, cows, hopper, or all; also polygon3. hopper: the built-in default scene of `sphero run` (200 cows, not settled, --n ignored), timed over its whole 10 s (43 937 steps) unless --steps")(
      "n", po::value(&n_text), "particle counts (default 1000,10000,100000)")(
      "large", "also 10^6 hexagons (a few GB of memory while the scene is built; minutes)")(
      "threads", po::value(&threads_text), "thread counts (default 1,2); results are compared for identity")(
      "steps", po::value(&steps), "timed steps per case (default: as many as --seconds takes with the first thread count)")(
      "seconds", po::value(&seconds), "timing per case when --steps is not given (default 2)")(
      "repeat", po::value(&repeat), "time each case this many times, the thread counts in turn, and report the fastest (default 1)")(
      "verlet-distance", po::value(&verlet), "fixed skin per body (default: adaptive, at most 5% of a size)")(
      "settle-steps", po::value(&settle_steps), "settling steps (default: until at rest, 100000 at most; a larger scene tiles a settled block of 1000 and continues it)")(
      "csv", "print CSV (a header, then a row per case) instead of JSON lines")(
      "ceiling", "also time two one-thread copies of each case at once, one per core, and report pair_speedup: twice the one-thread wall time over the slower copy's, what two threads could reach if they shared nothing (needs 1 among --threads); and round_trip_ns: the median time, over the trials, for a cache line to go from one core to the other and back, which bounds what two threads sharing a small scene's step can gain")(
      "no-contact-lists", "time without contact lists: every vertex pair of neighbouring particles, each step")(
      "full-rebuilds", "rebuild every expired list whole, not only the pairs of the few bodies that moved (the cost partial rebuilds save)")(
      "data", po::value(&data), "the data directory holding shapes/cow.shape");
  po::variables_map vm;
  std::string unused;
  if (const auto stop = parse_command_line(args, options, unused, false, "bench", "usage: sphero bench [options]\n", vm))
    return *stop;
  if (!unused.empty()) throw std::invalid_argument(fmt::format("unexpected argument '{}'", unused));
  std::vector<bench::SceneKind> kinds;
  bool hopper = false;
  if (scenes_text == "all") {
    kinds = bench::standard_scenes();
    hopper = true;
  } else {
    std::stringstream in(scenes_text);
    for (std::string name; std::getline(in, name, ',');)
      if (name == kHopper)
        hopper = true;
      else
        kinds.push_back(bench::scene_named(name));
  }
  const std::vector<int> sizes = integers("n", n_text), thread_counts = integers("threads", threads_text);
  if (steps < 0 || settle_steps < 0 || !(seconds > 0.0) || verlet < 0.0 || repeat < 1)
    throw std::invalid_argument("--steps, --settle-steps, --seconds, --repeat and --verlet-distance must be positive");
  struct Case {
    bench::SceneKind kind;
    int n;
  };
  const bool csv = vm.count("csv") > 0;
  const std::string missing = csv ? "" : "null";  // a field not measured
  const bool ceiling = vm.count("ceiling") > 0;
  bool header_printed = false;
  std::vector<Case> cases;
  for (const auto& k : kinds)
    for (int n : sizes) cases.push_back({k, n});
  if (vm.count("large")) cases.push_back({bench::scene_named("hexagons"), 1000000});
  if (hopper) cases.push_back({{kHopper, kHopperVertices}, 0});

  for (const Case& c : cases) {
    bench::SceneOptions o;
    o.particles = c.n;
    o.threads = *std::max_element(thread_counts.begin(), thread_counts.end());  // settle fast
    o.verlet_distance = verlet;
    o.settle_steps = settle_steps;
    const double settle_start = wall_now();
    const bool moving = c.kind.name == kHopper;
    long whole_run = 0;
    const Engine settling = moving ? [&] {
      auto [engine, run_steps] = hopper_engine(verlet);
      whole_run = run_steps;
      return std::move(engine);
    }()
                                   : bench::settled_scene(c.kind, o, data);
    const double residual = moving ? NAN : bench::residual_speed(settling);
    // Large scenes are whole copies of a settled block: N may be rounded up.
    const auto grains = static_cast<int>(std::count(settling.world().big.begin(), settling.world().big.end(), 0));
    EngineSnapshot settled = settling.snapshot();
    const bool lists = !vm.count("no-contact-lists");
    if (!lists) {
      settled.settings.contact_lists = false;
      settled.neighbours.built = false;  // rebuilt at the first timed step, with every vertex pair
    }
    if (vm.count("full-rebuilds")) settled.settings.partial_rebuilds = false;
    const double settle_wall = wall_now() - settle_start;
    // The hopper is timed over its whole run (its phases differ too much for
    // a few seconds of it to say anything), unless --steps says otherwise.
    long timed_steps = steps > 0 || !moving ? steps : whole_run;
    // What a case's record needs from its fastest trial.
    struct Timing {
      double wall = INFINITY, cpu = 0.0, verlet_distance = 0.0;
      long rebuilds = 0, partial_rebuilds = 0, pairs = 0;
      std::size_t bytes = 0;
      bool identical = true;
    };
    std::vector<Timing> timings(thread_counts.size());
    std::vector<Vec2> first_positions;
    // Each trial times the same steps from the same settled state (the
    // same results) with every thread count in turn, so that the counts
    // are compared at the same time: this VM's capacity for two busy
    // threads drifts within minutes. The fastest trial by wall time is
    // reported; on a shared machine the slow ones measure the neighbours.
    // With --ceiling, each trial also steps two one-thread copies at once,
    // one per core: the speed-up two threads could reach on this machine
    // in this minute if they shared nothing (this VM's two vCPUs are not
    // always two whole cores' worth).
    double pair_wall = INFINITY;
    std::vector<double> round_trips;
    const auto time_pair = [&] {
      Engine first{EngineSnapshot(settled)}, second{EngineSnapshot(settled)};
      first.set_threads(1), second.set_threads(1);
      double second_wall = 0.0;
      const double wall0 = wall_now();
      std::thread other([&] {
        second.run(timed_steps);
        second_wall = wall_now() - wall0;
      });
      first.run(timed_steps);
      const double first_wall = wall_now() - wall0;
      other.join();
      pair_wall = std::min(pair_wall, std::max(first_wall, second_wall));
    };
    for (int trial = 0; trial < repeat; ++trial) {
      if (ceiling)
        if (const double ns = bench::core_round_trip_ns(); std::isfinite(ns)) round_trips.push_back(ns);
      for (std::size_t t = 0; t < thread_counts.size(); ++t) {
        Engine e{EngineSnapshot(settled)};
        e.set_threads(thread_counts[t]);
        const long rebuilds = e.neighbour_stats().rebuilds, pairs = e.neighbour_stats().feature_pairs_evaluated;
        const long partial_rebuilds = e.neighbour_partial_rebuilds();
        const double cpu0 = cpu_now(), wall0 = wall_now();
        if (timed_steps > 0) {
          e.run(timed_steps);
        } else {
          long done = 0;
          while (wall_now() - wall0 < seconds) e.run(10), done += 10;
          timed_steps = done;
        }
        const double trial_cpu = cpu_now() - cpu0, trial_wall = wall_now() - wall0;
        Timing& best = timings[t];
        if (first_positions.empty())
          first_positions = e.world().position;
        else
          best.identical = best.identical && first_positions == e.world().position;
        if (trial_wall < best.wall) {
          best.wall = trial_wall, best.cpu = trial_cpu;
          best.rebuilds = e.neighbour_stats().rebuilds - rebuilds;
          best.partial_rebuilds = e.neighbour_partial_rebuilds() - partial_rebuilds;
          best.pairs = e.neighbour_stats().feature_pairs_evaluated - pairs;
          best.verlet_distance = e.neighbour_verlet_distance();
          best.bytes = e.memory_bytes();
        }
      }
      if (ceiling) time_pair();  // after the thread counts: trial 0's first fixed the steps
    }
    std::sort(round_trips.begin(), round_trips.end());
    const std::string round_trip = round_trips.empty() ? missing : fmt::format("{:.0f}", round_trips[round_trips.size() / 2]);
    for (std::size_t t = 0; t < thread_counts.size(); ++t) {
      const int threads = thread_counts[t];
      const auto& [wall, cpu, verlet_distance, rebuilds, partial_rebuilds, pairs, bytes, identical] = timings[t];
      const double particle_steps = static_cast<double>(grains) * static_cast<double>(timed_steps);
      const std::vector<std::pair<const char*, std::string>> record{
          {"scene", fmt::format("\"{}\"", c.kind.name)},
          {"n", fmt::format("{}", grains)},
          {"vertices", fmt::format("{}", c.kind.vertices)},
          {"contact_lists", lists ? "true" : "false"},
          {"steps", fmt::format("{}", timed_steps)},
          {"threads", fmt::format("{}", threads)},
          {"wall_s", fmt::format("{:.4f}", wall)},
          {"cpu_s", fmt::format("{:.4f}", cpu)},
          {"cundall", fmt::format("{:.4g}", particle_steps / std::max(cpu, 1e-9))},
          {"cundall_wall", fmt::format("{:.4g}", particle_steps / std::max(wall, 1e-9))},
          {"speedup", fmt::format("{:.3f}", timings[0].wall / std::max(wall, 1e-9))},
          {"identical_to_first", identical ? "true" : "false"},
          {"bytes_per_particle", fmt::format("{:.0f}", static_cast<double>(bytes) / grains)},
          {"rebuilds", fmt::format("{}", rebuilds)},
          {"partial_rebuilds", fmt::format("{}", partial_rebuilds)},
          {"pairs_per_particle_step", fmt::format("{:.3f}", static_cast<double>(pairs) / particle_steps)},
          {"verlet_distance", fmt::format("{:.4g}", verlet_distance)},
          {"settle_wall_s", fmt::format("{:.1f}", settle_wall)},
          {"settled_speed", std::isnan(residual) ? missing : fmt::format("{:.2g}", residual)},
          {"repeats", fmt::format("{}", repeat)},
          {"pair_speedup", ceiling && thread_counts.front() == 1 ? fmt::format("{:.3f}", 2.0 * timings[0].wall / pair_wall) : missing},
          {"round_trip_ns", round_trip}};
      std::string line;
      if (csv) {
        if (!header_printed) {
          for (const auto& [key, value] : record) line += fmt::format("{}{}", line.empty() ? "" : ",", key);
          fmt::print("{}\n", line);
          line.clear();
          header_printed = true;
        }
        for (const auto& [key, value] : record) {
          std::string bare = value;
          bare.erase(std::remove(bare.begin(), bare.end(), '"'), bare.end());
          line += fmt::format("{}{}", line.empty() ? "" : ",", bare);
        }
      } else {
        for (const auto& [key, value] : record) line += fmt::format("{}\"{}\": {}", line.empty() ? "{" : ", ", key, value);
        line += "}";
      }
      fmt::print("{}\n", line);
      std::fflush(stdout);
      if (!identical)
        throw std::runtime_error(fmt::format("{} with {} threads differs from {} threads: a reproducibility bug",
                                             c.kind.name, threads, thread_counts.front()));
    }
  }
  return 0;
}

}  // namespace sphero::app
