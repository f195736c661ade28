// A restart continues the run its checkpoint came from, under the scene the
// user gives now. What the checkpoint holds (its bodies, shapes, materials,
// laws, gravity, cell, time step and integrator) must be what that scene
// makes, or the run would quietly go on with the old values; what the scene
// may change (duration, output, intervals, threads) it changes.
#pragma once

#include <string>

#include "engine/engine.h"

namespace sphero {

// Throws std::runtime_error naming the key (or the body) that differs and
// what to do. Bodies are matched by id; with `may_lack_bodies` (a stage
// before removed grains by region, which the scene's plan cannot know)
// the checkpoint may hold fewer than the scene makes.
void check_restart(const EngineSnapshot& checkpoint, const World& scene_world, const EngineSettings& scene_settings,
                   const std::string& checkpoint_name, const std::string& scene_name, bool may_lack_bodies = false);

}  // namespace sphero
