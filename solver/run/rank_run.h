// This rank's part of a run on the ranks of mpirun
// (parallel/distributed_engine.h). A later stage is applied to the whole
// state on rank 0, gathered from every rank's share, and shared out again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parallel/distributed_engine.h"
#include "parallel/ranks.h"
#include "run/stepped_run.h"

namespace sphero {

// A rank's share of a state of the run: what the whole run shares (the
// same on every rank) and this rank's part, as a checkpoint holds it.
struct StateShare {
  EngineSnapshot header;
  std::vector<char> part;
};

class RankRun final : public SteppedRun {
 public:
  // Rank 0 passes the whole state; the other ranks' are not read. Throws
  // std::invalid_argument as DistributedEngine does.
  RankRun(const Ranks& ranks, EngineSnapshot whole);
  DistributedEngine& engine() { return *engine_; }
  const DistributedEngine& engine() const { return *engine_; }
  const Ranks& ranks() const { return ranks_; }
  // Counts the engines this rank has held: a new one after each stage.
  int generation() const { return generation_; }

  void step() override { engine_->step(); }
  long step_count() const override { return engine_->step_count(); }
  double time() const override { return engine_->time(); }
  void apply_stage(const StageSpec& stage) override;
  int agreed(int value) const override;
  void save_checkpoint(const std::filesystem::path& path) override;
  RunTotals totals() override;

  // This rank's share of the state now. Collective.
  StateShare share_now();
  // A share that `share` holder keeps (the frames' last good state):
  // save_checkpoint(path) reuses it while the run is at its step, rather
  // than take a second share of the same state. It must outlive the run's
  // steps; a new stage's state needs a new share.
  void note_share(const StateShare& share) {
    noted_ = &share;
    noted_generation_ = generation_;
  }
  // The checkpoint in parts of every rank's `share`: rank 0 writes it,
  // taking the other ranks' parts one at a time, so that no rank holds the
  // whole state. Collective.
  void save_checkpoint(const std::filesystem::path& path, const StateShare& share) const;

 private:
  const Ranks& ranks_;
  std::optional<DistributedEngine> engine_;
  int generation_ = 0;
  const StateShare* noted_ = nullptr;
  int noted_generation_ = -1;  // the engine it was taken of
};

// What rank 0 alone does (files, the terminal): a failure there stops
// every rank at once, where the others would wait for it in the next step.
template <class Action>
void on_root(const Ranks& ranks, Action&& action) {
  if (!ranks.root()) return;
  try {
    action();
  } catch (const std::exception& e) {
    ranks.abort(std::string("sphero: ") + e.what());
  }
}

}  // namespace sphero
