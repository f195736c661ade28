// Whether a closed polygon's edges cross, in O(n log n): the Shamos–Hoey
// sweep, which keeps the edges a vertical line meets in order and tests only
// neighbours in that order; the first crossing is found before the order
// could go wrong. It returns a witness, the two crossing edges.
#pragma once

#include <span>

#include "geometry/polygon.h"
#include "geometry/vec2.h"

namespace sphero {

// As first_self_intersection: a pair of edges that cross, or {-1, -1}.
EdgePair sweep_self_intersection(std::span<const Vec2> loop);

}  // namespace sphero
