// The one loop that steps a run, serial or on ranks, from `sphero run`,
// Python and the tests alike: through its stages in order, applying each
// later stage to the state the one before left, and calling its observers
// at the named points of run/run_observer.h. It looks for a stop request
// (run/stop_request.h) after every step; every process of a run on ranks
// agrees on it at the same step.
#pragma once

#include <string>
#include <vector>

#include "run/run_observer.h"
#include "run/stage_plan.h"
#include "run/stepped_run.h"

namespace sphero {

struct RunOutcome {
  enum class Ending { finished, stopped, unstable };
  Ending ending = Ending::finished;
  int signal = 0;           // what stopped it
  std::string instability;  // what made it unstable
};

class RunDriver {
 public:
  // `stages` is the run's plan (run/stage_plan.h); the state `run` holds
  // now lies in stage `stage`.
  RunDriver(SteppedRun& run, std::vector<StagePlan> stages, std::size_t stage = 0);
  // Observers are called in the order they were added; they must outlive
  // the driver's calls.
  void observe(RunObserver& observer) { observers_.push_back(&observer); }

  // The state now, to the observers' `started` (a new run's first frame).
  void start();
  // Steps to the end of the last stage, or to `until` where it comes
  // first (counting steps from the run's start, as step_count does).
  RunOutcome run();
  RunOutcome run_until(long until);

  // The run goes on after the last stage's end, from a later call (Python
  // steps a simulation in runs whose ends it chooses): the frame due there
  // is left to the caller, as a stage boundary leaves it to the next stage.
  void leave_the_end_open() { open_end_ = true; }
  // Asks the run to stop after the step it is in (an observer's way: a
  // failed Python callback, Ctrl-C seen by Python).
  void request_stop(int signal) { requested_ = signal; }
  // Whether the process's stop request (run/stop_request.h) stops this run
  // too (by default; not a Python run off the main thread, whose Ctrl-C is
  // the main thread's).
  void listen_for_signals(bool listen) { listen_ = listen; }

  const std::vector<StagePlan>& stages() const { return stages_; }
  std::size_t stage() const { return stage_; }
  SteppedRun& stepped() { return run_; }
  const SteppedRun& stepped() const { return run_; }

 private:
  RunPoint point() const;
  // The stop asked for, by an observer or (where it listens) a signal.
  int pending_stop() const;
  // Steps the stage the run is in to its end or to `until`; returns the
  // signal that stopped it, 0 for none.
  int step_within_stage(long until);
  template <class Call>
  void tell(Call&& call) {
    for (RunObserver* o : observers_) call(*o);
  }

  SteppedRun& run_;
  std::vector<StagePlan> stages_;
  std::size_t stage_;
  std::vector<RunObserver*> observers_;
  int requested_ = 0;
  bool open_end_ = false;
  bool listen_ = true;
};

}  // namespace sphero
