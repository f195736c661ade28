// The run's frames and energy.csv rows (io/run_output.h) at the steps its
// stages ask for, and the last good state they leave: the state of the
// last frame, written to last-good.ckpt when a step fails.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/frame_grids.h"
#include "io/run_output.h"
#include "run/frame_writer.h"
#include "run/rank_run.h"
#include "run/run_observer.h"
#include "run/serial_run.h"

namespace sphero {

// A run on this process. A new run's first frame is the state at
// `started` (a restart's frames continue those in the folder).
class SerialFrames final : public RunObserver {
 public:
  // `background`: frames written on a second thread (run/frame_writer.h).
  SerialFrames(SerialRun& run, RunOutput& output, bool background);
  void started(const RunPoint&) override;
  void stage_begun(const RunPoint&) override;
  void stepped(const RunPoint& at) override;
  void stopping(const RunPoint&) override { writer_.flush(); }
  void unstable(const InstabilityError&) override;
  void finished(const RunPoint&) override { writer_.flush(); }
  double last_good_time() const { return last_good_.time; }
  // A frame of the state now, after those handed over before.
  void write_now();

 private:
  // A step that ends in a frame keeps its contacts' geometry for it.
  void prepare_step_after(const RunPoint& at);

  SerialRun& run_;
  RunOutput& output_;
  FrameWriter writer_;
  EngineSnapshot last_good_;
};

// A run on ranks: every rank writes its piece of each frame, rank 0 the
// .pvtu files, collections and energy.csv (`output`, null elsewhere).
class RankFrames final : public RunObserver {
 public:
  RankFrames(RankRun& run, RunOutput* output, std::filesystem::path directory, int arc_resolution,
             bool single_precision = false);
  void started(const RunPoint&) override;
  void stage_begun(const RunPoint&) override;
  void stepped(const RunPoint& at) override;
  void unstable(const InstabilityError&) override;
  double last_good_time() const { return last_good_.header.time; }
  const StateShare& last_good() const { return last_good_; }

 private:
  void keep_share();  // the state now, as the last good one
  void write_now();
  void write(const EngineSnapshot& header);
  void take_fields(const RunPoint& at);  // the stage's

  RankRun& run_;
  RunOutput* output_;
  std::vector<std::string> fields_;  // the stage's
  int arc_resolution_;
  bool single_precision_;
  std::filesystem::path directory_;
  int frame_ = 0;
  // The outlines of the bodies held here, drawn anew when they change.
  std::optional<FrameGrids> grids_;
  long grids_drawn_at_ = -1;
  int grids_generation_ = -1;
  ShapeTable shapes_;  // the run's, the same on every rank (run/shape_agreement.h)
  std::size_t shapes_written_ = 0;
  StateShare last_good_;
};

}  // namespace sphero
