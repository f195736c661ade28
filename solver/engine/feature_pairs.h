// The feature pairs of two neighbouring bodies worth listing until the next
// rebuild (docs/MODEL.md §4, "Contact lists"): each vertex against the
// edges and corners of the other body that it may touch under the corner
// rule of contact_geometry.h, given how far the bodies may move.
#pragma once

#include <array>
#include <vector>

#include "engine/contact.h"
#include "engine/skeleton_chunks.h"
#include "engine/world.h"

namespace sphero {

// One per thread of a list rebuild: it appends what it finds to `found`.
class FeaturePairFinder {
 public:
  // `skin`: 2δ, the distance two bodies may close before the next rebuild;
  // `chunks` may be null (every skeleton scanned whole).
  FeaturePairFinder(const World& world, double skin, bool contact_lists, const SkeletonChunks* chunks)
      : w(world), skin_(skin), contact_lists_(contact_lists), chunks_(chunks) {}

  // Feature pairs between body a and the image of body b moved by `shift`
  // (`image` counts periods, in unwrapped coordinates). Only pairs that can
  // become contacts under the rules before the next rebuild are listed:
  // within the cutoff, and with the vertex inside the edge's slab (or the
  // two vertices inside each other's cones) up to the slack that the
  // allowed motion can shift them by. Without this, round polygons with
  // many vertices would list every vertex against every nearby edge: M²
  // pairs per contact. Returns whether it listed any.
  bool add_pair(int a, int b, Vec2 shift, std::array<int, 2> image);
  // Distance from a point to the skeleton of body b moved by offset.
  double skeleton_distance(int b, Vec2 offset, Vec2 p) const;

  std::vector<Candidate> found;
  // Of those found, how many a skin half as thick would still list
  // (NeighbourListState::listed_at_half_skin).
  long listed_at_half_skin = 0;
  // Non-null: only candidates whose home body it marks (PartCount) are
  // counted there (a rank's share of a world spread over ranks).
  const std::uint8_t* counted = nullptr;

 private:
  void add_all_feature_pairs(int a, int b, Vec2 shift, std::array<int, 2> image);
  void add_vertex_corner_pairs(int a, int b, Vec2 shift, std::array<int, 2> image, double cutoff);
  double skeleton_reach(int b) const;
  template <class Scan>
  void near_ranges(int body, Vec2 offset, Vec2 centre, double reach, int end, Scan&& scan) const;
  void near_vertices(int body, Vec2 offset, Vec2 centre, double reach, std::vector<int>& out) const;
  void near_edges(int body, Vec2 offset, Vec2 centre, double reach, std::vector<int>& out) const;
  bool near_cone(int body, int k, Vec2 offset, Vec2 p, double slack) const;
  void add_vertices_on_edges(int vb, const std::vector<int>& vertices, int eb, const std::vector<int>& edges,
                             Vec2 offset, std::array<int, 2> image, double cutoff);
  bool near_inner_side(int body, int corner, bool edge_ends_there, Vec2 x, Vec2 offset, double slack) const;
  bool within_half_skin(double apart, double cutoff) const;
  void push(int vb, int eb, int v, int f, ContactKind kind, Vec2 offset, std::array<int, 2> image,
            bool within_half_skin_too = true);

  const World& w;
  double skin_;
  bool contact_lists_;
  const SkeletonChunks* chunks_;
  std::vector<int> near_a_, near_b_, edges_a_, edges_b_;  // scratch, reused
};

}  // namespace sphero
