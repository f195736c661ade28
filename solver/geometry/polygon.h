// Predicates and measures of closed polygons given as vertex loops (the last
// vertex joins the first; the first is not repeated).
#pragma once

#include <span>
#include <vector>

#include "geometry/vec2.h"

namespace sphero {

// Positive for counter-clockwise loops (shoelace formula).
double signed_area(std::span<const Vec2> loop);

// Convex (collinear vertices allowed), either orientation.
bool is_convex(std::span<const Vec2> loop);

// Index pair of two edges that intersect — apart, or neighbours folding
// back onto each other — or {-1, -1} for a simple loop: for up to 64 edges
// the first such pair in edge order, beyond that the first the sweep meets
// (geometry/crossing_sweep.h). Edge i runs from vertex i to vertex i+1.
struct EdgePair {
  int first = -1;
  int second = -1;
};
EdgePair first_self_intersection(std::span<const Vec2> loop);

// Even-odd rule; points on the boundary may go either way.
bool point_in_polygon(Vec2 p, std::span<const Vec2> loop);

}  // namespace sphero
