// A scene being stepped from Python: the engine, and the frame analysis
// needs, made the way `sphero run` writes it.
#pragma once

#include <filesystem>

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

 private:
  Engine engine_;
  int arc_resolution_;
};

}  // namespace sphero::python
