#include "simulation.h"

#include <string>

#include "app/opencl_backend.h"
#include "io/checkpoint.h"
#include "io/frame_grids.h"
#include "io/stage.h"

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
std::unique_ptr<Engine> engine_of(const SceneConfig& scene) {
  World world = build_world(scene);
  const EngineSettings settings = resolve_engine_settings(scene, world);
  auto engine = std::make_unique<Engine>(std::move(world), settings);
  if (scene.backend == Backend::opencl) app::use_opencl_backend(*engine, scene.source);
  return engine;
}

}  // namespace

Simulation::Simulation(const SceneConfig& scene) : Simulation(scene, engine_of(scene)) {}

Simulation::Simulation(SceneConfig scene, std::unique_ptr<Engine> engine)
    : scene_(std::move(scene)), engine_(std::move(engine)), arc_resolution_(scene_.arc_resolution) {}

std::unique_ptr<Simulation> Simulation::from_checkpoint(const std::filesystem::path& checkpoint,
                                                        const SceneConfig& scene) {
  EngineSnapshot state = load_checkpoint(checkpoint);
  start_stage_from(scene, state, checkpoint.string());
  return std::unique_ptr<Simulation>(new Simulation(scene, engine_of(std::move(state), scene)));
}

void Simulation::change(const std::string& stage_text) {
  const StageSpec stage = parse_stage_changes(stage_text, "change()", scene_);
  // Tried on a copy of the world and settings first (all a stage changes),
  // so that a refused change leaves the simulation as it was.
  EngineSnapshot trial;
  trial.world = engine_->world();
  trial.settings = engine_->settings();
  apply_stage(stage, trial);
  // The world moves out and back: its arrays keep their memory, so the
  // NumPy views Python holds stay valid.
  EngineSnapshot state = Engine::snapshot_of(std::move(engine_));
  apply_stage(stage, state);
  engine_ = engine_of(std::move(state), scene_);
}

void Simulation::save_checkpoint(const std::filesystem::path& path) const {
  sphero::save_checkpoint(path, engine_->snapshot());
}

Simulation::Busy::Busy(const Simulation& s) : simulation_(s) {
  std::thread::id none{};
  if (!s.runner_.compare_exchange_strong(none, std::this_thread::get_id()))
    throw std::runtime_error(
        "this Simulation is already running (run() was called again, from another thread or a callback); one run "
        "at a time: wait for it, or make a Simulation per thread");
}

Simulation::Busy::~Busy() { simulation_.runner_.store(std::thread::id{}); }

void Simulation::require_idle() const {
  const std::thread::id runner = runner_.load();
  if (runner != std::thread::id{} && runner != std::this_thread::get_id())
    throw std::runtime_error(
        "this Simulation is running in another thread; read its state between runs (a callback of run() may)");
}

FrameData Simulation::frame() const { return frame_in_memory(*engine_, arc_resolution_); }

}  // namespace sphero::python
