// `sphero run [SCENE] [options] [--key value ...]`: runs a scene (the
// built-in default one when none is given), writing frames, energy.csv and
// checkpoints; `--check` only validates.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <ctime>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "app/analysis_files.h"
#include "app/check_listing.h"
#include "app/commands.h"
#include "app/data_directory.h"
#include "app/default_scene.h"
#include "app/opencl_backend.h"
#include "app/progress_line.h"
#include "app/restart_check.h"
#include "app/run_stages.h"
#include "engine/thread_team.h"
#include "engine/triangulation_neighbours.h"
#include "io/checkpoint.h"
#include "io/run_output.h"
#include "io/scene.h"
#include "io/stage.h"
#include "packing/spatial_order.h"
#include "parallel/distributed_engine.h"

namespace sphero::app {
namespace {

namespace fs = std::filesystem;

std::atomic<int> g_signal{0};
extern "C" void remember_signal(int signal) { g_signal = signal; }

// Frames written on a second thread while the run goes on, where the engine
// runs on one thread and the machine has another core: writing frames is a
// large share of a small run's time. Each frame is written from the step's
// snapshot (an Engine restored from it), so the files are those the live
// engine would give, byte for byte. At most one frame waits while another
// is written; a failure surfaces at the next frame or at flush(), and the
// run then stops with it, as it would have at the write itself.
class FrameWriter {
 public:
  FrameWriter(RunOutput& output, bool background) : output_(output) {
    if (background) thread_ = std::thread([this] { work(); });
  }
  FrameWriter(const FrameWriter&) = delete;
  FrameWriter& operator=(const FrameWriter&) = delete;
  ~FrameWriter() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  // `snapshot` is `engine`'s state now.
  void write(const Engine& engine, const EngineSnapshot& snapshot) {
    if (!thread_.joinable()) {
      output_.write_frame(engine, snapshot.ledger);  // its exact sums, taken once
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !waiting_ || failure_; });
    if (failure_) std::rethrow_exception(failure_);
    waiting_ = snapshot;
    changed_.notify_all();
  }

  // Returns when every frame handed over is on disk; throws a failure.
  void flush() {
    if (!thread_.joinable()) return;
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return (!waiting_ && !busy_) || failure_; });
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return waiting_ || quit_; });
      if (!waiting_) return;
      EngineSnapshot state = std::move(*waiting_);
      waiting_.reset();
      busy_ = true;
      lock.unlock();
      std::exception_ptr failure;
      try {
        const EnergyLedger ledger = state.ledger;
        const Engine copy(std::move(state));
        output_.write_frame(copy, ledger);
      } catch (...) {
        failure = std::current_exception();
      }
      lock.lock();
      busy_ = false;
      if (failure) {
        failure_ = failure;
        waiting_.reset();  // nothing after a frame that could not be written
      }
      changed_.notify_all();
    }
  }

  RunOutput& output_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<EngineSnapshot> waiting_;  // handed over, not yet taken up
  bool busy_ = false, quit_ = false;       // writing one; the run is over
  std::exception_ptr failure_;
};

constexpr const char* kRunUsage =
    "usage: sphero run [SCENE.ini] [--check] [--restart CHECKPOINT] [--from CHECKPOINT] [--overwrite] [--quiet]\n"
    "                  [--KEY VALUE ...]\n"
    "\n"
    "  SCENE.ini          the scene (default: the built-in hopper of cows, data/scenes/hopper.ini)\n"
    "  --check            validate the scene and its layout, run nothing\n"
    "  --restart FILE     continue from a checkpoint written by an earlier run of the same scene: in that run's\n"
    "                     folder, or, with an --output folder holding no run, afresh there from the checkpoint\n"
    "  --from FILE        a new run, in its own output folder, from a checkpoint's bodies, contacts and time, with\n"
    "                     everything else from SCENE.ini applied as a stage (docs/SCENES.md, \"Stages\")\n"
    "  --overwrite        reuse an output directory that already holds files\n"
    "  --quiet            no progress, only errors and the summary\n"
    "  --KEY VALUE        override any scene key, e.g. --gravity 0,-9.81 --duration 5\n"
    "\n";

struct RunOptions {
  std::string scene_file;
  bool check = false, overwrite = false, quiet = false;
  std::string restart, from;
  std::vector<std::string> overrides;
};

RunOptions parse_arguments(const std::vector<std::string>& args) {
  RunOptions o;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    if (a == "--check") {
      o.check = true;
    } else if (a == "--overwrite") {
      o.overwrite = true;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a == "--restart") {
      if (k + 1 >= args.size() || args[k + 1].empty())
        throw SceneError("command line: --restart needs a checkpoint file");
      o.restart = args[++k];
    } else if (a == "--from") {
      if (k + 1 >= args.size() || args[k + 1].empty()) throw SceneError("command line: --from needs a checkpoint file");
      o.from = args[++k];
    } else if (a.rfind("--", 0) == 0) {
      o.overrides.push_back(a);
      if (k + 1 < args.size() && a.find('=') == std::string::npos) o.overrides.push_back(args[++k]);
    } else if (a.empty()) {
      throw SceneError("command line: an empty scene file name (leave it out for the built-in scene)");
    } else if (o.scene_file.empty()) {
      o.scene_file = a;
    } else {
      throw SceneError(fmt::format("command line: a second scene file '{}'; give one", a));
    }
  }
  return o;
}

