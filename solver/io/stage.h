// Stages: a scene's later stages (`[stage NAME]`), and the scene of a run
// that continues a checkpoint (`sphero run SCENE --from CHECKPOINT`),
// applied to the state the stage before left. Every body, contact and
// tangential spring, the ledger and the time carry over; the stage changes
// what it gives (docs/SCENES.md, "Stages").
#pragma once

#include <string>

#include "engine/engine.h"
#include "io/scene.h"

namespace sphero {

// Applies `stage` to `state`: its laws replace those of the pairs
// they name, its gravity, attractor and time step those it gives, and its
// set_wall lines change walls. Throws SceneError naming the line.
// Only the state's world and settings are read and changed.
// `placing`: where the stage adds grains, they are placed clear of the
// state's bodies (Placing::among_bodies); a plan made before the run,
// which does not know where the bodies will be, adds them unplaced, as
// many and of the shapes they will be (Placing::unplaced), all its dt and
// steps need, and removes no grains by region (it keeps those a region
// would find: the run finds them when the stage begins).
enum class Placing { among_bodies, unplaced };
void apply_stage(const StageSpec& stage, EngineSnapshot& state, Placing placing = Placing::among_bodies);

// Applies `scene` as a stage to a checkpoint's state (`--from`): its laws,
// gravity, attractor and time step replace the checkpoint's, its walls,
// matched to the checkpoint's by name (by number where unnamed), take the
// motions and materials it gives, and its set_wall lines apply. Refuses,
// naming the key, what cannot carry over: another model, integrator,
// stepping or periodic cell, grains or packings to add, a wall line with no
// wall to match or of another shape.
void start_stage_from(const SceneConfig& scene, EngineSnapshot& state, const std::string& checkpoint);

}  // namespace sphero
