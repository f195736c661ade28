// `sphero run [SCENE] [options] [--key value ...]`: runs a scene (the
// built-in default one when none is given), writing frames, energy.csv and
// checkpoints; `--check` only validates. The run itself is the library's
// (run/run_driver.h): this file chooses its start, its folder and its
// observers.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>

#include "app/check_listing.h"
#include "app/commands.h"
#include "app/data_directory.h"
#include "app/default_scene.h"
#include "app/opencl_backend.h"
#include "app/progress_line.h"
#include "app/run_folder.h"
#include "app/run_options.h"
#include "app/run_report.h"
#include "engine/thread_team.h"
#include "io/checkpoint.h"
#include "io/run_output.h"
#include "io/scene.h"
#include "io/single_precision.h"
#include "io/stage.h"
#include "packing/spatial_order.h"
#include "parallel/distributed_engine.h"
#include "run/checkpoint_observer.h"
#include "run/frame_observers.h"
#include "run/rank_run.h"
#include "run/run_driver.h"
#include "run/run_start.h"
#include "run/serial_run.h"
#include "run/stage_plan.h"
#include "run/stop_request.h"

namespace sphero::app {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRunUsage =
    "usage: sphero run [SCENE.ini] [--check] [--restart CHECKPOINT] [--from CHECKPOINT] [--overwrite] [--take-over] "
    "[--quiet]\n"
    "                  [--KEY VALUE ...]\n"
    "\n"
    "  SCENE.ini          the scene (default: the built-in hopper of cows, data/scenes/hopper.ini)\n"
    "  --check            validate the scene and its layout, run nothing\n"
    "  --restart FILE     continue from a checkpoint written by an earlier run of the same scene: in that run's\n"
    "                     folder, or, with an --output folder holding no run, afresh there from the checkpoint\n"
    "  --from FILE        a new run, in its own output folder, from a checkpoint's bodies, contacts and time, with\n"
    "                     everything else from SCENE.ini applied as a stage (docs/SCENES.md, \"Stages\")\n"
    "  --overwrite        reuse an output directory that already holds files\n"
    "  --take-over        write into a folder whose lock names a process of another host (ended)\n"
    "  --quiet            no progress, only errors and the summary\n"
    "  --KEY VALUE        override any scene key, e.g. --gravity 0,-9.81 --duration 5\n"
    "\n";

// A hint where many grains are listed in no spatial order (a packing made
// elsewhere, or from sites given in random order): empty otherwise.
std::string listing_note(const World& w) {
  constexpr std::size_t kFewGrains = 1000;  // below, the order hardly matters
  std::vector<Vec2> centres;
  std::vector<double> sizes;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!w.is_wall[i]) centres.push_back(w.position[i]), sizes.push_back(2.0 * w.bounding_radius[i]);
  if (centres.size() < kFewGrains) return {};
  const double step = median_listing_step(centres, sizes);
  if (step <= kDisorderedListing) return {};
  return fmt::format(
      "  note: consecutive grains lie a median {:.3g} grain sizes apart. Listed along a curve, they step faster and "
      "gain from threads (10⁵ Voronoi grains at rest: 1.7x faster on one thread, 2.3x on two); re-list a packing with\n"
      "  sphero pack sort --packing FILE -o SORTED.vtu\n",
      step);
}

// An engine stepping `state` as the scene asks: its threads, neighbour
// strategy and backend, none of which changes the results.
// `backend`, when given, receives the header's line for the backend.
std::unique_ptr<Engine> engine_for(const std::function<std::unique_ptr<Engine>()>& make, const SceneConfig& scene,
                                   std::string* backend = nullptr) {
  std::unique_ptr<Engine> engine;
  try {
    engine = make();
  } catch (const std::invalid_argument& e) {
    throw SceneError(fmt::format("{}: {}", scene.source, e.what()));
  }
  engine->set_threads(scene.threads);
  engine->set_neighbour_strategy(scene.engine.neighbours);
  if (scene.backend == Backend::opencl) {
    const std::string description = use_opencl_backend(*engine, scene.source).description;
    if (backend) *backend = "  backend: " + description + "\n";
  }
  return engine;
}

