#include "run/rank_run.h"

#include <sstream>

#include "io/checkpoint.h"
#include "io/scene.h"

namespace sphero {

RankRun::RankRun(const Ranks& ranks, EngineSnapshot whole) : ranks_(ranks) { engine_.emplace(ranks, std::move(whole)); }

StateShare RankRun::share_now() {
  EngineSnapshot header = engine_->header();
  const CandidateStream candidates = engine_->part_candidates();
  const auto each_body = [&](const std::function<void(const BodyRecord&)>& take) { engine_->for_each_part_body(take); };
  return {std::move(header), checkpoint_part_bytes(engine_->part_bodies(), each_body, candidates)};
}

void RankRun::save_checkpoint(const std::filesystem::path& path, const StateShare& share) const {
  ranks_.send_to_root(share.part);
  on_root(ranks_, [&] {
    save_checkpoint_in_parts(
        path, share.header, ranks_.size(), [&](int k) { return k == 0 ? share.part : ranks_.receive_from(k); });
  });
}

void RankRun::save_checkpoint(const std::filesystem::path& path) {
  // The same on every rank: each noted its share of the same frame.
  if (noted_ && noted_->header.step == engine_->step_count() && noted_generation_ == generation_) {
    save_checkpoint(path, *noted_);
    return;
  }
  save_checkpoint(path, share_now());
}

// The whole state is put together on rank 0 as a checkpoint in parts would
// be read back, so that the stage starts from exactly the bodies, springs
// and ledger a --from of that checkpoint would.
void RankRun::apply_stage(const StageSpec& stage) {
  StateShare share = share_now();
  std::vector<std::vector<char>> parts(ranks_.size());
  ranks_.send_to_root(share.part);
  if (ranks_.root())
    for (int k = 0; k < ranks_.size(); ++k) parts[k] = k == 0 ? std::move(share.part) : ranks_.receive_from(k);
  EngineSnapshot whole;
  std::string failure;
  if (ranks_.root()) {
    try {
      std::stringstream bytes;
      write_checkpoint_in_parts(bytes, share.header, ranks_.size(), [&](int k) { return std::move(parts[k]); });
      parts.clear();
      whole = read_checkpoint(bytes, "the state at stage " + stage.name + "'s start");
      sphero::apply_stage(stage, whole);
      failure = distributed_refusal(whole.settings);
      if (!failure.empty()) failure = "stage " + stage.name + ": " + failure;
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  failure = ranks_.broadcast(failure, 0);
  if (!failure.empty()) throw SceneError(failure);
  engine_.reset();  // its part goes before the new one is made
  engine_.emplace(ranks_, std::move(whole));
  ++generation_;
}

int RankRun::agreed(int value) const { return static_cast<int>(ranks_.max(static_cast<double>(value))); }

RunTotals RankRun::totals() { return RunTotals::of(engine_->header()); }

}  // namespace sphero
