#include "engine/contact_geometry.h"

#include "engine/skeleton_walk.h"

namespace sphero {

// Is p in the exterior cone of vertex k (of `body`, shifted by `offset`,
// where it is at `apex`): beyond the k-end of each edge that meets at k?
bool detail::in_exterior_cone(const World& w, int body, int k, Vec2 offset, Vec2 apex, Vec2 p) {
  const Vec2 to_p = p - apex;
  for (const Along neighbour : {after(w, body, k), before(w, body, k)}) {
    if (neighbour.k < 0) continue;
    if (dot(to_p, position_of(w, body, neighbour) + offset - apex) > 0.0) return false;
  }
  return true;
}

// A vertex at x beyond one end of a candidate's edge: is it on the inner
// side of the bend the skeleton makes there (where the next edge's slab
// overlaps this one's), rather than in the corner's exterior cone or beyond
// a free end?
bool detail::on_inner_side_beyond_end(const World& w, const Candidate& c, Vec2 x, bool beyond_far_end) {
  const int corner = beyond_far_end ? c.feature_end : c.feature;
  const Along other = beyond_far_end ? after(w, c.edge_body, corner) : before(w, c.edge_body, corner);
  if (other.k < 0) return false;  // a free end: its cap is the corner contact's
  const Vec2 apex = vertex_position(w, c.edge_body, corner);
  const InnerSide s = inner_side(w, c.edge_body, corner, apex, beyond_far_end, x - (apex + c.edge_offset));
  return s.along > 0.0 && s.side > 0.0;
}

Candidate packed(const World& w, const Contact& c) {
  Candidate p;
  p.vertex_body = c.vertex_body;
  p.edge_body = c.edge_body;
  p.vertex = c.vertex;
  p.feature = c.feature;
  p.kind = c.kind;
  p.active = c.active;
  p.sliding = c.sliding;
  p.feature_end = c.kind == ContactKind::vertex_edge ? after(w, c.edge_body, c.feature).k : c.feature;
  p.image = c.image;
  p.reach = w.radius[c.vertex_body] + w.radius[c.edge_body];
  p.edge_offset = c.edge_offset;
  return p;
}

ContactGeometry contact_geometry(const World& w, const Contact& c) { return contact_geometry(w, packed(w, c)); }

}  // namespace sphero
