// A scene being stepped from Python: the engine, and the frame analysis
// needs, made the way `sphero run` writes it.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include <functional>
#include <optional>

#include "engine/engine.h"
#include "io/frame_data.h"
#include "io/run_output.h"
#include "io/scene.h"
#include "run/checkpoint_observer.h"
#include "run/frame_observers.h"
#include "run/run_driver.h"
#include "run/serial_run.h"

namespace sphero::python {

class Simulation {
 public:
  explicit Simulation(const SceneConfig& scene);
  // The scene's world with `given` grains placed after its walls and
  // packings, before its own `grains` lines (io/scene.h, GivenGrains).
  Simulation(const SceneConfig& scene, const GivenGrains& given);
  // `--from`'s equivalent: the checkpoint's bodies, contacts, springs and
  // time, with `scene` applied to it as a stage (io/stage.h).
  static std::unique_ptr<Simulation> from_checkpoint(const std::filesystem::path& checkpoint, const SceneConfig& scene);
  ~Simulation();
  Engine& engine() { return run_.engine(); }
  const Engine& engine() const { return run_.engine(); }
  int arc_resolution() const { return arc_resolution_; }
  // Applies a stage's changes (set_wall, law, gravity, attractor, dt, as
  // `key = value` lines) to the state now, as a `[stage]` of a scene does:
  // every contact and spring carries over; the arrays keep their memory.
  void change(const std::string& stage_text);
  // A checkpoint of the state now, as `sphero run` writes final.ckpt.
  void save_checkpoint(const std::filesystem::path& path) const;
  // The current state as a run's frame, made in memory straight from the
  // engine: what the run's files are written from, so that every number
  // the analysis gives equals what `sphero analyze` gives on a run's frame.
  FrameData frame() const;

  // Steps `steps` steps through the run driver (run/run_driver.h), writing
  // the output started with start_output; `observer`, when given, sees
  // every step and may ask the driver to stop. Returns how it ended.
  // `signals`: whether the process's stop request (run/stop_request.h)
  // stops it, also inside a long step (a run on Python's main thread).
  RunOutcome run(long steps, RunObserver* observer, bool signals,
                 const std::function<void(RunDriver&)>& hand_driver = {});

  // From now on, frames, energy.csv and checkpoints in `folder` as
  // `sphero run` writes them: a frame now and every `frame_every` steps,
  // checkpoint.ckpt every `checkpoint_every` steps (0: none). The folder
  // must be empty or new, unless `overwrite` (which clears an earlier
  // run's files there). Output after an earlier folder's is a branch: a
  // run of its own whose parent is the earlier folder's run, so that a
  // checkpoint of one folder never continues the other.
  void start_output(const std::filesystem::path& folder, long frame_every, long checkpoint_every, bool overwrite);
  // Writes final.ckpt and ends the output.
  void stop_output();
  // The folder output goes to, if any.
  std::optional<std::filesystem::path> output_folder() const;

  // Held while a thread steps the simulation: a second run, or a read of
  // its state, from another thread is refused rather than racing it (the
  // running thread's callbacks may read it).
  class Busy {
   public:
    explicit Busy(const Simulation& s);
    ~Busy();
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;

   private:
    const Simulation& simulation_;
  };
  // Throws std::runtime_error while another thread steps the simulation.
  void require_idle() const;
  // Throws std::runtime_error while any thread, this one's callbacks
  // included, steps it: what `what` does would change the run under way.
  void require_not_running(const char* what) const;

 private:
  Simulation(SceneConfig scene, std::unique_ptr<Engine> engine);
  RunPoint point_now(const StagePlan& plan) const;

  // The folder a simulation writes to and its writers.
  struct Output {
    RunOutput files;
    StagePlan plan;  // its frame and checkpoint steps, from when it began
    // A frame due at the step where run() returned: written when the
    // simulation goes on, as the first frame of a change (a stage's start,
    // as `sphero run` writes it), or by stop_output.
    bool frame_pending = false;
    SerialFrames frames;
    CheckpointObserver checkpoints;
    Output(SerialRun& run, RunOutput files, StagePlan plan, bool background);
  };

  SceneConfig scene_;  // the first stage's: threads, backend, model
  SerialRun run_;
  int arc_resolution_;
  std::unique_ptr<Output> output_;
  bool had_output_ = false;                        // some folder holds this simulation's run
  mutable std::atomic<std::thread::id> runner_{};  // default: none
};

}  // namespace sphero::python