std::string clock_text(double seconds) {
  const long s = std::lround(seconds);
  return s >= 3600 ? fmt::format("{}h{:02d}m", s / 3600, (s % 3600) / 60) : fmt::format("{}m{:02d}s", s / 60, s % 60);
}

// What an earlier run left in a directory we may overwrite: its frames,
// collections, manifest, energy log, checkpoints, the tables `sphero
// analyze` derived from it (stale after a new run) and any temporary files
// of a killed write. Nothing else is touched (figures included).
void clear_run_files(const fs::path& directory) {
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    const std::string ext = entry.path().extension().string();
    const bool ours = ext == ".vtu" || ext == ".pvtu" || ext == ".pvd" || ext == ".ckpt" || name == "energy.csv" ||
                      name == "run.sphero" || is_analysis_file(name) ||
                      (name.rfind(".", 0) == 0 && name.find(".tmp") != std::string::npos);
    if (ours && entry.is_regular_file()) fs::remove(entry.path());
  }
}

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

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

// The state a run's first stage starts from: the scene's world and
// settings at step 0, or, with --from, the checkpoint's whole state with
// the scene applied to it as a stage.
EngineSnapshot first_stage_state(const RunOptions& options, const SceneConfig& scene, std::vector<BodySource>* sources,
                                 const Progress& progress) {
  EngineSnapshot state;
  if (!options.from.empty()) {
    state = load_checkpoint(options.from);
    start_stage_from(scene, state, options.from);
    return state;
  }
  state.world = build_world(scene, progress, sources);
  state.settings = resolve_engine_settings(scene, state.world);
  return state;
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

// Where the run starts: its engine, its stages and the one it is in.
struct RunStart {
  std::unique_ptr<Engine> engine;
  std::vector<StagePlan> stages;
  std::size_t stage = 0;
  std::vector<WallColumns> columns;  // energy.csv's: every wall, loaded where a stage loads it
  std::string backend;               // the header's line for the backend, if not the CPU
};

// A restart continues to the scene's end: a checkpoint at or past it has
// nothing left to run, and a duration that ends before it is a mistake.
void refuse_a_restart_past_the_end(const EngineSnapshot& checkpoint, const std::vector<StagePlan>& stages,
                                   const EngineSnapshot& first, const std::string& file) {
  const long end = stages.back().end_step;
  if (checkpoint.step < end) return;
  const double end_at = end_time(stages, first.step, first.time);
  throw SceneError(fmt::format(
      "{}: the checkpoint is at t = {:.6g} s (step {}), and the scene {} at t = {:.6g} s (step {}): nothing is left to "
      "run. To continue it, {}",
      file, checkpoint.time, checkpoint.step, checkpoint.step == end ? "ends there too" : "ends before it", end_at, end,
      stages.size() == 1 ? fmt::format("give a duration above {:.6g} s (--duration)", checkpoint.time - first.time)
                         : fmt::format("lengthen stage {}'s duration", stages.back().name)));
}

// The run from `first` (first_stage_state), or, with --restart, from the
// checkpoint, which must be what the scene makes at its time: the stage it
// belongs to is applied to the scene's state before they are compared.
RunStart start_run(const RunOptions& options, const SceneConfig& scene, EngineSnapshot first) {
  RunStart run;
  std::optional<EngineSnapshot> checkpoint;
  if (!options.restart.empty()) checkpoint = load_checkpoint(options.restart);
  bool placed = false;  // the checkpoint's stage found and checked
  run.stages = plan_stages(scene, first, [&](std::size_t k, const StagePlan& plan, const EngineSnapshot& stage) {
    const std::vector<WallColumns> columns = wall_columns(stage.world, FramePiece{});
    if (run.columns.empty()) run.columns = columns;
    for (std::size_t c = 0; c < columns.size(); ++c) run.columns[c].loaded = run.columns[c].loaded || columns[c].loaded;
    // A checkpoint belongs to the first stage that ends at or after its
    // step (the last, for a run already at its end).
    if (!checkpoint || placed || (checkpoint->step > plan.end_step && k < scene.stages.size())) return;
    placed = true;
    run.stage = k;
    check_restart(*checkpoint, stage.world, stage.settings, options.restart, scene.source);
  });
  if (checkpoint) refuse_a_restart_past_the_end(*checkpoint, run.stages, first, options.restart);
  if (!checkpoint) {
    run.engine = engine_for(
        [&] {
          return options.from.empty() ? std::make_unique<Engine>(std::move(first.world), first.settings)
                                      : std::make_unique<Engine>(std::move(first));
        },
        scene, &run.backend);
    return run;
  }
  run.engine = engine_for([&] { return std::make_unique<Engine>(std::move(*checkpoint)); }, scene, &run.backend);
  return run;
}

// The stages, for the run's header and --check; empty for one stage.
std::string stages_listing(const std::vector<StagePlan>& stages) {
  if (stages.size() < 2) return {};
  std::string listing = "  stages:";
  for (const StagePlan& s : stages) listing += fmt::format(" {} (steps {} to {})", s.name, s.first_step, s.end_step);
  return listing + "\n";
}

// Whether the folder holds the run that wrote the checkpoint `restart`,
// which it continues: the checkpoint lies in it.
bool holds_the_checkpoints_run(const fs::path& out, const fs::path& restart) {
  std::error_code unknown;
  const fs::path folder = restart.has_parent_path() ? restart.parent_path() : fs::path(".");
  return fs::equivalent(folder, out, unknown);
}

// What --output names must be a folder or nothing yet: a file, a link to
// nothing and a loop of links are named as such before anything is read
// or written there.
void refuse_an_output_that_is_no_folder(const fs::path& out) {
  const std::string name = out.string();
  std::error_code error;
  const fs::file_status entry = fs::symlink_status(out, error);
  const auto looped = [&] { return error == std::make_error_code(std::errc::too_many_symbolic_link_levels); };
  if (!looped() && entry.type() == fs::file_type::not_found) return;  // created below
  if (error && !looped())
    throw SceneError(fmt::format("the output directory '{}' cannot be examined: {}", name, error.message()));
  // A link to itself shows its loop only when followed.
  const fs::file_status target = looped() ? entry : fs::status(out, error);
  if (looped())
    throw SceneError(
        fmt::format("the output directory '{}' leads through a loop of symbolic links; give another "
                    "folder with --output DIR",
                    name));
  if (fs::is_symlink(entry) && !fs::exists(target))
    throw SceneError(
        fmt::format("the output directory '{}' is a symbolic link to '{}', which does not exist: create "
                    "that folder, or give another with --output DIR",
                    name, fs::read_symlink(out, error).string()));
  if (!fs::is_directory(target))
    throw SceneError(
        fmt::format("the output directory '{}' is a file, not a folder: give a folder's name with --output "
                    "DIR (--overwrite replaces a run's files in a folder, never a file)",
                    name));
}

void prepare_output_directory(const fs::path& out, const RunOptions& options) {
  refuse_an_output_that_is_no_folder(out);
  const bool holds_a_run = fs::exists(out / "energy.csv") || fs::exists(out / "run.sphero");
  if (!options.restart.empty() && holds_a_run && !holds_the_checkpoints_run(out, options.restart)) {
    // Continuing here would splice the checkpoint's run into another one.
    if (!options.overwrite)
      throw SceneError(
          fmt::format("the output directory '{}' holds another run than the one that wrote '{}' (a "
                      "checkpoint continues in the folder it was written to): branch it into a new "
                      "folder with --output DIR, or pass --overwrite to replace that run",
                      out.string(), options.restart));
    clear_run_files(out);
  }
  if (options.restart.empty() && fs::exists(out) && !fs::is_empty(out)) {
    if (!options.overwrite)
      throw SceneError(
          fmt::format("the output directory '{}' already holds files; choose another with --output DIR "
                      "or pass --overwrite",
                      out.string()));
    clear_run_files(out);
  }
  std::error_code cannot;
  fs::create_directories(out, cannot);
  if (cannot)
    throw SceneError(fmt::format("the output directory '{}' cannot be created: {}", out.string(), cannot.message()));
}

// A word as the shell reads it back.
std::string shell_word(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@") ==
          std::string::npos)
    return word;
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') quoted.append("'\\''");  // close, an escaped quote, reopen
    else quoted.push_back(c);
  }
  quoted.push_back('\'');
  return quoted;
}

