// What `sphero run --check` lists besides the numbers: each wall with its
// number, name and motion, how many grains and walls came from each of the
// scene's sources (its walls, each packing, each grains line), and a rigid
// run's solver and laws.
#pragma once

#include <string>
#include <vector>

#include "io/frame_piece.h"
#include "io/scene.h"

namespace sphero::app {

std::string walls_listing(const World& world);
std::string sources_listing(const std::vector<BodySource>& sources);
// A rigid-model run's solver, tolerance and gap, and its laws by pair of
// materials; empty for a soft one.
std::string rigid_listing(const World& world, const EngineSettings& settings);

}  // namespace sphero::app
