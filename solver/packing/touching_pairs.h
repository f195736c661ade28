// The pairs of grains of a packing whose outlines touch — within `gap` of
// each other — found from the geometry alone (a packing holds no contacts):
// link cells, then the exact distance between skeletons. Walls count as
// neighbours of the grains they touch. O(N).
#pragma once

#include <utility>
#include <vector>

#include "engine/world.h"

namespace sphero {

// (i, j), i < j, body indices of `bodies`, in increasing order.
std::vector<std::pair<int, int>> touching_pairs(const std::vector<BodySpec>& bodies, double gap);

}  // namespace sphero