// The command that continues an interrupted run: the same scene and keys,
// into the same output directory, from its checkpoint.
std::string continue_command(const RunOptions& options, const fs::path& out, const fs::path& checkpoint) {
  std::vector<std::string> words{"sphero", "run"};
  if (!options.scene_file.empty()) words.push_back(shell_word(options.scene_file));
  const auto& given = options.overrides;
  for (std::size_t k = 0; k < given.size(); ++k) {
    if (given[k] == "--output") {
      ++k;  // and its value: the directory is named below
      continue;
    }
    if (given[k].rfind("--output=", 0) != 0) words.push_back(shell_word(given[k]));
  }
  if (!options.from.empty()) words.insert(words.end(), {"--from", shell_word(options.from)});
  words.insert(words.end(), {"--output", shell_word(out.string()), "--restart", shell_word(checkpoint.string())});
  return fmt::format("{}", fmt::join(words, " "));
}

// A progress line, every quarter second on a terminal, every ten seconds
// into a log.
class ProgressReport {
 public:
  ProgressReport(bool quiet, std::size_t grains, long first_step, long total_steps)
      : quiet_(quiet),
        terminal_(isatty(STDOUT_FILENO)),
        grains_(grains),
        first_step_(first_step),
        total_(total_steps) {}

  void after(const Engine& engine) { after(engine.step_count(), engine.time()); }
  void after(long step, double time) {
    const auto now = std::chrono::steady_clock::now();
    if (quiet_ || now - last_ <= std::chrono::milliseconds(terminal_ ? 250 : 10000)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - wall_start_).count();
    const double done = static_cast<double>(step - first_step_);
    const double rate = done / elapsed;
    const double cundall = done * static_cast<double>(grains_) / std::max(1e-9, cpu_seconds() - cpu_start_);
    const std::string line = fmt::format("{:5.1f}%  t = {:.4g} s  {:.0f} steps/s  Cundall {:.3g}  ETA {}",
                                         100.0 * static_cast<double>(step) / static_cast<double>(total_), time, rate,
                                         cundall, clock_text(static_cast<double>(total_ - step) / rate));
    if (terminal_) fmt::print("\r{:<78}", line);
    else fmt::print("{}\n", line);
    std::fflush(stdout);
  }
  void finish() const {
    if (terminal_ && !quiet_) fmt::print("\n");
  }
  double wall_seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
  }
  double cpu_seconds_used() const { return cpu_seconds() - cpu_start_; }

 private:
  bool quiet_, terminal_;
  std::size_t grains_;
  long first_step_, total_;
  std::chrono::steady_clock::time_point wall_start_ = std::chrono::steady_clock::now(), last_ = wall_start_;
  double cpu_start_ = cpu_seconds();
};

