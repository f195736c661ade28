// The geometry of one candidate feature pair (docs/MODEL.md §2, "Which
// feature pairs touch"): whether it is a contact now, and its overlap and
// normal. A vertex V of one body touches
//  - an edge E of the other where V's projection falls strictly inside E —
//    on E's outer side only, if E belongs to a closed polygon;
//  - beyond an end of E on the inner side of a bend there, E clamped to
//    that end (where the two edges' slabs overlap);
//  - a corner (or free end) W of the other where V is in W's exterior cone
//    (V projects beyond the W-end of every edge at W; a lone point's cone
//    is the whole plane); two points meet once.
// So a vertex near a convex corner is counted once, as a vertex–corner
// contact, never once per edge; a disk pressed onto a corner and onto a
// flat edge feels the same stiffness; and the contacts' energy is
// continuous as a vertex moves around the other's skeleton.
#pragma once

#include "engine/contact.h"
#include "engine/world.h"

namespace sphero {

// Geometry of one candidate in the current configuration: whether it is a
// contact under the rules above, and if so X, Y, overlap and normal.
struct ContactGeometry {
  bool touching = false;
  Vec2 vertex_point;  // X
  Vec2 edge_point;    // Y (with the edge offset applied)
  double overlap = 0.0;
  Vec2 normal;
};
ContactGeometry contact_geometry(const World& world, const Contact& candidate);

namespace detail {
// The rare branches of contact_geometry (contacts.cpp). Is p in the
// exterior cone of vertex k of `body` (shifted by `offset`, where it is at
// `apex`): beyond the k-end of each edge that meets at k? A vertex at x
// beyond one end of a candidate's edge: is it on the inner side of the bend
// the skeleton makes there (where the next edge's slab overlaps this
// one's), rather than in the corner's exterior cone or beyond a free end?
bool in_exterior_cone(const World& w, int body, int k, Vec2 offset, Vec2 apex, Vec2 p);
bool on_inner_side_beyond_end(const World& w, const Candidate& c, Vec2 x, bool beyond_far_end);
}  // namespace detail

// Always inline: the contact pass calls it for every candidate every step,
// and GCC would otherwise call it out of line there.
[[gnu::always_inline]] inline ContactGeometry contact_geometry(const WorldView& w, const Candidate& c) {
  ContactGeometry g;
  const Vec2 x = w.vertex(c.vertex_body, c.vertex);
  // Most candidates are apart: rejected on squared distances first (with a
  // margin, so that every touching pair still takes the exact path below).
  const double reject_beyond = c.reach * c.reach * (1.0 + 1e-12);
  Vec2 y;
  if (c.kind == ContactKind::vertex_edge) {
    const Vec2 a = w.vertex(c.edge_body, c.feature) + c.edge_offset;
    const Vec2 b = w.vertex(c.edge_body, c.feature_end) + c.edge_offset;
    const Vec2 ab = b - a;
    // A closed polygon's edge meets only vertices on its outer side (the
    // right of a counter-clockwise edge). From behind, a vertex beside a
    // sharp tip would also reach the tip's far face through the thin
    // skeleton, and lose that contact with a finite overlap where it leaves
    // the far face's slab (a dense pile of cows drifted by it).
    if (w.closed[c.edge_body] && cross(ab, x - a) > 0.0) return g;
    const double t = dot(x - a, ab) / norm2(ab);
    if (t > 0.0 && t < 1.0) {
      y = a + t * ab;
    } else {
      // Beyond an end: the corner's contact takes over on the outer side
      // of the bend (or at a free end); on the inner side this edge goes on
      // counting, clamped to its end, as the neighbouring edge's does.
      if (!detail::on_inner_side_beyond_end(*w.world, c, x, t >= 1.0)) return g;
      y = t >= 1.0 ? b : a;
    }
    if (norm2(y - x) > reject_beyond) return g;
  } else {
    y = w.vertex(c.edge_body, c.feature) + c.edge_offset;
    if (norm2(y - x) > reject_beyond) return g;
    // A lone point's cone is the whole plane.
    if (w.vertex_count[c.edge_body] > 1 &&
        !detail::in_exterior_cone(*w.world, c.edge_body, c.feature, c.edge_offset, y, x))
      return g;
  }
  const double d = norm(y - x);
  const double overlap = c.reach - d;
  if (!(overlap > 0.0) || d == 0.0) return g;
  g.touching = true;
  g.vertex_point = x;
  g.edge_point = y;
  g.overlap = overlap;
  g.normal = (y - x) / d;
  return g;
}
inline ContactGeometry contact_geometry(const World& w, const Candidate& c) {
  return contact_geometry(WorldView(w), c);
}

// A record's key and flags, packed for the force pass.
Candidate packed(const World& world, const Contact& contact);

}  // namespace sphero
