// The pairs of grains of a packing whose outlines touch — within `gap` of
// each other — found from the geometry alone (a packing holds no contacts):
// link cells, then the exact distance between skeletons. Walls count as
// neighbours of the grains they touch. O(N).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "engine/world.h"

namespace sphero {

// (i, j), i < j, body indices of `bodies`, in increasing order.
std::vector<std::pair<int, int>> touching_pairs(const std::vector<BodySpec>& bodies, double gap);

// The first pair (i, j), i < j, of `bodies` whose skeletons cross or touch
// (overlap by their two sphero-radii or more), or none. O(N).
std::optional<std::pair<int, int>> first_crossing_pair(const std::vector<BodySpec>& bodies);

}  // namespace sphero