// What a run's summary says of its state at the end, however it ran.
struct RunTotals {
  double time;
  EnergyLedger ledger;
  double deepest_overlap, deepest_overlap_time;
  static RunTotals of(const Engine& e) { return {e.time(), e.ledger(), e.deepest_overlap(), e.deepest_overlap_time()}; }
  static RunTotals of(const EngineSnapshot& s) { return {s.time, s.ledger, s.deepest_overlap, s.deepest_overlap_time}; }
};

// `engine`, where the run has one (not on ranks), adds what its model and
// neighbour strategy counted.
void print_summary(const RunTotals& totals, const Engine* engine, const SceneConfig& scene, const RunOutput& output,
                   const fs::path& out, long steps, std::size_t grains, double wall, double cpu) {
  const EnergyLedger& l = totals.ledger;
  std::string collections;  // the .pvd files the scene's fields asked for
  for (const std::string& field : scene.fields) collections += (collections.empty() ? "" : ", ") + field + ".pvd";
  fmt::print(
      "sphero run: done, t = {:g} s in {} steps, {:.1f} s wall, Cundall number {:.3g} particle-steps per CPU second.\n"
      "  energy: mechanical {:.6g} J (started at {:.6g}), work in {:.6g} J, dissipated {:.6g} J, first-law residual "
      "{:.3g} J\n"
      "  contacts: deepest overlap {:.3g} of the two sphero-radii (t = {:g} s)\n"
      "  output: {}/run.sphero, {} ({} frames), energy.csv, final.ckpt\n"
      "  open in ParaView: {}/run.sphero with the Sphero plugin (README), or particles.pvd without it\n",
      totals.time, steps, wall, static_cast<double>(steps) * static_cast<double>(grains) / std::max(cpu, 1e-9),
      l.mechanical(), l.initial_mechanical, l.external_work, l.dissipated(), l.first_law_residual(),
      totals.deepest_overlap, totals.deepest_overlap_time, out.string(), collections, output.frames_written(),
      out.string());
  if (engine && engine->settings().model == Model::rigid) {
    const CollisionStats c = engine->collision_stats();
    const bool sweeps = engine->settings().rigid.solver == RigidSolver::gauss_seidel;
    const auto per = [](long count, long of) {
      return of > 0 ? static_cast<double>(count) / static_cast<double>(of) : 0.0;
    };
    fmt::print(
        "  collisions: {} steps with contacts, {:.1f} contacts in {:.1f} groups each (the largest {} bodies), {:.1f} "
        "{} per program, largest {} {:.2g}, {} position corrections; time: contacts and assembly {:.2f} s, programs "
        "{:.2f} s, corrections {:.2f} s\n",
        c.programs, per(c.contacts, c.programs), per(c.groups, c.programs), c.largest_group,
        per(c.iterations, c.group_programs), sweeps ? "Gauss-Seidel sweeps" : "interior-point iterations",
        sweeps ? "residual" : "KKT residual", c.largest_kkt_residual, c.corrections, c.seconds_detecting,
        c.seconds_solving, c.seconds_correcting);
    if (engine->settings().rigid.events)
      fmt::print(
          "  events: {} collisions met at their instants; {} of the {} steps handed to the time-stepping (resting "
          "contacts)\n",
          c.events, c.handed_over, steps);
  }
  if (const TriangulationNeighbours* t = engine ? engine->neighbour_triangulation() : nullptr) {
    const TriangulationStats s = t->stats();
    fmt::print(
        "  neighbours: void-space triangulation, {} list rebuilds moved it by {} flips; built from scratch {} "
        "times ({} of them when a move could not go on)\n",
        s.moves, s.flips, s.builds, s.rebuilds);
  }
  if (totals.deepest_overlap >= 0.9)
    fmt::print(stderr,
               "sphero run: warning: at t = {:g} s two skeletons met or crossed (an overlap of {:.3g} times the sum of "
               "the sphero-radii): the contact normal can flip there and energy is not conserved. Overlaps scale as "
               "v sqrt(m / kn): stiffen kn or slow the grains.\n",
               totals.deepest_overlap_time, totals.deepest_overlap);
}

