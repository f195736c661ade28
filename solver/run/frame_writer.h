// Frames written on a second thread while the run goes on, where the engine
// runs on one thread and the machine has another core: writing frames is a
// large share of a small run's time.
#pragma once

#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "engine/engine.h"
#include "io/run_output.h"

namespace sphero {

// Each frame is written from the step's snapshot (an Engine restored from
// it), so the files are those the live engine would give, byte for byte.
// At most one frame waits while another is written; a failure surfaces at
// the next frame or at flush(), and the run then stops with it, as it
// would have at the write itself.
class FrameWriter {
 public:
  // Without `background`, each frame is written at once, on this thread.
  FrameWriter(RunOutput& output, bool background);
  FrameWriter(const FrameWriter&) = delete;
  FrameWriter& operator=(const FrameWriter&) = delete;
  ~FrameWriter();

  // `snapshot` is `engine`'s state now.
  void write(const Engine& engine, const EngineSnapshot& snapshot);
  // Returns when every frame handed over is on disk; throws a failure.
  void flush();

 private:
  void work();

  RunOutput& output_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<EngineSnapshot> waiting_;  // handed over, not yet taken up
  bool busy_ = false, quit_ = false;       // writing one; the run is over
  std::exception_ptr failure_;
};

}  // namespace sphero
