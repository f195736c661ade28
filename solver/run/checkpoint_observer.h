// checkpoint.ckpt in a run's folder, at the steps its stages ask for and
// when a stop is requested, so that the run can be continued from there.
#pragma once

#include <filesystem>

#include "run/run_observer.h"
#include "run/stepped_run.h"

namespace sphero {

class CheckpointObserver final : public RunObserver {
 public:
  CheckpointObserver(SteppedRun& run, std::filesystem::path path) : run_(run), path_(std::move(path)) {}
  void stepped(const RunPoint& at) override {
    if (checkpoint_at(at.stage, at.step)) save(at.step);
  }
  void stopping(const RunPoint& at) override { save(at.step); }
  // The state at this step is no longer the one saved.
  void stage_begun(const RunPoint&) override { saved_at_ = -1; }
  const std::filesystem::path& path() const { return path_; }

 private:
  void save(long step) {
    if (step == saved_at_) return;
    run_.save_checkpoint(path_);
    saved_at_ = step;
  }

  SteppedRun& run_;
  std::filesystem::path path_;
  long saved_at_ = -1;
};

}  // namespace sphero