// The stages, for the run's header and --check; empty for one stage.
std::string stages_listing(const std::vector<StagePlan>& stages) {
  if (stages.size() < 2) return {};
  std::string listing = "  stages:";
  for (const StagePlan& s : stages) listing += fmt::format(" {} (steps {} to {})", s.name, s.first_step, s.end_step);
  return listing + "\n";
}

std::size_t grains_of(const World& world) {
  return static_cast<std::size_t>(std::count(world.is_wall.begin(), world.is_wall.end(), std::uint8_t{0}));
}

// An engine for a later stage's state, as the scene asks.
EngineMaker engine_maker(const SceneConfig& scene) {
  return [&scene](EngineSnapshot state) {
    return engine_for([&] { return std::make_unique<Engine>(std::move(state)); }, scene);
  };
}

// A scene asking for single precision where a float would round its
// points past their meaning is refused before anything runs.
void refuse_single_precision_where_it_breaks(const SceneConfig& scene, const World& world) {
  if (!scene.single_precision) return;
  try {
    check_single_precision(world, scene.source);
  } catch (const std::invalid_argument& e) {
    throw SceneError(e.what());
  }
}

// The folder's RunOutput for a run whose state is at `time` now.
RunOutput open_output(const RunOptions& options, const SceneConfig& scene, const std::vector<WallColumns>& columns,
                      const PeriodicCell& cell, double time, const RunLineage& lineage, const RunIdentity& continued) {
  const fs::path out = scene.output_directory;
  FolderLock claim = prepare_output_directory(
      out, options, [](const std::string& notice) { fmt::print(stderr, "sphero run: {}\n", notice); }, "sphero run",
      options.restart.empty() ? lineage.parent : continued);
  std::optional<double> resume_at;
  if (!options.restart.empty()) resume_at = time;
  const bool events = scene.engine.model == Model::rigid && scene.engine.rigid.events;
  RunOutput output(out, columns, cell, scene.arc_resolution, run_fields(scene).all, resume_at, lineage, events);
  output.hold(std::move(claim));
  output.set_single_precision(scene.single_precision);
  // A --from run's frames go on from its parent's numbers, and so do a
  // --from run's and a branch's shape rows.
  if (!options.from.empty() && options.restart.empty())
    output.number_frames_from(first_frame_number(options.from, time));
  const fs::path parent = fs::path(options.restart.empty() ? options.from : options.restart).parent_path();
  if (!options.from.empty() || !options.restart.empty()) output.number_shapes_from(parent.empty() ? "." : parent);
  return output;
}

// The driver's run; a later stage refused where it begins (grains that
// find no room) says where the run stopped and how to go on.
RunOutcome run_saying_where_a_stage_is_refused(RunDriver& driver, const RunOptions& options, const fs::path& out,
                                               const fs::path& checkpoint) {
  try {
    return driver.run();
  } catch (const SceneError& e) {
    if (driver.stage() + 1 >= driver.stages().size()) throw;
    throw SceneError(fmt::format(
        "{}. The run stopped at t = {:g} s, where stage {} begins, and saved {}: mend the stage, then continue with: "
        "{}",
        e.what(), driver.stepped().time(), driver.stages()[driver.stage() + 1].name, checkpoint.string(),
        continue_command(options, out, checkpoint)));
  }
}

// The run's first line: what it runs, how long, and where it writes.
void print_header(const SceneConfig& scene, std::size_t grains, const RunDriver& driver, double dt,
                  const std::string& note) {
  const StagePlan& now = driver.stages()[driver.stage()];
  const long step = driver.stepped().step_count();
  const double time = driver.stepped().time();
  fmt::print("sphero run: {}\n  {} grains, dt = {:g} s, {} steps to t = {:g} s, frames every {:g} s into {}/\n{}",
             scene.source, grains, dt, driver.stages().back().end_step - step, end_time(driver.stages(), step, time),
             static_cast<double>(now.frame_every) * dt, scene.output_directory.string(), note);
}

