// Walking a skeleton from vertex to vertex, for the corner rule of
// contact_geometry.h and for the feature-pair search: the next and previous
// vertex (a seamed wall goes on into its next periodic copy), and where a
// point lies against the inner side of a bend.
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/world.h"

namespace sphero {

inline bool seamed(const World& w, int body) {
  return !w.seam.empty() && w.seam[static_cast<std::size_t>(body)] != Vec2{};
}

// The vertex after / before global vertex k along its own body's skeleton
// (k = -1 at the ends of an open path), and where that vertex's copy lies
// against k's copy of the body: a seamed wall (World::seam) goes on across
// the seam into the next copy. Along an edge (which never starts at an
// open path's last vertex) the shift is zero: after(...).k is its end.
struct Along {
  int k = -1;  // none: a free end
  Vec2 shift;
};
inline Along after(const World& w, int body, int k) {
  const int begin = w.vertex_begin[body], last = begin + w.vertex_count[body] - 1;
  if (k < last) return {k + 1, {}};
  if (w.closed[body]) return {begin, {}};
  if (seamed(w, body)) return {begin + 1, w.seam[static_cast<std::size_t>(body)]};
  return {};
}
inline Along before(const World& w, int body, int k) {
  const int begin = w.vertex_begin[body], last = begin + w.vertex_count[body] - 1;
  if (k > begin) return {k - 1, {}};
  if (w.closed[body]) return {last, {}};
  if (seamed(w, body)) return {last - 1, -w.seam[static_cast<std::size_t>(body)]};
  return {};
}
inline Vec2 position_of(const World& w, int body, Along a) { return vertex_position(w, body, a.k) + a.shift; }

// A seamed wall's last vertex is the next copy's first: not a feature.
inline bool is_feature(const World& w, int body, int k) {
  return !seamed(w, body) || k != w.vertex_begin[body] + w.vertex_count[body] - 1;
}

// Can a vertex beyond an edge's end at skeleton vertex k be on the inner
// side of a bend there? At every inner vertex of an open path (it has two
// sides; a seam is one), and at the reflex vertices of a closed polygon
// (stored counter-clockwise: a right turn); never at a free end or a
// convex corner.
inline bool has_inner_side(const World& w, int body, int k) {
  // A closed skeleton's clear bends are known from its shape (never seamed:
  // its neighbours are its own); only the nearly straight ones are worked
  // out here, with the body as it now lies.
  if (w.closed[body]) {
    const std::int8_t bend = w.local_bend[static_cast<std::size_t>(k + w.local_shift[body])];
    if (bend != 0) return bend > 0;
  }
  const Along in = before(w, body, k), out = after(w, body, k);
  if (in.k < 0 || out.k < 0) return false;
  if (!w.closed[body]) return true;
  const Vec2 apex = vertex_position(w, body, k);
  return cross(apex - position_of(w, body, in), position_of(w, body, out) - apex) < 0.0;
}

// Where u (a point relative to skeleton vertex `corner`) lies against the
// inner side of the bend there, seen from the edge that ends at the corner
// (`edge_ends_there`) or starts there: how far along the other edge, and how
// far to the side the skeleton turns to, both times that edge's length (so
// that no division changes a sign). Both positive: on the inner side,
// alongside the other edge — not behind the corner, where the corner's
// exterior cone is. A straight-on corner has no inner side (-inf).
struct InnerSide {
  double along = -INFINITY, side = -INFINITY, length = 1.0;
};
// `apex` is the corner's position in the body's own frame (unshifted).
inline InnerSide inner_side(const World& w, int body, int corner, Vec2 apex, bool edge_ends_there, Vec2 u) {
  const Vec2 in = apex - position_of(w, body, before(w, body, corner));
  const Vec2 out = position_of(w, body, after(w, body, corner)) - apex;
  const double turn = cross(in, out);
  if (turn == 0.0) return {};
  const Vec2 other = edge_ends_there ? out : -in;  // the other edge, pointing away from the corner
  const double side = cross(edge_ends_there ? out : in, u);
  return {dot(u, other), turn > 0.0 ? side : -side, norm(other)};
}

}  // namespace sphero