// Whether step `step` of `stage` writes a frame: every frame_every steps
// from the stage's start, and at the run's end. A later stage's first frame
// is its start, written once the stage is applied, in place of the last
// step of the stage before.
bool frame_at(const StagePlan& stage, long step, bool last_stage) {
  if (step == stage.end_step) return last_stage;
  return (step - stage.first_step) % stage.frame_every == 0;
}

bool checkpoint_at(const StagePlan& stage, long step) {
  return stage.checkpoint_every > 0 && (step - stage.first_step) % stage.checkpoint_every == 0;
}

// Steps through the stages from `start.stage` to the end, writing frames
// and checkpoints, applying each later stage to the state the one before
// left; returns the exit code. On a signal it saves a checkpoint to
// continue from; on an instability, the last good state.
int step_through_stages(RunStart& start, RunOutput& output, const fs::path& out, const RunOptions& options,
                        const SceneConfig& scene, ProgressReport& progress) {
  std::unique_ptr<Engine>& engine = start.engine;
  EngineSnapshot last_good = engine->snapshot();
  // In the background only where the engine leaves a core free.
  FrameWriter frames(output, scene.threads == 1 && ThreadTeam::usable_cores() > 1);
  const fs::path checkpoint = out / "checkpoint.ckpt";
  try {
    for (std::size_t k = start.stage; k < start.stages.size(); ++k) {
      const StagePlan& stage = start.stages[k];
      const bool last_stage = k + 1 == start.stages.size();
      if (stage.spec && engine->step_count() == stage.first_step) {
        frames.flush();
        EngineSnapshot state = Engine::snapshot_of(std::move(engine));
        apply_stage(*stage.spec, state);
        engine = engine_for([&] { return std::make_unique<Engine>(std::move(state)); }, scene);
        last_good = {};
        last_good = engine->snapshot();
        frames.write(*engine, last_good);
      }
      while (engine->step_count() < stage.end_step) {
        engine->step();
        const long step = engine->step_count();
        if (frame_at(stage, step, last_stage)) {
          last_good = {};  // not two whole states at once
          last_good = engine->snapshot();
          frames.write(*engine, last_good);
        }
        if (checkpoint_at(stage, step)) save_checkpoint(checkpoint, engine->snapshot());
        if (g_signal) {
          frames.flush();
          save_checkpoint(checkpoint, engine->snapshot());
          fmt::print(stderr, "\nsphero run: stopped by signal {} at t = {:g} s; continue with\n  {}\n", g_signal.load(),
                     engine->time(), continue_command(options, out, checkpoint));
          return 128 + g_signal;
        }
        progress.after(*engine);
      }
    }
  } catch (const InstabilityError& e) {
    frames.flush();
    save_checkpoint(out / "last-good.ckpt", last_good);
    fmt::print(stderr, "\nsphero run: {}\nThe last good state (t = {:g} s) is frame {} in {}/ and last-good.ckpt.\n",
               e.what(), last_good.time, output.frames_written() - 1, out.string());
    return 3;
  }
  frames.flush();
  return 0;
}

// A run continuing a checkpoint with --from writes into a folder of its
// own: never into the run the checkpoint came from.
void refuse_the_checkpoints_folder(const RunOptions& options, const fs::path& out) {
  if (options.from.empty() || !options.restart.empty()) return;
  if (holds_the_checkpoints_run(out, options.from))
    throw SceneError(fmt::format(
        "--from {}: the output directory '{}' is the run the checkpoint came from; a run continued with --from "
        "writes into a folder of its own (--output DIR)",
        options.from, out.string()));
}

// What rank 0 alone does (files, the terminal): a failure there stops
// every rank at once, where the others would wait for it in the next step.
template <class Action>
void on_root(const Ranks& ranks, Action&& action) {
  if (!ranks.root()) return;
  try {
    action();
  } catch (const std::exception& e) {
    ranks.abort(fmt::format("sphero: {}", e.what()));
  }
}

// A rank's share of a state of the run: what the whole run shares (the
// same on every rank) and this rank's part, as a checkpoint holds it.
struct StateShare {
  EngineSnapshot header;
  std::vector<char> part;
};

