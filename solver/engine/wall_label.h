// How messages name a wall: by its name where the scene or the packing
// gave it one (`wall = name=top ...`), which is its shape's name, and as
// wall<number> otherwise.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/world.h"

namespace sphero {

// The shape names of walls that were given no name.
bool is_unnamed_wall(std::string_view shape_name);

// How energy.csv, messages and `--check` call wall i of `world`, whose
// number in the run is `number`: its name, or "wall<number>".
std::string wall_label(const World& world, std::size_t i, int number);

}  // namespace sphero
