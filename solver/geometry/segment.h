// Point-segment distance and segment-segment intersection: the two
// primitives behind contact detection and polygon validation.
#pragma once

#include "geometry/vec2.h"

namespace sphero {

// The point of segment [a, b] closest to p. A degenerate segment (a == b)
// returns a.
inline Vec2 closest_point_on_segment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const double len2 = norm2(ab);
  if (len2 == 0.0) return a;
  double t = dot(p - a, ab) / len2;
  t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
  return a + t * ab;
}

inline double distance_to_segment(Vec2 p, Vec2 a, Vec2 b) { return norm(p - closest_point_on_segment(p, a, b)); }

// True when closed segments [p1, p2] and [q1, q2] share at least one point,
// touching and collinear overlap included.
bool segments_intersect(Vec2 p1, Vec2 p2, Vec2 q1, Vec2 q2);

// Smallest distance between two closed segments (0 when they intersect).
double segment_segment_distance(Vec2 p1, Vec2 p2, Vec2 q1, Vec2 q2);

}  // namespace sphero
