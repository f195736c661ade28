#include "run/run_driver.h"

#include <algorithm>

#include "io/scene.h"
#include "rigid/interruption.h"
#include "run/stop_request.h"

namespace sphero {

RunDriver::RunDriver(SteppedRun& run, std::vector<StagePlan> stages, std::size_t stage)
    : run_(run), stages_(std::move(stages)), stage_(stage) {}

RunPoint RunDriver::point() const {
  return {stages_[stage_], stage_ + 1 == stages_.size() && !open_end_, run_.step_count(), run_.time()};
}

void RunDriver::start() {
  const RunPoint now = point();
  tell([&](RunObserver& o) { o.started(now); });
}

int RunDriver::pending_stop() const { return std::max(requested_, listen_ ? stop_requested() : 0); }

RunOutcome RunDriver::run() { return run_until(stages_.back().end_step); }

int RunDriver::step_within_stage(long until) {
  const long end = std::min(stages_[stage_].end_step, until);
  while (run_.step_count() < end) {
    try {
      run_.step();
    } catch (const Interrupted&) {  // rolled back to the step's start
      const RunPoint now = point();
      tell([&](RunObserver& o) { o.stopping(now); });
      return std::max(1, pending_stop());
    }
    const RunPoint now = point();
    tell([&](RunObserver& o) { o.stepped(now); });
    // After the observers, which may ask for the stop themselves.
    const int signal = run_.agreed(pending_stop());
    if (signal) {
      tell([&](RunObserver& o) { o.stopping(now); });
      return signal;
    }
  }
  return 0;
}

RunOutcome RunDriver::run_until(long until) {
  requested_ = 0;
  try {
    for (;;) {
      if (const int signal = step_within_stage(until)) return {RunOutcome::Ending::stopped, signal, {}};
      // A later stage begins only when the run goes on past its start.
      if (run_.step_count() >= until || stage_ + 1 == stages_.size()) break;
      try {
        run_.apply_stage(*stages_[stage_ + 1].spec);
      } catch (const SceneError&) {
        // Refused at its start (grains that find no room): the state the
        // stage before left is kept, checkpointed as for a stop.
        const RunPoint now = point();
        tell([&](RunObserver& o) { o.stopping(now); });
        throw;
      }
      ++stage_;
      const RunPoint now = point();
      tell([&](RunObserver& o) { o.stage_begun(now); });
    }
  } catch (const InstabilityError& e) {
    tell([&](RunObserver& o) { o.unstable(e); });
    return {RunOutcome::Ending::unstable, 0, e.what()};
  }
  const RunPoint now = point();
  tell([&](RunObserver& o) { o.finished(now); });
  return {};
}

}  // namespace sphero
