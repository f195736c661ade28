// A constrained triangulation of points with some of their segments as
// edges, built by CGAL (its types stay in the .cpp).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "triangulation/void_triangulation.h"

namespace sphero {

// The triangles of the constrained Delaunay triangulation of `points`
// (which span their convex hull) in which every segment of `constraints`
// is an edge: vertices counter-clockwise, neighbours and constraint flags
// filled in, `inside` left false. Throws TriangulationError naming the
// bodies (`owner` per point) when two points coincide or two constraints
// cross or touch (SelfMeetingSkeletonError when a body's own do).
std::vector<VoidTriangulation::Triangle> constrained_triangulation(const std::vector<Vec2>& points,
                                                                   const std::vector<std::array<int, 2>>& constraints,
                                                                   const std::vector<int>& owner);

// Two segments of one skeleton (its points in order; closed: the last
// joins the first) that meet other than end to end — crossing, touching or
// folding back onto each other — numbered from 1 in skeleton order; such a
// skeleton cannot be a set of triangulation edges. O(n²): once per shape.
std::optional<std::array<int, 2>> self_meeting_segments(const std::vector<Vec2>& skeleton, bool closed);

}  // namespace sphero

namespace sphero {

// Whether a, b, c turn counter-clockwise, decided exactly (CGAL's filtered
// predicate): no rounding can call a flat or inverted triangle valid.
bool counter_clockwise(Vec2 a, Vec2 b, Vec2 c);

}  // namespace sphero
