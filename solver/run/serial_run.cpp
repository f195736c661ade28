#include "run/serial_run.h"

#include <chrono>
#include <optional>

#include "io/checkpoint.h"
#include "rigid/interruption.h"
#include "run/stop_request.h"

namespace sphero {

SerialRun::SerialRun(std::unique_ptr<Engine> engine, EngineMaker make_engine, double slow_step)
    : engine_(std::move(engine)),
      make_engine_(std::move(make_engine)),
      slow_step_(slow_step),
      interruption_(stop_flag()) {}

void SerialRun::step() {
  const auto start = std::chrono::steady_clock::now();
  const auto timed = [&] {
    engine_->step();
    last_step_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // Only the rigid model's programs look at the flag.
  if (last_step_seconds_ < slow_step_ || !interruption_ || engine_->settings().model != Model::rigid) {
    timed();
    return;
  }
  EngineSnapshot before = engine_->snapshot();
  engine_->set_interruption(interruption_);
  try {
    timed();
  } catch (const Interrupted&) {
    // Back to the step's start, in the world's own arrays (views of them
    // stay valid), copied over the part-stepped values.
    EngineSnapshot stepped = Engine::snapshot_of(std::move(engine_));
    stepped.world = before.world;
    before.world = std::move(stepped.world);
    engine_ = make_engine_(std::move(before));
    throw;
  }
  engine_->set_interruption(nullptr);
}

void SerialRun::apply_stage(const StageSpec& stage) {
  EngineSnapshot state = Engine::snapshot_of(std::move(engine_));
  // Planning checked all but where added grains find room and which
  // grains the removals find: kept to go back to where these fail.
  std::optional<EngineSnapshot> before;
  if (stage.changes_bodies()) before = state;
  if (keep_arrays_ && stage.changes_bodies()) {
    World arrays = std::move(state.world);
    state.world = arrays;
    kept_.push_back(std::move(arrays));
  }
  try {
    sphero::apply_stage(stage, state);
    engine_ = make_engine_(std::move(state));
  } catch (...) {
    if (before) engine_ = make_engine_(std::move(*before));
    throw;
  }
  // The stage's first step is never interrupted: a stop there would save
  // the applied stage at the step the stage before ends.
  last_step_seconds_ = 0.0;
}

void SerialRun::save_checkpoint(const std::filesystem::path& path) {
  sphero::save_checkpoint(path, engine_->snapshot());
}

RunTotals SerialRun::totals() {
  return {engine_->time(), engine_->ledger(), engine_->deepest_overlap(), engine_->deepest_overlap_time()};
}

}  // namespace sphero
