// The order of points along a Hilbert curve: points near each other in the
// plane come near each other in the list, which keeps what a loop over them
// reads near in memory.
#pragma once

#include <cstddef>
#include <vector>

#include "geometry/vec2.h"

namespace sphero {

// The indices of `points` in the order of a Hilbert curve through their
// bounding box (a 2¹⁶ × 2¹⁶ grid; points in one grid cell keep their
// order). Deterministic: the same points give the same order.
std::vector<std::size_t> hilbert_order(const std::vector<Vec2>& points);

}  // namespace sphero