// Rank 0 alone builds the scene's state (or reads the checkpoint): the
// other ranks receive their parts of it, and the plan of the stages. A
// failure there stops every rank with rank 0's message.
struct RanksStart {
  EngineSnapshot whole;              // rank 0's
  std::vector<BodySource> sources;   // rank 0's
  std::vector<WallColumns> columns;  // rank 0's
  std::vector<StagePlan> stages;
  std::size_t stage = 0;
  RunIdentity continued;  // rank 0's: the run a restart's checkpoint is of
};

// Every stage's plan on every rank: rank 0's numbers (whole numbers and
// time steps, exact as doubles), the specs from each rank's scene.
void share_the_plan(const Ranks& ranks, const SceneConfig& scene, RanksStart& start) {
  const RunFields fields = run_fields(scene);
  start.stages.resize(scene.stages.size() + 1);
  for (std::size_t k = 0; k < start.stages.size(); ++k) {
    StagePlan& plan = start.stages[k];
    plan.name = k == 0 ? "first" : scene.stages[k - 1].name;
    plan.spec = k == 0 ? nullptr : &scene.stages[k - 1];
    plan.fields = fields.per_stage[k];
    for (long* n : {&plan.first_step, &plan.end_step, &plan.frame_every, &plan.checkpoint_every})
      *n = static_cast<long>(ranks.max(ranks.root() ? static_cast<double>(*n) : -1e300));
    plan.dt = ranks.max(ranks.root() ? plan.dt : -1e300);
  }
  start.stage = static_cast<std::size_t>(ranks.max(static_cast<double>(start.stage)));
}

RanksStart whole_state_on_root(const Ranks& ranks, const RunOptions& options, const SceneConfig& scene) {
  RanksStart start;
  std::exception_ptr failed;
  std::string failure;
  if (ranks.root()) {
    try {
      EngineSnapshot first = [&] {
        ProgressLine line(options.quiet);
        return first_stage_state(scene, options.from, &start.sources, line.callback());
      }();
      refuse_single_precision_where_it_breaks(scene, first.world);
      if (scene.backend == Backend::opencl)
        throw SceneError(
            fmt::format("{}: backend = opencl does not run on several ranks: drop mpirun or the key", scene.source));
      RunStart run =
          start_run(scene, std::move(first), options.from.empty(), options.restart,
                    [&](std::size_t k, const StagePlan& plan, const EngineSnapshot& stage) {
                      const std::string refusal = distributed_refusal(stage.settings);
                      if (refusal.empty()) return;
                      throw SceneError(k == 0 ? fmt::format("{}: {}", scene.source, refusal)
                                              : fmt::format("{}: stage {}: {}", scene.source, plan.name, refusal));
                    });
      start.stages = run.stages;
      start.stage = run.stage;
      start.continued = run.continued;
      start.columns = run.columns;
      // The serial engine that makes the state is gone (with this
      // statement) before the ranks' parts are made: its list is the
      // largest thing it holds.
      start.whole = Engine::snapshot_of(engine_for([&] { return run.engine(); }, scene));
    } catch (const std::exception& e) {
      failed = std::current_exception();
      failure = e.what();
      if (failure.empty()) failure = "rank 0 could not make the run's state";
    }
  }
  failure = ranks.broadcast(failure, 0);
  if (failed) std::rethrow_exception(failed);
  if (!failure.empty()) throw std::runtime_error(failure);
  share_the_plan(ranks, scene, start);
  return start;
}

// What --check says of a run on ranks.
void check_on_ranks(const Ranks& ranks, const SceneConfig& scene, const RunOptions& options, const RanksStart& start,
                    const RankRun& run, const std::string& header) {
  const DistributedEngine& engine = run.engine();
  const EngineSettings& settings = engine.settings();
  on_root(ranks, [&] {
    fmt::print("{}: valid. {} grains, dt = {:g} s (limit {:g}), Verlet distance {:g}, {} steps on {}{}{}{}",
               scene.source, engine.grains(), settings.dt, engine.time_step_limit(), settings.verlet_distance,
               start.stages.back().end_step - engine.step_count(), header, stages_listing(start.stages),
               walls_listing(engine.local().world()),
               options.restart.empty() && options.from.empty() ? sources_listing(start.sources) : "");
  });
}

