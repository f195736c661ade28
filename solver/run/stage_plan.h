// The stages of a run as its step loop follows them: where each begins and
// ends, in steps, and how often it writes frames and checkpoints.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "io/scene.h"

namespace sphero {

struct StagePlan {
  const StageSpec* spec = nullptr;  // null: the first stage, the scene's own keys
  std::string name;                 // "first" for the first stage
  long first_step = 0, end_step = 0;
  long frame_every = 1, checkpoint_every = 0;  // steps; 0: no checkpoints but the last
  double dt = 0.0;                             // the stage's time step, s
  std::vector<std::string> fields;             // what its frames hold
};

// What each stage's frames hold (the scene's fields, then each stage's
// where it gives them), and what the run's frames hold over all stages,
// in the order io/frame_grids.h lists them. Throws SceneError, naming the
// stage, where a stage leaves out the field the run's frames are indexed
// by (particles where the run writes them).
struct RunFields {
  std::vector<std::vector<std::string>> per_stage;
  std::vector<std::string> all;
};
RunFields run_fields(const SceneConfig& scene);

// The simulated time at which the run ends, from `time` at step `step`.
double end_time(const std::vector<StagePlan>& stages, long step, double time);

// Steps of `dt` in `seconds` of the scene's `key`, refused beyond what any
// run could take (and what a long integer holds).
long steps_in(double seconds, double dt, const std::string& key);

// Sees stage k's plan and the state it applies (its bodies where the
// run's start left them).
using StageVisit = std::function<void(std::size_t k, const StagePlan&, const EngineSnapshot&)>;

// The plans of the scene's stages from `start` (the scene's state, or a
// checkpoint's after --from), which begins the first stage. Each later
// stage is applied to a copy of the world and settings, all a stage
// changes; `visit`, when given, sees each stage as it is planned.
std::vector<StagePlan> plan_stages(const SceneConfig& scene, const EngineSnapshot& start, const StageVisit& visit = {});

// Whether step `step` of `stage` writes a frame: every frame_every steps
// from the stage's start, and at the run's end. A later stage's first frame
// is its start, written once the stage is applied, in place of the last
// step of the stage before.
bool frame_at(const StagePlan& stage, long step, bool last_stage);
// Whether step `step` of `stage` writes checkpoint.ckpt.
bool checkpoint_at(const StagePlan& stage, long step);

}  // namespace sphero