// Collective.
StateShare share_of_state_now(DistributedEngine& engine) {
  EngineSnapshot header = engine.header();
  const CandidateStream candidates = engine.part_candidates();
  const auto each_body = [&](const std::function<void(const BodyRecord&)>& take) { engine.for_each_part_body(take); };
  return {std::move(header), checkpoint_part_bytes(engine.part_bodies(), each_body, candidates)};
}

// The checkpoint in parts of every rank's share: rank 0 writes it, taking
// the other ranks' parts one at a time, so that no rank holds the whole
// state. Collective; a checkpoint rank 0 cannot write stops every rank
// with its message.
void save_checkpoint_on_ranks(const Ranks& ranks, const fs::path& path, const StateShare& share) {
  ranks.send_to_root(share.part);
  on_root(ranks, [&] {
    save_checkpoint_in_parts(
        path, share.header, ranks.size(), [&](int k) { return k == 0 ? share.part : ranks.receive_from(k); });
  });
}

// Every rank writes its piece of the frame (its own grains, the pairs it is
// home to, on rank 0 the walls); once all have, rank 0 names them in a
// .pvtu per field, the collections and energy.csv. A rank that cannot
// write its piece stops every rank with its message, and so does rank 0
// when it cannot write the rest. Its energy row books the ledger and the
// deepest overlap of `run` (DistributedEngine::header, the state now).
void write_frame_on_ranks(const Ranks& ranks, const DistributedEngine& engine, const FrameGrids& grids,
                          RunOutput* output, const std::vector<std::string>& fields, const fs::path& directory,
                          int frame, const EngineSnapshot& run) {
  const FramePiece piece{ranks.rank(), ranks.size(), engine.held_bodies(), engine.bodies_written()};
  std::string failure;
  std::vector<PieceLayout> layouts;
  try {
    layouts = grids.write(engine.local(), piece, fields, directory, frame);
  } catch (const std::exception& e) {
    failure = fmt::format("rank {} could not write its piece of frame {}: {}", ranks.rank(), frame, e.what());
  }
  const double failing = ranks.min(failure.empty() ? INFINITY : static_cast<double>(ranks.rank()));
  if (std::isfinite(failing)) throw std::runtime_error(ranks.broadcast(failure, static_cast<int>(failing)));
  on_root(ranks, [&] {
    const EnergyRow row = energy_row(engine.local(), piece, run.ledger, run.deepest_overlap);
    output->add_frame_of_pieces(layouts, ranks.size(), row);
  });
}

// The end of a run on ranks: rank 0 writes final.ckpt and the summary, with
// every rank's CPU time and the busiest rank's wall time. Collective.
void finish_run_on_ranks(const Ranks& ranks, const DistributedEngine& engine, const ProgressReport& progress,
                         const StateShare& last_good, const SceneConfig& scene, const RunOutput* output,
                         const fs::path& out, long first_step, std::size_t grains) {
  const double wall = progress.wall_seconds();
  const double cpu = ranks.sum(std::vector<double>{progress.cpu_seconds_used()})[0];  // every rank's
  const long decompositions = static_cast<long>(ranks.max(static_cast<double>(engine.decompositions())));
  const RankTimes& t = engine.times();
  const double most_stepping = ranks.max(t.stepping), most_exchanging = ranks.max(t.exchanging),
               most_decomposing = ranks.max(t.decomposing);
  save_checkpoint_on_ranks(ranks, out / "final.ckpt", last_good);
  on_root(ranks, [&] {
    progress.finish();
    print_summary(RunTotals::of(last_good.header), nullptr, scene, *output, out, last_good.header.step - first_step,
                  grains, wall, cpu);
    fmt::print(
        "  ranks: {}, grains shared out {} times (the Cundall number counts every rank's CPU time); the "
        "busiest rank's wall time: steps {:.2f} s, exchanges {:.2f} s, sharing out {:.2f} s\n",
        ranks.size(), decompositions, most_stepping, most_exchanging, most_decomposing);
  });
}

