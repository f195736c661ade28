// Where a run starts, for `sphero run` and Python alike: the state its
// first stage starts from (a scene's world, or with --from a checkpoint
// with the scene applied as a stage), the plan of its stages, and with
// --restart the checkpoint, checked against the stage it lies in.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "io/run_output.h"
#include "io/scene.h"
#include "packing/progress.h"
#include "run/stage_plan.h"

namespace sphero {

// The state a run's first stage starts from: the scene's world and
// settings at step 0, or, with `from` (a checkpoint), the checkpoint's
// whole state with the scene applied to it as a stage; either way a new
// run, with a new identity (and with `from`, its parent's). `sources`, where
// given, receives where the scene's bodies came from.
EngineSnapshot first_stage_state(const SceneConfig& scene, const std::filesystem::path& from,
                                 std::vector<BodySource>* sources = nullptr, const Progress& progress = {});

struct RunStart {
  EngineSnapshot state;  // what the run steps from
  bool fresh = false;    // `state` is a scene's world and settings only, not a whole snapshot
  std::vector<StagePlan> stages;
  std::size_t stage = 0;  // the one `state` lies in
  // With a restart, the run its checkpoint says it is of (unknown for a
  // checkpoint written before runs had identities, which continues as a
  // run of its own: `state`'s lineage is then a new one).
  RunIdentity continued;
  std::vector<WallColumns> columns;  // energy.csv's: every wall, loaded where a stage loads it
  // The engine of `state`, on the CPU, with the threads its settings give
  // (a checkpoint's: one; its caller sets the count, the neighbour
  // strategy and the backend), carrying the run's identity; the run start
  // spent.
  std::unique_ptr<Engine> engine();
};

// The number a --from run's first frame carries: the one after its
// parent's last frame before the checkpoint's `time` (the parent's frames
// lie beside the checkpoint, `from`), so that the numbers go on as in one
// run of two stages; 0 where no frames can be read there.
int first_frame_number(const std::filesystem::path& from, double time);

// The run from `first` (first_stage_state; `fresh` where it is a scene's),
// or, with `restart` (a checkpoint), from the checkpoint, which must be
// what the scene makes at its time: the stage it belongs to is applied to
// the scene's state before they are compared. `check`, where given, sees
// every stage's plan and state. Throws SceneError naming what differs.
RunStart start_run(const SceneConfig& scene, EngineSnapshot first, bool fresh, const std::filesystem::path& restart,
                   const StageVisit& check = {});

}  // namespace sphero