// The end of a run on ranks: rank 0 writes final.ckpt and the summary, with
// every rank's CPU time and the busiest rank's wall time. Collective.
void finish_run_on_ranks(RankRun& run, const ProgressReport& progress, const RankFrames& frames,
                         const SceneConfig& scene, const RunOutput* output, long first_step) {
  const Ranks& ranks = run.ranks();
  const DistributedEngine& engine = run.engine();
  const double wall = progress.wall_seconds();
  const double cpu = ranks.sum(std::vector<double>{progress.cpu_seconds_used()})[0];  // every rank's
  const long decompositions = static_cast<long>(ranks.max(static_cast<double>(engine.decompositions())));
  const RankTimes& t = engine.times();
  const double most_stepping = ranks.max(t.stepping), most_exchanging = ranks.max(t.exchanging),
               most_decomposing = ranks.max(t.decomposing);
  const StateShare& last = frames.last_good();  // the state at the end: its frame
  const fs::path out = scene.output_directory;
  run.save_checkpoint(out / "final.ckpt", last);
  on_root(ranks, [&] {
    progress.finish();
    print_summary(
        RunTotals::of(last.header), nullptr, *output, out, last.header.step - first_step, engine.grains(), wall, cpu);
    fmt::print(
        "  ranks: {}, grains shared out {} times (the Cundall number counts every rank's CPU time); the "
        "busiest rank's wall time: steps {:.2f} s, exchanges {:.2f} s, sharing out {:.2f} s\n",
        ranks.size(), decompositions, most_stepping, most_exchanging, most_decomposing);
  });
}

// The scene on every rank of mpirun (parallel/distributed_engine.h): frames
// and checkpoints in pieces, one per rank. Each rank keeps its share of the
// last good state.
int run_on_ranks(const RunOptions& options, const SceneConfig& scene) {
  const Ranks ranks;
  RanksStart start = whole_state_on_root(ranks, options, scene);
  std::optional<RankRun> run;
  try {
    run.emplace(ranks, std::move(start.whole));
  } catch (const std::invalid_argument& e) {
    throw SceneError(fmt::format("{}: {}", scene.source, e.what()));
  }
  RunDriver driver(*run, start.stages, start.stage);
  const std::string header =
      fmt::format("{} ranks, subdomains by Zoltan's recursive bisection (rank 0 holds {} bodies with its ghosts)\n",
                  ranks.size(), run->engine().bodies_held());
  if (options.check) {
    check_on_ranks(ranks, scene, options, start, *run, header);
    return 0;
  }
  const fs::path out = scene.output_directory;
  std::optional<RunOutput> output;
  on_root(ranks, [&] {
    output.emplace(open_output(options, scene, start.columns, run->engine().local().world().cell, run->time(),
                               run->engine().lineage(), start.continued));
    if (!options.quiet) print_header(scene, run->engine().grains(), driver, run->engine().settings().dt, "  " + header);
  });
  RankFrames frames(*run, output ? &*output : nullptr, out, scene.arc_resolution, scene.single_precision);
  CheckpointObserver checkpoints(*run, out / "checkpoint.ckpt");
  driver.observe(frames);
  driver.observe(checkpoints);
  driver.start();
  stop_on_signals();
  const long first_step = run->step_count();
  ranks.max(0.0);  // every rank starts its clock with rank 0, whose first frame is written
  ProgressReport progress(
      options.quiet || !ranks.root(), run->engine().grains(), first_step, start.stages.back().end_step);
  driver.observe(progress);
  const RunOutcome outcome = run_saying_where_a_stage_is_refused(driver, options, out, checkpoints.path());
  if (outcome.ending != RunOutcome::Ending::finished) {
    int code = 0;
    on_root(ranks, [&] {
      code = report_early_end(outcome, run->time(), "mpirun ... " + continue_command(options, out, checkpoints.path()),
                              frames.last_good_time(), output->frames_written(), output->next_frame_number() - 1, out);
    });
    return static_cast<int>(ranks.max(static_cast<double>(code)));
  }
  finish_run_on_ranks(*run, progress, frames, scene, output ? &*output : nullptr, first_step);
  return 0;
}

