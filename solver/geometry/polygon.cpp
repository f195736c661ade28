#include "geometry/polygon.h"

#include "geometry/crossing_sweep.h"
#include "geometry/segment.h"

namespace sphero {

double signed_area(std::span<const Vec2> loop) {
  const std::size_t n = loop.size();
  double twice_area = 0.0;
  for (std::size_t i = 0; i < n; ++i) twice_area += cross(loop[i], loop[(i + 1) % n]);
  return 0.5 * twice_area;
}

bool is_convex(std::span<const Vec2> loop) {
  const std::size_t n = loop.size();
  if (n < 3) return true;
  bool seen_left = false, seen_right = false;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = loop[i], b = loop[(i + 1) % n], c = loop[(i + 2) % n];
    const double turn = cross(b - a, c - b);
    seen_left |= turn > 0.0;
    seen_right |= turn < 0.0;
  }
  // A convex loop also winds only once: its turning angles sum to 2*pi.
  return !(seen_left && seen_right) && first_self_intersection(loop).first < 0;
}

EdgePair first_self_intersection(std::span<const Vec2> loop) {
  const int n = static_cast<int>(loop.size());
  if (n < 3) return {};
  // Beyond a few dozen edges the pair test's O(n²) shows (seconds for 10⁴
  // vertices); the sweep is O(n log n). Below, all pairs: the first
  // crossing in edge order.
  if (n > 64) return sweep_self_intersection(loop);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
      const Vec2 a1 = loop[i], a2 = loop[(i + 1) % n];
      const Vec2 b1 = loop[j], b2 = loop[(j + 1) % n];
      if (adjacent) {
        // Adjacent edges share a vertex; they intersect improperly only when
        // they fold back onto each other (collinear, pointing opposite ways).
        const Vec2 shared = j == i + 1 ? a2 : a1;
        const Vec2 u = (j == i + 1 ? a1 : a2) - shared;
        const Vec2 v = (j == i + 1 ? b2 : b1) - shared;
        if (cross(u, v) == 0.0 && dot(u, v) > 0.0) return {i, j};
        continue;
      }
      if (segments_intersect(a1, a2, b1, b2)) return {i, j};
    }
  }
  return {};
}

bool point_in_polygon(Vec2 p, std::span<const Vec2> loop) {
  bool inside = false;
  const std::size_t n = loop.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 a = loop[i], b = loop[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

}  // namespace sphero
