// Neighbour pairs from the triangulated void space (docs/MODEL.md §8): the
// grains' skeletons triangulated once, moved along with them at each list
// rebuild by flips, and walked from each grain over the triangles within
// its reach. A periodic cell is covered by copies of the grains near its
// border (CGAL's periodic triangulations take no constraints).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/world.h"
#include "triangulation/disc_walk.h"
#include "triangulation/void_triangulation.h"

namespace sphero {

class TriangulationNeighbours {
 public:
  // Brings the triangulation to the grains' world vertices (current), for
  // pairs whose outlines come within `skin`: moves it by flips, or builds
  // it when there is none yet, or when the periodic copies no longer cover
  // what the walks reach. Throws InstabilityError when two skeletons cross
  // (an overlap deeper than both sphero-radii). `each_pair_once`: every
  // grain walks, and a pair need only be found from the grain with the
  // larger sphero-radius (see for_each_grain_near); otherwise each walking
  // grain must find all of its pairs itself.
  void follow(const World& w, const std::vector<std::array<int, 2>>& wraps, double skin, int threads,
              bool each_pair_once);

  // Calls visit(j) once for every grain j ≠ i that may have a feature
  // pair with grain i within `skin` (its skeleton within reach of i's) —
  // when follow's each_pair_once, only those whose sphero-radius is at most
  // i's (the others find i) — and possibly others, in no particular order;
  // `member` is the calling thread's (below follow's `threads`).
  template <class Visit>
  void for_each_grain_near(int member, int i, Visit&& visit);

  const VoidTriangulation& triangulation() const { return *triangulation_; }
  // Over every triangulation this has made (a periodic cell's copies are
  // made anew when the grains drift too far from where they were copied).
  TriangulationStats stats() const;
  std::size_t memory_bytes() const;

 private:
  struct Walker {
    DiscWalk walk;
    std::vector<std::uint32_t> seen;  // per body: the round that reported it
    std::uint32_t round = 0;
  };
  void build(const World& w, const std::vector<std::array<int, 2>>& wraps, double reach);
  bool copies_still_cover(const World& w, const std::vector<std::array<int, 2>>& wraps, double reach) const;
  Vec2 continuous_position(const World& w, const std::vector<std::array<int, 2>>& wraps, int body) const;
  void fill_points(const World& w, const std::vector<std::array<int, 2>>& wraps, std::vector<Vec2>& points) const;

  std::unique_ptr<VoidTriangulation> triangulation_;
  // Which body and which periodic image each skeleton is: the first
  // size() skeletons are the bodies' own, in body order (-1: a wall).
  std::vector<int> copy_body_;
  std::vector<std::array<int, 2>> copy_image_;
  std::vector<int> first_point_;  // per body: its own skeleton's first point, -1 for a wall
  std::vector<std::array<int, 2>> wraps_at_build_;
  std::vector<Vec2> position_at_build_;
  std::size_t body_count_ = 0;
  double reach_ = 0.0;               // the longest walk the copies were made for: R + r_max + skin
  double drift_ = 0.0;               // how far a grain may move before the copies are made anew
  std::vector<Vec2> walk_centre_;    // per body, this rebuild's, in the triangulation's coordinates
  std::vector<double> walk_radius_;  // per body, this rebuild's
  std::vector<Walker> walkers_;
  TriangulationStats retired_;  // of the triangulations made before this one
};

template <class Visit>
void TriangulationNeighbours::for_each_grain_near(int member, int i, Visit&& visit) {
  Walker& walker = walkers_[static_cast<std::size_t>(member)];
  if (++walker.round == 0) {
    std::fill(walker.seen.begin(), walker.seen.end(), 0);
    walker.round = 1;
  }
  walker.seen[static_cast<std::size_t>(i)] = walker.round;
  const VoidTriangulation& t = *triangulation_;
  const int start = t.outside_triangle_at_vertex(first_point_[static_cast<std::size_t>(i)]);
  walker.walk.visit_vertices(
      t, start, walk_centre_[static_cast<std::size_t>(i)], walk_radius_[static_cast<std::size_t>(i)], i, [&](int v) {
        const int j = t.body_of_vertex(v);
        if (j < 0 || walker.seen[static_cast<std::size_t>(j)] == walker.round) return;
        walker.seen[static_cast<std::size_t>(j)] = walker.round;
        visit(j);
      });
}

}  // namespace sphero
