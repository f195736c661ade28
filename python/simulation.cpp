#include "simulation.h"

#include <string>

#include <fmt/format.h>

#include <limits>
#include <stdexcept>

#include "app/opencl_backend.h"
#include "app/run_folder.h"
#include "engine/thread_team.h"
#include "io/checkpoint.h"
#include "io/frame_grids.h"
#include "io/single_precision.h"
#include "io/stage.h"
#include "run/run_start.h"
#include "run/stage_plan.h"
#include "run/stop_request.h"

namespace sphero::python {
namespace {

// An engine stepping `state` as `sphero run` would: the scene's threads,
// neighbour strategy and backend, none of which changes the results.
std::unique_ptr<Engine> engine_of(EngineSnapshot state, const SceneConfig& scene) {
  auto engine = std::make_unique<Engine>(std::move(state));
  engine->set_threads(scene.threads);
  engine->set_neighbour_strategy(scene.engine.neighbours);
  if (scene.backend == Backend::opencl) app::use_opencl_backend(*engine, scene.source);
  return engine;
}

// The engine at the scene's start, as `sphero run` makes it.
std::unique_ptr<Engine> engine_of(const SceneConfig& scene, const GivenGrains& given = {}) {
  World world = build_world(scene, given);
  const EngineSettings settings = resolve_engine_settings(scene, world);
  auto engine = std::make_unique<Engine>(std::move(world), settings);
  engine->set_lineage(RunLineage::begun());
  if (scene.backend == Backend::opencl) app::use_opencl_backend(*engine, scene.source);
  return engine;
}

// energy.csv's columns are fixed when output starts: a change that makes
// a wall a pressure plate would need load columns it does not have.
void refuse_new_columns(const RunOutput& output, const World& changed) {
  std::vector<WallColumns> columns = output.walls();
  for (const WallColumns& wall : wall_columns(changed))
    if (!add_wall_columns(columns, wall))
      throw std::invalid_argument(fmt::format(
          "change(): wall {} would become a pressure plate while output goes to {}, whose energy.csv has no load "
          "columns for it: stop_output() first, or make the change before start_output()",
          wall.label, output.directory().string()));
}

}  // namespace

Simulation::Simulation(const SceneConfig& scene) : Simulation(scene, engine_of(scene)) {}

Simulation::Simulation(const SceneConfig& scene, const GivenGrains& given)
    : Simulation(scene, engine_of(scene, given)) {}

Simulation::Simulation(SceneConfig scene, std::unique_ptr<Engine> engine)
    : scene_(std::move(scene)),
      run_(std::move(engine), [this](EngineSnapshot state) { return engine_of(std::move(state), scene_); }),
      arc_resolution_(scene_.arc_resolution) {
  run_.keep_arrays_alive();  // NumPy views of them
}

// Output still going ends with its last frame and final.ckpt, as far as
// they can be written: a destructor cannot report a failure.
Simulation::~Simulation() {
  try {
    stop_output();
  } catch (const std::exception&) {
  }
}

Simulation::Output::Output(SerialRun& run, RunOutput output, StagePlan schedule, bool background)
    : files(std::move(output)),
      plan(std::move(schedule)),
      frames(run, files, background),
      checkpoints(run, files.directory() / "checkpoint.ckpt") {}

std::unique_ptr<Simulation> Simulation::from_checkpoint(const std::filesystem::path& checkpoint,
                                                        const SceneConfig& scene) {
  if (checkpoint.empty()) throw std::invalid_argument("from_checkpoint: give the checkpoint's path");
  EngineSnapshot state = first_stage_state(scene, checkpoint);
  return std::unique_ptr<Simulation>(new Simulation(scene, engine_of(std::move(state), scene)));
}

void Simulation::change(const std::string& stage_text) {
  require_not_running("change()");
  const StageSpec stage = parse_stage_changes(stage_text, "change()", scene_);
  // Tried on a copy of the world and settings first (all a stage changes,
  // at the step it changes them: grains are placed from it), so that a
  // refused change leaves the simulation as it was.
  EngineSnapshot trial;
  trial.world = engine().world();
  trial.settings = engine().settings();
  trial.step = run_.step_count();
  trial.time = run_.time();
  apply_stage(stage, trial);
  if (output_) refuse_new_columns(output_->files, trial.world);
  run_.apply_stage(stage);
  if (!output_) return;
  output_->frame_pending = false;  // the stage's first frame takes its place
  // A stage's frames count from its start, and its first is its start.
  output_->plan.first_step = run_.step_count();
  output_->frames.stage_begun(point_now(output_->plan));
  output_->checkpoints.stage_begun(point_now(output_->plan));
}

void Simulation::save_checkpoint(const std::filesystem::path& path) const {
  sphero::save_checkpoint(path, engine().snapshot());
}

RunOutcome Simulation::run(long steps, RunObserver* observer, bool signals,
                           const std::function<void(RunDriver&)>& hand_driver) {
  run_.interrupt_with(signals ? stop_flag() : nullptr);
  StagePlan plan = output_ ? output_->plan : StagePlan{};
  if (!output_) plan.first_step = run_.step_count();
  plan.end_step = run_.step_count() + steps;  // a frame due there waits (Output::frame_pending)
  if (output_ && output_->frame_pending && steps > 0) {
    output_->frames.write_now();
    output_->frame_pending = false;
  }
  RunDriver driver(run_, {plan});
  driver.leave_the_end_open();
  driver.listen_for_signals(signals);
  if (output_) {
    driver.observe(output_->frames);
    driver.observe(output_->checkpoints);
  }
  if (observer) driver.observe(*observer);
  if (hand_driver) hand_driver(driver);
  const RunOutcome outcome = driver.run_until(plan.end_step);
  // A frame due where the run ended waits for what comes next.
  if (output_ && outcome.ending != RunOutcome::Ending::unstable && steps > 0 && run_.step_count() == plan.end_step)
    output_->frame_pending = (run_.step_count() - plan.first_step) % plan.frame_every == 0;
  // The arrays Python holds are the host's: brought back from a device
  // (backend = opencl).
  engine().world();
  return outcome;
}

void Simulation::start_output(const std::filesystem::path& folder, long frame_every, long checkpoint_every,
                              bool overwrite) {
  require_not_running("start_output()");
  if (output_)
    throw std::invalid_argument(
        fmt::format("output already goes to {}: stop_output() first", output_->files.directory().string()));
  if (frame_every < 1) throw std::invalid_argument("start_output: frame_every must be at least 1 step");
  if (checkpoint_every < 0) throw std::invalid_argument("start_output: checkpoint_every must be 0 (none) or more");
  app::RunOptions options;
  options.overwrite = overwrite;
  FolderLock claim = app::prepare_output_directory(
      folder, options, [](const std::string& notice) { fmt::print(stderr, "sphero: {}\n", notice); },
      "Python's Simulation.start_output");
  const RunLineage lineage = had_output_ ? RunLineage::begun(engine().lineage().run) : engine().lineage();
  // The scene's fields as `sphero run` lists them (its stages are not run here).
  const std::vector<std::string> fields = in_frame_order(scene_.fields);
  RunOutput files(
      folder, wall_columns(engine().world()), engine().world().cell, arc_resolution_, fields, std::nullopt, lineage);
  files.hold(std::move(claim));
  if (scene_.single_precision) check_single_precision(engine().world(), "start_output");
  files.set_single_precision(scene_.single_precision);
  StagePlan plan;
  plan.name = "python";
  plan.first_step = run_.step_count();
  plan.frame_every = frame_every;
  plan.checkpoint_every = checkpoint_every;
  plan.dt = engine().settings().dt;
  plan.fields = scene_.fields;    // with its array choices
  engine().set_lineage(lineage);  // its checkpoints name the folder's run
  had_output_ = true;
  // Frames in the background only where the engine leaves a core free.
  output_ =
      std::make_unique<Output>(run_, std::move(files), plan, scene_.threads == 1 && ThreadTeam::usable_cores() > 1);
  output_->frames.started(point_now(output_->plan));
}

void Simulation::stop_output() {
  require_not_running("stop_output()");
  if (!output_) return;
  if (output_->frame_pending) output_->frames.write_now();
  output_->frames.finished(point_now(output_->plan));
  sphero::save_checkpoint(output_->files.directory() / "final.ckpt", engine().snapshot());
  output_.reset();
}

std::optional<std::filesystem::path> Simulation::output_folder() const {
  if (!output_) return std::nullopt;
  return output_->files.directory();
}

RunPoint Simulation::point_now(const StagePlan& plan) const { return {plan, false, run_.step_count(), run_.time()}; }

Simulation::Busy::Busy(const Simulation& s) : simulation_(s) {
  std::thread::id none{};
  if (!s.runner_.compare_exchange_strong(none, std::this_thread::get_id()))
    throw std::runtime_error(
        "this Simulation is already running (run() was called again, from another thread or a callback); one run "
        "at a time: wait for it, or make a Simulation per thread");
}

Simulation::Busy::~Busy() { simulation_.runner_.store(std::thread::id{}); }

void Simulation::require_not_running(const char* what) const {
  if (runner_.load() != std::thread::id{})
    throw std::runtime_error(fmt::format(
        "{}: not while run() steps this Simulation (a callback may read its state): call it after run() returns",
        what));
}

void Simulation::require_idle() const {
  const std::thread::id runner = runner_.load();
  if (runner != std::thread::id{} && runner != std::this_thread::get_id())
    throw std::runtime_error(
        "this Simulation is running in another thread; read its state between runs (a callback of run() may)");
}

FrameData Simulation::frame() const { return frame_in_memory(engine(), arc_resolution_); }

}  // namespace sphero::python
