// A scene being stepped from Python: the engine, and the frame analysis
// needs, made the way `sphero run` writes it.
#pragma once

#include <atomic>
#include <filesystem>
#include <thread>

#include "engine/engine.h"
#include "io/frame_data.h"
#include "io/scene.h"

namespace sphero::python {

class Simulation {
 public:
  explicit Simulation(const SceneConfig& scene);
  Engine& engine() { return engine_; }
  const Engine& engine() const { return engine_; }
  int arc_resolution() const { return arc_resolution_; }
  // The current state as a run's frame: written with the run's own writer
  // into a temporary folder and read back, so that every number the
  // analysis gives equals what `sphero analyze` gives on a run's frame.
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
  Engine engine_;
  int arc_resolution_;
  mutable std::atomic<std::thread::id> runner_{};  // default: none
};

}  // namespace sphero::python
