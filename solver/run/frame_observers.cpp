#include "run/frame_observers.h"

#include <fmt/format.h>

#include <cmath>

#include "io/checkpoint.h"
#include "run/shape_agreement.h"

namespace sphero {

SerialFrames::SerialFrames(SerialRun& run, RunOutput& output, bool background)
    : run_(run), output_(output), writer_(output, background) {}

void SerialFrames::write_now() {
  last_good_ = {};  // not two whole states at once
  last_good_ = run_.engine().snapshot();
  writer_.write(run_.engine(), last_good_);
}

void SerialFrames::started(const RunPoint& at) {
  writer_.flush();
  output_.set_frame_fields(at.stage.fields);
  prepare_step_after(at);
  if (output_.continues()) {
    last_good_ = run_.engine().snapshot();
    return;
  }
  write_now();
}

void SerialFrames::stage_begun(const RunPoint& at) {
  writer_.flush();  // before the fields change under the frame being written
  output_.set_frame_fields(at.stage.fields);
  write_now();
  prepare_step_after(at);
}

void SerialFrames::stepped(const RunPoint& at) {
  if (frame_at(at.stage, at.step, at.last_stage)) write_now();
  prepare_step_after(at);
}

void SerialFrames::prepare_step_after(const RunPoint& at) {
  if (frame_at(at.stage, at.step + 1, at.last_stage)) run_.engine().keep_contact_geometry_next_step();
}

void SerialFrames::unstable(const InstabilityError&) {
  writer_.flush();
  save_checkpoint(output_.directory() / "last-good.ckpt", last_good_);
}

RankFrames::RankFrames(RankRun& run, RunOutput* output, std::filesystem::path directory, int arc_resolution,
                       bool single_precision)
    : run_(run),
      output_(output),
      arc_resolution_(arc_resolution),
      single_precision_(single_precision),
      directory_(std::move(directory)) {
  const Ranks& ranks = run_.ranks();
  frame_ = static_cast<int>(ranks.max(output_ ? static_cast<double>(output_->next_frame_number()) : 0.0));
}

// Every rank writes its piece of the frame (its own grains, the pairs it is
// home to, on rank 0 the walls); once all have, rank 0 names them in a
// .pvtu per field, the collections and energy.csv. A rank that cannot
// write its piece stops every rank with its message, and so does rank 0
// when it cannot write the rest. Its energy row books the ledger and the
// deepest overlap of `header` (the state now).
void RankFrames::write(const EngineSnapshot& header) {
  const Ranks& ranks = run_.ranks();
  const DistributedEngine& engine = run_.engine();
  const bool redraw = grids_drawn_at_ != engine.decompositions() || grids_generation_ != run_.generation();
  if (redraw) {
    agree_on_shapes(ranks, engine.local().world(), shapes_);
    grids_.emplace(engine.local().world(), arc_resolution_, &shapes_, single_precision_);
    grids_drawn_at_ = engine.decompositions();
    grids_generation_ = run_.generation();
  }
  const FramePiece piece{ranks.rank(), ranks.size(), engine.bodies_written(), engine.lineage().run};
  std::string failure;
  std::vector<PieceLayout> layouts;
  const int frame = frame_++;
  try {
    if (ranks.root() && (shapes_.size() != shapes_written_ || !std::filesystem::exists(directory_ / kShapeTableFile))) {
      write_shape_table(directory_ / kShapeTableFile, shapes_);  // before any piece names its rows
      shapes_written_ = shapes_.size();
    }
    layouts = grids_->write(engine.local(), piece, fields_, directory_, frame);
  } catch (const std::exception& e) {
    failure = fmt::format("rank {} could not write its piece of frame {}: {}", ranks.rank(), frame, e.what());
  }
  const double failing = ranks.min(failure.empty() ? INFINITY : static_cast<double>(ranks.rank()));
  if (std::isfinite(failing)) throw std::runtime_error(ranks.broadcast(failure, static_cast<int>(failing)));
  on_root(ranks, [&] {
    const EnergyRow row = energy_row(engine.local(), header.ledger, header.deepest_overlap);
    output_->add_frame_of_pieces(layouts, ranks.size(), row);
  });
}

void RankFrames::keep_share() {
  last_good_ = {};  // a rank need not hold two shares at once
  last_good_ = run_.share_now();
  run_.note_share(last_good_);  // a checkpoint at this step takes it too
}

void RankFrames::write_now() {
  keep_share();
  write(last_good_.header);
}

void RankFrames::take_fields(const RunPoint& at) {
  fields_ = at.stage.fields;
  if (output_) output_->set_frame_fields(fields_);
}

void RankFrames::started(const RunPoint& at) {
  take_fields(at);
  const bool continues = run_.ranks().max(output_ && output_->continues() ? 1.0 : 0.0) > 0.0;
  // Rank 0's output holds the rows a continued run, a branch or a --from
  // run goes on from; every rank numbers shapes alike.
  if (output_) shapes_ = output_->shapes();
  share_root_shapes(run_.ranks(), shapes_);
  if (continues) shapes_written_ = shapes_.size();
  if (continues) {
    keep_share();
    return;
  }
  write_now();
}

void RankFrames::stage_begun(const RunPoint& at) {
  take_fields(at);
  write_now();
}

void RankFrames::stepped(const RunPoint& at) {
  if (frame_at(at.stage, at.step, at.last_stage)) write_now();
}

void RankFrames::unstable(const InstabilityError&) { run_.save_checkpoint(directory_ / "last-good.ckpt", last_good_); }

}  // namespace sphero
