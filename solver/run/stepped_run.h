// What the run driver steps: one engine (run/serial_run.h) or this rank's
// part of a run on ranks (run/rank_run.h). The driver's loop, its stages
// and its observers see only this face, so that a run steps the same way
// however it is spread.
#pragma once

#include <filesystem>

#include "engine/energy_ledger.h"
#include "engine/engine.h"
#include "io/stage.h"

namespace sphero {

// What a run's summary says of its state, however it ran.
struct RunTotals {
  double time = 0.0;
  EnergyLedger ledger;
  double deepest_overlap = 0.0, deepest_overlap_time = 0.0;
  static RunTotals of(const EngineSnapshot& s) { return {s.time, s.ledger, s.deepest_overlap, s.deepest_overlap_time}; }
};

class SteppedRun {
 public:
  virtual ~SteppedRun() = default;
  // One step (on ranks: collective). Throws InstabilityError.
  virtual void step() = 0;
  virtual long step_count() const = 0;
  virtual double time() const = 0;
  // Applies a later stage to the state now: bodies, contacts, springs,
  // ledger and time carry over. Collective.
  virtual void apply_stage(const StageSpec& stage) = 0;
  // `value` as every process of the run agrees on it (the largest);
  // itself on one process. Collective.
  virtual int agreed(int value) const { return value; }
  // A checkpoint of the state now, at `path`. Collective.
  virtual void save_checkpoint(const std::filesystem::path& path) = 0;
  // Collective.
  virtual RunTotals totals() = 0;
};

}  // namespace sphero
