// A scene being stepped from Python: the engine, and the frame analysis
// needs, made the way `sphero run` writes it.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "engine/engine.h"
#include "io/frame_data.h"
#include "io/scene.h"

namespace sphero::python {

class Simulation {
 public:
  explicit Simulation(const SceneConfig& scene);
  // `--from`'s equivalent: the checkpoint's bodies, contacts, springs and
  // time, with `scene` applied to it as a stage (io/stage.h).
  static std::unique_ptr<Simulation> from_checkpoint(const std::filesystem::path& checkpoint, const SceneConfig& scene);
  Engine& engine() { return *engine_; }
  const Engine& engine() const { return *engine_; }
  int arc_resolution() const { return arc_resolution_; }
  // Applies a stage's changes (set_wall, law, gravity, attractor, dt, as
  // `key = value` lines) to the state now, as a `[stage]` of a scene does:
  // every contact and spring carries over; the arrays keep their memory.
  void change(const std::string& stage_text);
  // A checkpoint of the state now, as `sphero run` writes final.ckpt.
  void save_checkpoint(const std::filesystem::path& path) const;
  // The current state as a run's frame: the grids the run's writer would
  // write, made in memory and read as a frame file is, so that every number
  // the analysis gives equals what `sphero analyze` gives on a run's frame.
  FrameData frame() const;

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

 private:
  Simulation(SceneConfig scene, std::unique_ptr<Engine> engine);

  SceneConfig scene_;  // the first stage's: threads, backend, model
  std::unique_ptr<Engine> engine_;
  int arc_resolution_;
  mutable std::atomic<std::thread::id> runner_{};  // default: none
};

}  // namespace sphero::python
