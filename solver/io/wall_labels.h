// Walls are known by name where the scene or the packing gave them one
// (`wall = name=top ...`, the plates `sphero pack compress` writes), and by
// their body number otherwise (wallN). A wall's name is its shape's name,
// which checkpoints, state files and the ranks' records carry already.
#pragma once

#include <string>
#include <string_view>

#include "engine/wall_label.h"
#include "engine/world.h"

namespace sphero {

// Empty when `name` can name a wall; otherwise what is wrong with it.
std::string wall_name_problem(std::string_view name);

// A wall's motion in words, for `--check`: "fixed", "velocity (1, 0) m/s",
// "pressure 100 N/m inward (0, -1) over the span of bottom and top", ...
std::string wall_motion_words(const World& world, std::size_t i, const std::string& span_a, const std::string& span_b);

}  // namespace sphero
