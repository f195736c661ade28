// The triangles of a triangulation that meet an open disc, found by a walk
// from one of them across their edges (docs/MODEL.md §8, "Neighbours from
// the triangulation"). Those triangles form one connected patch — a
// segment between two points of the disc stays in it and crosses edges
// only where they meet it — so the walk misses none, whatever the shape of
// the triangles.
#pragma once

#include <cstdint>
#include <vector>

#include "geometry/segment.h"
#include "triangulation/void_triangulation.h"

namespace sphero {

class DiscWalk {
 public:
  // Calls visit(v) for each vertex of each triangle that meets the disc
  // (vertices shared by several triangles come more than once). `start`
  // must meet the disc: a triangle at a vertex inside it, say.
  template <class Visit>
  void visit_vertices(const VoidTriangulation& tri, int start, Vec2 centre, double radius, Visit&& visit) {
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
      for (int v : triangle.vertex) visit(v);
      for (int k = 0; k < 3; ++k) {
        const int beyond = triangle.across[static_cast<std::size_t>(k)];
        if (beyond == VoidTriangulation::kNone || stamp_[static_cast<std::size_t>(beyond)] == walk_) continue;
        // Crossing the edge opposite vertex k leads to a triangle meeting
        // the disc only if the edge itself meets it.
        const Vec2 a = tri.vertices()[static_cast<std::size_t>(triangle.vertex[static_cast<std::size_t>(k == 2 ? 0 : k + 1)])];
        const Vec2 b = tri.vertices()[static_cast<std::size_t>(triangle.vertex[static_cast<std::size_t>(k == 0 ? 2 : k - 1)])];
        if (!(norm2(closest_point_on_segment(centre, a, b) - centre) < radius * radius)) continue;
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
