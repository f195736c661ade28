// The triangles of a triangulation that meet an open disc, found by a walk
// from one of them across their edges (docs/MODEL.md §8, "Neighbours from
// the triangulation"). Those triangles form one connected patch — a
// segment between two points of the disc stays in it and crosses edges
// only where they meet it — so the walk misses none, whatever the shape of
// the triangles.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "triangulation/void_triangulation.h"

namespace sphero {

// Whether segment ab comes closer than `radius` to `centre` (no division:
// the walks test every edge they cross).
inline bool segment_meets_disc(Vec2 a, Vec2 b, Vec2 centre, double radius) {
  const Vec2 ab = b - a, ac = centre - a;
  const double along = dot(ac, ab), length2 = norm2(ab), r2 = radius * radius;
  if (along <= 0.0) return norm2(ac) < r2;
  if (along >= length2) return norm2(centre - b) < r2;
  const double side = cross(ab, ac);
  return side * side < r2 * length2;
}

class DiscWalk {
 public:
  // Calls visit(v) for each vertex of each triangle that meets the disc
  // (vertices shared by several triangles come more than once), except
  // the triangles inside the skeletons of body `around`. `start` must meet
  // the disc and lie outside those skeletons: a triangle outside body
  // `around` at one of its vertices, in a disc that holds its skeleton, is
  // one. The walk then goes round that body's skeleton instead of through
  // it: the triangles outside a skeleton at its vertices form one ring.
  template <class Visit>
  void visit_vertices(const VoidTriangulation& tri, int start, Vec2 centre, double radius, int around, Visit&& visit) {
    const auto& triangles = tri.triangles();
    if (stamp_.size() != triangles.size()) stamp_.assign(triangles.size(), 0);
    if (++walk_ == 0) {  // the stamps wrapped around: clear them
      std::fill(stamp_.begin(), stamp_.end(), 0);
      walk_ = 1;
    }
    pending_.clear();
    pending_.push_back(start);
    stamp_[static_cast<std::size_t>(start)] = walk_;
    while (!pending_.empty()) {
      const int t = pending_.back();
      pending_.pop_back();
      const VoidTriangulation::Triangle& triangle = triangles[static_cast<std::size_t>(t)];
      // A triangle inside a skeleton has only that skeleton's vertices,
      // which the triangle the walk came in through had too.
      if (!triangle.inside)
        for (int v : triangle.vertex) visit(v);
      for (int k = 0; k < 3; ++k) {
        const int beyond = triangle.across[static_cast<std::size_t>(k)];
        if (beyond == VoidTriangulation::kNone || stamp_[static_cast<std::size_t>(beyond)] == walk_) continue;
        if (triangle.is_constrained(k) && triangles[static_cast<std::size_t>(beyond)].inside &&
            tri.body_of_vertex(triangles[static_cast<std::size_t>(beyond)].vertex[0]) == around)
          continue;
        // Crossing the edge opposite vertex k leads to a triangle meeting
        // the disc only if the edge itself meets it.
        const Vec2 a =
            tri.vertices()[static_cast<std::size_t>(triangle.vertex[static_cast<std::size_t>(k == 2 ? 0 : k + 1)])];
        const Vec2 b =
            tri.vertices()[static_cast<std::size_t>(triangle.vertex[static_cast<std::size_t>(k == 0 ? 2 : k - 1)])];
        if (!segment_meets_disc(a, b, centre, radius)) continue;
        stamp_[static_cast<std::size_t>(beyond)] = walk_;
        pending_.push_back(beyond);
      }
    }
  }

 private:
  std::vector<std::uint32_t> stamp_;  // per triangle: the walk that reached it
  std::uint32_t walk_ = 0;
  std::vector<int> pending_;
};

}  // namespace sphero