// The scene on this process, through its stages.
int run_serially(const RunOptions& options, const SceneConfig& scene) {
  std::vector<BodySource> sources;
  EngineSnapshot first = [&] {
    ProgressLine line(options.quiet);
    return first_stage_state(scene, options.from, &sources, line.callback());
  }();
  refuse_single_precision_where_it_breaks(scene, first.world);
  RunStart start = start_run(scene, std::move(first), options.from.empty(), options.restart);
  std::string backend;  // the header's line for it, if not the CPU
  SerialRun run(engine_for([&] { return start.engine(); }, scene, &backend), engine_maker(scene));
  RunDriver driver(run, start.stages, start.stage);
  const World& world = run.engine().world();
  const std::size_t grains = grains_of(world);
  const EngineSettings& settings = run.engine().settings();
  const long end_step = start.stages.back().end_step;
  const std::string note =
      listing_note(world) + backend + rigid_listing(world, settings) + stages_listing(start.stages);
  if (options.check) {
    const double starting = run.engine().neighbour_verlet_distance();
    const std::string skin = starting < settings.verlet_distance
                                 ? fmt::format("{:g} (adaptive, from {:g}: four mean edge lengths of the grains)",
                                               settings.verlet_distance, starting)
                                 : fmt::format("{:g}", settings.verlet_distance);
    fmt::print("{}: valid. {} grains, {} walls, dt = {:g} s (limit {:g}), Verlet distance {}, {} steps\n{}{}{}",
               scene.source, grains, world.size() - grains, settings.dt, run.engine().time_step_limit(), skin,
               end_step - run.step_count(), note, walls_listing(world),
               options.restart.empty() && options.from.empty() ? sources_listing(sources) : "");
    return 0;
  }
  const fs::path out = scene.output_directory;
  RunOutput output =
      open_output(options, scene, start.columns, world.cell, run.time(), run.engine().lineage(), start.continued);
  stop_on_signals();
  if (!options.quiet) print_header(scene, grains, driver, settings.dt, note);
  // Frames in the background only where the engine leaves a core free.
  SerialFrames frames(run, output, scene.threads == 1 && ThreadTeam::usable_cores() > 1);
  CheckpointObserver checkpoints(run, out / "checkpoint.ckpt");
  driver.observe(frames);
  driver.observe(checkpoints);
  driver.start();
  const long first_step = run.step_count();
  ProgressReport progress(options.quiet, grains, first_step, end_step);
  driver.observe(progress);
  const RunOutcome outcome = run_saying_where_a_stage_is_refused(driver, options, out, checkpoints.path());
  if (outcome.ending != RunOutcome::Ending::finished)
    return report_early_end(outcome, run.time(), continue_command(options, out, checkpoints.path()),
                            frames.last_good_time(), output.frames_written(), output.next_frame_number() - 1, out);
  save_checkpoint(out / "final.ckpt", run.engine().snapshot());
  const double cpu = progress.cpu_seconds_used(), wall = progress.wall_seconds();
  progress.finish();
  // The grains at the end (stages may have added some) for the Cundall number.
  print_summary(run.totals(), &run.engine(), output, out, run.step_count() - first_step,
                grains_of(run.engine().world()), wall, cpu);
  return 0;
}

}  // namespace

int run_run_command(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << kRunUsage << scene_keys_help();
      return 0;
    }
  const RunOptions options = parse_run_arguments(args);
  const SceneConfig scene = options.scene_file.empty() ? parse_scene(kDefaultSceneText, kDefaultSceneLabel,
                                                                     data_directory() / "scenes", options.overrides)
                                                       : read_scene(options.scene_file, options.overrides);
  if (Ranks().size() > 1) return run_on_ranks(options, scene);
  return run_serially(options, scene);
}

}  // namespace sphero::app