// Rank 0 alone builds the scene's state (or reads the checkpoint): the
// other ranks receive their parts of it. A failure there stops every rank
// with rank 0's message.
EngineSnapshot whole_state_on_root(const Ranks& ranks, const RunOptions& options, const SceneConfig& scene,
                                   std::vector<BodySource>& sources, StagePlan& stage) {
  EngineSnapshot whole;
  std::exception_ptr failed;
  std::string failure;
  if (ranks.root()) {
    try {
      if (!scene.stages.empty())
        throw SceneError(
            fmt::format("{}: a scene with stages runs on one process: drop mpirun, or run each stage "
                        "on ranks with --from the stage before's final.ckpt",
                        scene.source));
      EngineSnapshot first = [&] {
        ProgressLine line(options.quiet);
        return first_stage_state(options, scene, &sources, line.callback());
      }();
      std::string refusal = distributed_refusal(first.settings);
      if (refusal.empty() && scene.backend == Backend::opencl)
        refusal = "backend = opencl does not run on several ranks: drop mpirun or the key";
      if (!refusal.empty()) throw SceneError(fmt::format("{}: {}", scene.source, refusal));
      RunStart start = start_run(options, scene, std::move(first));
      stage = start.stages.front();
      // The serial engine that makes the state is gone (with this
      // statement) before the ranks' parts are made: its list is the
      // largest thing it holds.
      whole = Engine::snapshot_of(std::move(start.engine));
    } catch (const std::exception& e) {
      failed = std::current_exception();
      failure = e.what();
      if (failure.empty()) failure = "rank 0 could not make the run's state";
    }
  }
  failure = ranks.broadcast(failure, 0);
  if (failed) std::rethrow_exception(failed);
  if (!failure.empty()) throw std::runtime_error(failure);
  // Rank 0's plan to every rank (whole numbers, exact as doubles).
  for (long* n : {&stage.first_step, &stage.end_step, &stage.frame_every, &stage.checkpoint_every})
    *n = static_cast<long>(ranks.max(ranks.root() ? static_cast<double>(*n) : 0.0));
  return whole;
}

// The scene on every rank of mpirun (parallel/distributed_engine.h): frames
// and checkpoints in pieces, one per rank. Each rank keeps its share of the
// last good state.
int run_on_ranks(const RunOptions& options, const SceneConfig& scene) {
  const Ranks ranks;
  std::vector<BodySource> sources;  // rank 0's
  StagePlan plan;
  EngineSnapshot whole = whole_state_on_root(ranks, options, scene, sources, plan);
  std::optional<DistributedEngine> engine;
  try {
    engine.emplace(ranks, std::move(whole));
  } catch (const std::invalid_argument& e) {
    throw SceneError(fmt::format("{}: {}", scene.source, e.what()));
  }
  const EngineSettings& settings = engine->settings();
  const std::size_t grains = engine->grains();
  const auto header = fmt::format(
      "{} ranks, subdomains by Zoltan's recursive bisection (rank 0 holds {} bodies with "
      "its ghosts)\n",
      ranks.size(), engine->bodies_held());
  const FramePiece piece{ranks.rank(), ranks.size(), engine->held_bodies(), engine->bodies_written()};
  if (options.check) {
    on_root(ranks, [&] {
      fmt::print("{}: valid. {} grains, dt = {:g} s (limit {:g}), Verlet distance {:g}, {} steps on {}{}{}",
                 scene.source, grains, settings.dt, engine->time_step_limit(), settings.verlet_distance,
                 plan.end_step - engine->step_count(), header, walls_listing(engine->local().world(), piece),
                 options.restart.empty() && options.from.empty() ? sources_listing(sources) : "");
    });
    return 0;
  }
  const fs::path out = scene.output_directory;
  std::optional<RunOutput> output;
  std::optional<double> resume_at;
  if (!options.restart.empty()) resume_at = engine->time();
  StateShare last_good = share_of_state_now(*engine);
  on_root(ranks, [&] {
    refuse_the_checkpoints_folder(options, out);
    prepare_output_directory(out, options);
    output.emplace(out, wall_columns(engine->local().world(), piece), engine->local().world().cell,
                   scene.arc_resolution, scene.fields, resume_at);
    if (!options.quiet)
      fmt::print("sphero run: {}\n  {} grains, dt = {:g} s, {} steps to t = {:g} s, frames every {:g} s into {}/\n  {}",
                 scene.source, grains, settings.dt, plan.end_step - engine->step_count(),
                 end_time({plan}, engine->step_count(), engine->time()),
                 static_cast<double>(plan.frame_every) * settings.dt, out.string(), header);
  });
  int frame = static_cast<int>(ranks.max(output ? static_cast<double>(output->frames_written()) : 0.0));
  const bool continues = ranks.max(output && output->continues() ? 1.0 : 0.0) > 0.0;
  // The outlines of the bodies held here, drawn anew when they change.
  std::optional<FrameGrids> grids;
  long grids_drawn_at = -1;
  const auto write_frame = [&](const EngineSnapshot& run) {
    if (grids_drawn_at != engine->decompositions()) {
      grids.emplace(engine->local().world(), scene.arc_resolution);
      grids_drawn_at = engine->decompositions();
    }
    write_frame_on_ranks(ranks, *engine, *grids, output ? &*output : nullptr, scene.fields, out, frame++, run);
  };
  if (!continues) write_frame(last_good.header);
  std::signal(SIGINT, remember_signal);
  std::signal(SIGTERM, remember_signal);
  const long first_step = engine->step_count();
  ranks.max(0.0);  // every rank starts its clock with rank 0, whose first frame is written
  ProgressReport progress(options.quiet || !ranks.root(), grains, first_step, plan.end_step);
  const fs::path checkpoint = out / "checkpoint.ckpt";
  try {
    while (engine->step_count() < plan.end_step) {
      engine->step();
      const long step = engine->step_count();
      // A signal reaches the ranks at different steps: they agree on it.
      const int signal = static_cast<int>(ranks.max(static_cast<double>(g_signal.load())));
      const bool frame_now = frame_at(plan, step, true);
      const bool save = signal || checkpoint_at(plan, step);
      if (!frame_now && !save) {
        progress.after(step, engine->time());
        continue;
      }
      // The state now will replace the last good one: a rank need not hold
      // two shares at once.
      if (frame_now) last_good = {};
      StateShare now = share_of_state_now(*engine);
      if (frame_now) write_frame(now.header);
      if (save) save_checkpoint_on_ranks(ranks, checkpoint, now);
      on_root(ranks, [&] {
        if (signal)
          fmt::print(stderr, "\nsphero run: stopped by signal {} at t = {:g} s; continue with\n  mpirun ... {}\n",
                     signal, now.header.time, continue_command(options, out, checkpoint));
      });
      if (frame_now) last_good = std::move(now);
      if (signal) return 128 + signal;
      progress.after(step, engine->time());
    }
  } catch (const InstabilityError& e) {
    save_checkpoint_on_ranks(ranks, out / "last-good.ckpt", last_good);
    on_root(ranks, [&] {
      fmt::print(stderr, "\nsphero run: {}\nThe last good state (t = {:g} s) is frame {} in {}/ and last-good.ckpt.\n",
                 e.what(), last_good.header.time, output->frames_written() - 1, out.string());
    });
    return 3;
  }
  finish_run_on_ranks(ranks, *engine, progress, last_good, scene, output ? &*output : nullptr, out, first_step, grains);
  return 0;
}

