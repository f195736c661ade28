// A run on this process: one engine, remade as its caller makes engines
// (threads, neighbour strategy, backend) when a stage is applied.
#pragma once

#include <functional>
#include <memory>

#include "engine/engine.h"
#include "run/stepped_run.h"

namespace sphero {

// An engine stepping a state as the run asks: none of what it chooses
// changes the results.
using EngineMaker = std::function<std::unique_ptr<Engine>(EngineSnapshot)>;

class SerialRun final : public SteppedRun {
 public:
  // A step that follows one of over `slow_step` seconds (wall time) may be
  // interrupted inside by a stop request (run/stop_request.h) and is then
  // rolled back to its start: such steps keep a snapshot of the state
  // they start from, a small cost beside them.
  SerialRun(std::unique_ptr<Engine> engine, EngineMaker make_engine, double slow_step = kSlowStep);
  static constexpr double kSlowStep = 0.2;
  Engine& engine() { return *engine_; }
  const Engine& engine() const { return *engine_; }

  // Throws Interrupted (rigid/interruption.h) after a rollback.
  void step() override;
  long step_count() const override { return engine_->step_count(); }
  double time() const override { return engine_->time(); }
  // The world moves out and back: its arrays keep their memory, so views
  // of them (Python's NumPy arrays) stay valid (a rolled back step keeps
  // them too). A stage that adds or removes bodies resizes them: with
  // keep_arrays_alive, the arrays before are kept (as they were) for the
  // views that still read them.
  void apply_stage(const StageSpec& stage) override;
  void keep_arrays_alive() { keep_arrays_ = true; }
  // The flag a slow step is interrupted by (run/stop_request.h's by
  // default; null: none, as for a Python run off the main thread).
  void interrupt_with(const volatile int* flag) { interruption_ = flag; }
  void save_checkpoint(const std::filesystem::path& path) override;
  RunTotals totals() override;

 private:
  std::unique_ptr<Engine> engine_;
  EngineMaker make_engine_;
  double slow_step_;
  bool keep_arrays_ = false;
  const volatile int* interruption_;
  std::vector<World> kept_;  // worlds whose arrays views may still read
  double last_step_seconds_ = 0.0;
};

}  // namespace sphero
