// The named points of a run at which its writers (frames and energy.csv,
// checkpoints, the progress line, the last good state) and a caller's own
// actions act: a new writer is a new observer, not a branch in the loop
// (run/run_driver.h).
#pragma once

#include "engine/stability.h"
#include "run/stage_plan.h"

namespace sphero {

// Where the run is when an observer is called.
struct RunPoint {
  const StagePlan& stage;
  bool last_stage;  // the run ends with this stage
  long step;
  double time;
};

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // Before the first step (a new run's first frame).
  virtual void started(const RunPoint&) {}
  // A later stage has just been applied to the state the one before left.
  virtual void stage_begun(const RunPoint&) {}
  // After every step.
  virtual void stepped(const RunPoint&) {}
  // A stop was requested; the state is the end of the step just taken (or,
  // for a step given up inside, its start; for a stage refused at its
  // start, the state the stage before left).
  virtual void stopping(const RunPoint&) {}
  // A step failed; the state is as it left it.
  virtual void unstable(const InstabilityError&) {}
  // The run reached its end (or the step its caller asked for).
  virtual void finished(const RunPoint&) {}
};

}  // namespace sphero
