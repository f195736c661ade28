// The region within a distance r of a skeleton, found from the skeleton's
// offset curve in floating point: every edge pushed out by r on each side
// it bounds, an arc of radius r round every convex corner and path end.
// A point of that curve lies on the region's boundary exactly where no
// other part of the skeleton is nearer than r, so the curve is cut where
// its pieces cross and the pieces nearer to another feature are dropped;
// what is left, chained into loops, bounds the region. Only pieces within
// reach of each other are compared (a grid of cells), so that a skeleton
// of n vertices costs about n times the features within 2r of a point,
// where CGAL's exact arrangement (minkowski.h) takes seconds for
// thousands of vertices.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "geometry/vec2.h"
#include "morphology/region.h"

namespace sphero {

// The region within r (> 0) of `skeleton`: a simple polygon when `closed`,
// else a path of at least two vertices; its outer loop counter-clockwise,
// holes clockwise. nullopt where floating point cannot decide it — pieces
// that run along one another, a cut that leaves a loop open, a skeleton
// so large against r that the pieces crossing each other would be too
// many — for the exact offsets of minkowski.h to decide instead.
std::optional<std::vector<Region>> offset_curve_region(std::span<const Vec2> skeleton, bool closed, double r);

}  // namespace sphero
