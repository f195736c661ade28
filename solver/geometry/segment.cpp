#include "geometry/segment.h"

#include <algorithm>

namespace sphero {
namespace {

int orientation_sign(Vec2 a, Vec2 b, Vec2 c) {
  const double v = cross(b - a, c - a);
  return (v > 0.0) - (v < 0.0);
}

// c is known to be collinear with [a, b]: is it inside the bounding box?
bool on_segment(Vec2 a, Vec2 b, Vec2 c) {
  return std::min(a.x, b.x) <= c.x && c.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= c.y &&
         c.y <= std::max(a.y, b.y);
}

}  // namespace

bool segments_intersect(Vec2 p1, Vec2 p2, Vec2 q1, Vec2 q2) {
  const int o1 = orientation_sign(p1, p2, q1);
  const int o2 = orientation_sign(p1, p2, q2);
  const int o3 = orientation_sign(q1, q2, p1);
  const int o4 = orientation_sign(q1, q2, p2);
  if (o1 != o2 && o3 != o4) return true;
  return (o1 == 0 && on_segment(p1, p2, q1)) || (o2 == 0 && on_segment(p1, p2, q2)) ||
         (o3 == 0 && on_segment(q1, q2, p1)) || (o4 == 0 && on_segment(q1, q2, p2));
}

double segment_segment_distance(Vec2 p1, Vec2 p2, Vec2 q1, Vec2 q2) {
  if (segments_intersect(p1, p2, q1, q2)) return 0.0;
  // Disjoint segments: the closest pair always involves an endpoint.
  return std::min({distance_to_segment(p1, q1, q2), distance_to_segment(p2, q1, q2), distance_to_segment(q1, p1, p2),
                   distance_to_segment(q2, p1, p2)});
}

}  // namespace sphero
