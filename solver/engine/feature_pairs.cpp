#include "engine/feature_pairs.h"

#include <algorithm>
#include <cmath>

#include "engine/skeleton_walk.h"
#include "geometry/segment.h"

namespace sphero {

bool FeaturePairFinder::add_pair(int a, int b, Vec2 shift, std::array<int, 2> image) {
  const std::size_t before = found.size();
  const double cutoff = w.radius[a] + w.radius[b] + skin_;
  if (!contact_lists_) {
    add_all_feature_pairs(a, b, shift, image);
    return found.size() > before;
  }
  // Only vertices and edges within the cutoff of the circle around the
  // other body's skeleton can be in a contact: select them first, so that
  // two big polygons touching at their rims cost what their rims cost,
  // not M². (The skeleton's circle, not the outline's: the sphero-radius
  // is in the cutoff already.)
  const double reach_a = skeleton_reach(a) + cutoff, reach_b = skeleton_reach(b) + cutoff;
  near_vertices(a, {}, w.position[b] + shift, reach_b, near_a_);
  near_vertices(b, shift, w.position[a], reach_a, near_b_);
  if (near_a_.empty() && near_b_.empty()) return false;
  near_edges(b, shift, w.position[a], reach_a, edges_b_);
  near_edges(a, {}, w.position[b] + shift, reach_b, edges_a_);
  add_vertices_on_edges(a, near_a_, b, edges_b_, shift, image, cutoff);
  add_vertices_on_edges(b, near_b_, a, edges_a_, -shift, {-image[0], -image[1]}, cutoff);
  add_vertex_corner_pairs(a, b, shift, image, cutoff);
  return found.size() > before;
}

// Corners: each vertex near body b against each corner (or free end) of
// the other body whose exterior cone it may enter; two points meet once.
void FeaturePairFinder::add_vertex_corner_pairs(int a, int b, Vec2 shift, std::array<int, 2> image, double cutoff) {
  // Relative turning allowed before a rebuild, per unit lever arm.
  const double turn = skin_ / 2.0 * (1.0 / w.bounding_radius[a] + 1.0 / w.bounding_radius[b]);
  const double slack = skin_ + cutoff * turn;
  const bool a_point = w.vertex_count[a] == 1, b_point = w.vertex_count[b] == 1;
  for (int v : near_a_)
    for (int u : near_b_) {
      const Vec2 other = w.world_vertex[u] + shift;
      const double apart = norm2(other - w.world_vertex[v]);
      if (!(apart < cutoff * cutoff)) continue;
      const bool half_skin_too = within_half_skin(apart, cutoff);
      if (a_point && b_point) {
        push(a, b, v, u, ContactKind::vertex_vertex, shift, image, half_skin_too);
        continue;
      }
      if (!b_point && near_cone(b, u, shift, w.world_vertex[v], slack))
        push(a, b, v, u, ContactKind::vertex_vertex, shift, image, half_skin_too);
      if (!a_point && near_cone(a, v, {}, other, slack))
        push(b, a, u, v, ContactKind::vertex_vertex, -shift, {-image[0], -image[1]}, half_skin_too);
    }
}

// Without contact lists: every vertex of each body against every edge
// and every vertex of the other, left for the force loop to reject.
void FeaturePairFinder::add_all_feature_pairs(int a, int b, Vec2 shift, std::array<int, 2> image) {
  const int a_end = w.vertex_begin[a] + w.vertex_count[a], b_end = w.vertex_begin[b] + w.vertex_count[b];
  const auto vertex_on_edges = [&](int vb, int v_end, int eb, Vec2 offset, std::array<int, 2> seen) {
    for (int v = w.vertex_begin[vb]; v < v_end; ++v) {
      if (!is_feature(w, vb, v)) continue;
      for (int e = 0; e < w.edge_count(eb); ++e)
        push(vb, eb, v, w.vertex_begin[eb] + e, ContactKind::vertex_edge, offset, seen);
    }
  };
  vertex_on_edges(a, a_end, b, shift, image);
  vertex_on_edges(b, b_end, a, -shift, {-image[0], -image[1]});
  const bool a_point = w.vertex_count[a] == 1, b_point = w.vertex_count[b] == 1;
  for (int v = w.vertex_begin[a]; v < a_end; ++v)
    for (int u = w.vertex_begin[b]; u < b_end; ++u) {
      if (!is_feature(w, a, v) || !is_feature(w, b, u)) continue;
      if (!b_point || a_point) push(a, b, v, u, ContactKind::vertex_vertex, shift, image);
      if (!a_point) push(b, a, u, v, ContactKind::vertex_vertex, -shift, {-image[0], -image[1]});
    }
}

// The largest distance from body b's centre to its skeleton (its bounding
// radius less its sphero-radius), widened by rounding's worth.
double FeaturePairFinder::skeleton_reach(int b) const {
  return (w.bounding_radius[b] - w.radius[b]) * (1.0 + 1e-9) + 1e-12 * w.bounding_radius[b];
}

// The index ranges of body's vertices (or edges, by first vertex: end is
// where they stop) worth scanning for features within reach of centre:
// the chunks whose circles come within reach, or the whole skeleton.
// Calls scan(from, to) in increasing order.
template <class Scan>
void FeaturePairFinder::near_ranges(int body, Vec2 offset, Vec2 centre, double reach, int end, Scan&& scan) const {
  const int begin = w.vertex_begin[body];
  const int count = chunks_ == nullptr ? 0 : chunks_->count(body);
  if (count == 0) {
    scan(begin, end);
    return;
  }
  const int first = chunks_->first[static_cast<std::size_t>(body)];
  for (int c = 0; c < count; ++c) {
    const double r = chunks_->radius[static_cast<std::size_t>(first + c)] + reach;
    if (norm2(chunks_->centre[static_cast<std::size_t>(first + c)] + offset - centre) < r * r)
      scan(begin + c * kChunkEdges, std::min(begin + (c + 1) * kChunkEdges, end));
  }
}

// Squared distances throughout the search: no square root per feature.
void FeaturePairFinder::near_vertices(int body, Vec2 offset, Vec2 centre, double reach, std::vector<int>& out) const {
  out.clear();
  near_ranges(body, offset, centre, reach, w.vertex_begin[body] + w.vertex_count[body], [&](int from, int to) {
    for (int v = from; v < to; ++v)
      if (norm2(w.world_vertex[v] + offset - centre) < reach * reach && is_feature(w, body, v)) out.push_back(v);
  });
}

// Edges (by first vertex) that come within reach of centre.
void FeaturePairFinder::near_edges(int body, Vec2 offset, Vec2 centre, double reach, std::vector<int>& out) const {
  out.clear();
  near_ranges(body, offset, centre, reach, w.vertex_begin[body] + w.edge_count(body), [&](int from, int to) {
    for (int start = from; start < to; ++start) {
      const Vec2 p = w.world_vertex[start] + offset, q = w.world_vertex[after(w, body, start).k] + offset;
      if (norm2(centre - closest_point_on_segment(centre, p, q)) < reach * reach) out.push_back(start);
    }
  });
}

// Could p enter the exterior cone of vertex k (body moved by offset)?
bool FeaturePairFinder::near_cone(int body, int k, Vec2 offset, Vec2 p, double slack) const {
  const Vec2 apex = w.world_vertex[k] + offset;
  for (const Along neighbour : {after(w, body, k), before(w, body, k)}) {
    if (neighbour.k < 0) continue;
    const Vec2 along = w.world_vertex[neighbour.k] + neighbour.shift + offset - apex;
    if (dot(p - apex, along) > slack * norm(along)) return false;
  }
  return true;
}

void FeaturePairFinder::add_vertices_on_edges(int vb, const std::vector<int>& vertices, int eb,
                                              const std::vector<int>& edges, Vec2 offset, std::array<int, 2> image,
                                              double cutoff) {
  for (int start : edges) {
    const int end = after(w, eb, start).k;
    const Vec2 p = w.world_vertex[start] + offset, q = w.world_vertex[end] + offset;
    const Vec2 edge = q - p;
    const double length = norm(edge);
    // Bodies move by at most δ each and the edge turns by at most δ / R.
    const double slack = skin_ + (length + cutoff) * (skin_ / 2.0) / w.bounding_radius[eb];
    const double lowest = -slack * length, highest = length * (length + slack);  // along, times the length
    for (int v : vertices) {
      const Vec2 x = w.world_vertex[v];
      // Farther than the cutoff from the edge's line, so from the edge:
      // most pairs of a round body's rim go no further.
      const double side = cross(edge, x - p);
      if (std::abs(side) >= cutoff * length) continue;
      // Inside the slab (with slack) — or beyond an end where the skeleton
      // bends back on that side, where the edge goes on counting clamped
      // to its end (convex polygons have no such ends).
      if (w.closed[eb] && side > slack * length) continue;  // behind the edge (see contact_geometry)
      const double apart = norm2(x - closest_point_on_segment(x, p, q));
      if (!(apart < cutoff * cutoff)) continue;
      // (The bend's test last: beyond an end, most vertices are out of
      // reach of the edge anyway.)
      const double along = dot(x - p, edge);
      const bool listed = along > lowest ? (along < highest || near_inner_side(eb, end, true, x, offset, slack))
                                         : near_inner_side(eb, start, false, x, offset, slack);
      if (listed) push(vb, eb, v, start, ContactKind::vertex_edge, offset, image, within_half_skin(apart, cutoff));
    }
  }
}

// Could x (allowed motion: slack) be on the inner side of the bend at
// skeleton vertex `corner`, beyond the end of the edge that ends there
// (`edge_ends_there`) or starts there? (on_inner_side_beyond_end, with
// slack, and only where a bend can have an inner side.)
bool FeaturePairFinder::near_inner_side(int body, int corner, bool edge_ends_there, Vec2 x, Vec2 offset,
                                        double slack) const {
  if (!has_inner_side(w, body, corner)) return false;
  const Vec2 apex = w.world_vertex[corner];
  const InnerSide s = inner_side(w, body, corner, apex, edge_ends_there, x - (apex + offset));
  return s.along > -slack * s.length && s.side > -slack * s.length;
}

// Would half the skin still list a pair of features `apart` (squared)
// with this cutoff?
bool FeaturePairFinder::within_half_skin(double apart, double cutoff) const {
  const double half = cutoff - skin_ / 2.0;
  return apart < half * half;
}

void FeaturePairFinder::push(int vb, int eb, int v, int f, ContactKind kind, Vec2 offset, std::array<int, 2> image,
                             bool within_half_skin_too) {
  if (counts_pair(counted, w, vb, eb)) listed_at_half_skin += within_half_skin_too;
  Candidate c;
  c.vertex_body = vb;
  c.edge_body = eb;
  c.vertex = v;
  c.feature = f;
  c.kind = kind;
  c.feature_end = kind == ContactKind::vertex_edge ? after(w, eb, f).k : f;
  c.image = image;
  c.reach = w.radius[vb] + w.radius[eb];
  c.edge_offset = offset;
  found.push_back(c);
}

// Distance from a point to the skeleton of body b moved by offset.
double FeaturePairFinder::skeleton_distance(int b, Vec2 offset, Vec2 p) const {
  if (w.vertex_count[b] == 1) return norm(w.world_vertex[w.vertex_begin[b]] + offset - p);
  double d = INFINITY;
  for (int e = 0; e < w.edge_count(b); ++e) {
    const int start = w.vertex_begin[b] + e;
    d = std::min(
        d, distance_to_segment(p, w.world_vertex[start] + offset, w.world_vertex[after(w, b, start).k] + offset));
  }
  return d;
}

}  // namespace sphero
