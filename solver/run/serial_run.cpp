#include "run/serial_run.h"

#include "io/checkpoint.h"

namespace sphero {

SerialRun::SerialRun(std::unique_ptr<Engine> engine, EngineMaker make_engine)
    : engine_(std::move(engine)), make_engine_(std::move(make_engine)) {}

void SerialRun::apply_stage(const StageSpec& stage) {
  EngineSnapshot state = Engine::snapshot_of(std::move(engine_));
  sphero::apply_stage(stage, state);
  engine_ = make_engine_(std::move(state));
}

void SerialRun::save_checkpoint(const std::filesystem::path& path) {
  sphero::save_checkpoint(path, engine_->snapshot());
}

RunTotals SerialRun::totals() {
  return {engine_->time(), engine_->ledger(), engine_->deepest_overlap(), engine_->deepest_overlap_time()};
}

}  // namespace sphero