// The scene on this process, through its stages.
int run_serially(const RunOptions& options, const SceneConfig& scene) {
  std::vector<BodySource> sources;
  EngineSnapshot first = [&] {
    ProgressLine line(options.quiet);
    return first_stage_state(options, scene, &sources, line.callback());
  }();
  RunStart start = start_run(options, scene, std::move(first));
  Engine& engine = *start.engine;
  const World& world = engine.world();
  std::size_t grains = 0;
  for (std::size_t i = 0; i < world.size(); ++i) grains += !world.is_wall[i];
  const EngineSettings& settings = engine.settings();
  const long end_step = start.stages.back().end_step;
  const std::string note =
      listing_note(world) + start.backend + rigid_listing(world, settings) + stages_listing(start.stages);
  if (options.check) {
    fmt::print("{}: valid. {} grains, {} walls, dt = {:g} s (limit {:g}), Verlet distance {:g}, {} steps\n{}{}{}",
               scene.source, grains, world.size() - grains, settings.dt, engine.time_step_limit(),
               settings.verlet_distance, end_step - engine.step_count(), note, walls_listing(world, FramePiece{}),
               options.restart.empty() && options.from.empty() ? sources_listing(sources) : "");
    return 0;
  }
  const fs::path out = scene.output_directory;
  refuse_the_checkpoints_folder(options, out);
  prepare_output_directory(out, options);
  std::optional<double> resume_at;
  if (!options.restart.empty()) resume_at = engine.time();
  RunOutput output(out, start.columns, world.cell, scene.arc_resolution, scene.fields, resume_at);
  std::signal(SIGINT, remember_signal);
  std::signal(SIGTERM, remember_signal);
  const StagePlan& now = start.stages[start.stage];
  if (!options.quiet)
    fmt::print("sphero run: {}\n  {} grains, dt = {:g} s, {} steps to t = {:g} s, frames every {:g} s into {}/\n{}",
               scene.source, grains, settings.dt, end_step - engine.step_count(),
               end_time(start.stages, engine.step_count(), engine.time()),
               static_cast<double>(now.frame_every) * settings.dt, out.string(), note);
  if (!output.continues()) output.write_frame(engine);
  const long first_step = engine.step_count();
  ProgressReport progress(options.quiet, grains, first_step, end_step);
  if (const int stopped = step_through_stages(start, output, out, options, scene, progress)) return stopped;
  save_checkpoint(out / "final.ckpt", start.engine->snapshot());
  const double cpu = progress.cpu_seconds_used(), wall = progress.wall_seconds();
  progress.finish();
  print_summary(RunTotals::of(*start.engine), start.engine.get(), scene, output, out,
                start.engine->step_count() - first_step, grains, wall, cpu);
  return 0;
}

}  // namespace

int run_run_command(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << kRunUsage << scene_keys_help();
      return 0;
    }
  const RunOptions options = parse_arguments(args);
  const SceneConfig scene = options.scene_file.empty() ? parse_scene(kDefaultSceneText, kDefaultSceneLabel,
                                                                     data_directory() / "scenes", options.overrides)
                                                       : read_scene(options.scene_file, options.overrides);
  if (Ranks().size() > 1) return run_on_ranks(options, scene);
  return run_serially(options, scene);
}

}  // namespace sphero::app
