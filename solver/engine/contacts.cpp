#include "engine/contacts.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <tuple>

#include "engine/thread_team.h"
#include "geometry/segment.h"

namespace sphero {
namespace {

bool seamed(const World& w, int body) { return !w.seam.empty() && w.seam[static_cast<std::size_t>(body)] != Vec2{}; }

// The vertex after / before global vertex k along its own body's skeleton
// (k = -1 at the ends of an open path), and where that vertex's copy lies
// against k's copy of the body: a seamed wall (World::seam) goes on across
// the seam into the next copy. Along an edge (which never starts at an
// open path's last vertex) the shift is zero: after(...).k is its end.
struct Along {
  int k = -1;  // none: a free end
  Vec2 shift;
};
Along after(const World& w, int body, int k) {
  const int begin = w.vertex_begin[body], last = begin + w.vertex_count[body] - 1;
  if (k < last) return {k + 1, {}};
  if (w.closed[body]) return {begin, {}};
  if (seamed(w, body)) return {begin + 1, w.seam[static_cast<std::size_t>(body)]};
  return {};
}
Along before(const World& w, int body, int k) {
  const int begin = w.vertex_begin[body], last = begin + w.vertex_count[body] - 1;
  if (k > begin) return {k - 1, {}};
  if (w.closed[body]) return {last, {}};
  if (seamed(w, body)) return {last - 1, -w.seam[static_cast<std::size_t>(body)]};
  return {};
}
Vec2 position_of(const World& w, int body, Along a) { return vertex_position(w, body, a.k) + a.shift; }

// A seamed wall's last vertex is the next copy's first: not a feature.
bool is_feature(const World& w, int body, int k) {
  return !seamed(w, body) || k != w.vertex_begin[body] + w.vertex_count[body] - 1;
}

// Can a vertex beyond an edge's end at skeleton vertex k be on the inner
// side of a bend there? At every inner vertex of an open path (it has two
// sides; a seam is one), and at the reflex vertices of a closed polygon
// (stored counter-clockwise: a right turn); never at a free end or a
// convex corner.
bool has_inner_side(const World& w, int body, int k) {
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
InnerSide inner_side(const World& w, int body, int corner, Vec2 apex, bool edge_ends_there, Vec2 u) {
  const Vec2 in = apex - position_of(w, body, before(w, body, corner));
  const Vec2 out = position_of(w, body, after(w, body, corner)) - apex;
  const double turn = cross(in, out);
  if (turn == 0.0) return {};
  const Vec2 other = edge_ends_there ? out : -in;  // the other edge, pointing away from the corner
  const double side = cross(edge_ends_there ? out : in, u);
  return {dot(u, other), turn > 0.0 ? side : -side, norm(other)};
}

// The canonical order of candidates: by body pair, periodic image (seen
// from the lower body), kind, which body holds the vertex, vertex, feature.
// Packed into three integers, compared as one 192-bit number.
using SortKey = std::array<std::uint64_t, 3>;
SortKey sort_key(const Candidate& c) {
  const bool vertex_first = c.vertex_body < c.edge_body;
  const auto low = static_cast<std::uint32_t>(vertex_first ? c.vertex_body : c.edge_body);
  const auto high = static_cast<std::uint32_t>(vertex_first ? c.edge_body : c.vertex_body);
  const int sign = vertex_first ? 1 : -1;
  // Images count periods crossed (±2²³ is beyond any run); biased so that
  // unsigned order is signed order.
  const auto biased = [](int v) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(v) + (1 << 23)) & 0xFFFFFF; };
  return {(static_cast<std::uint64_t>(low) << 32) | high,
          (biased(sign * c.image[0]) << 40) | (biased(sign * c.image[1]) << 16) |
              (static_cast<std::uint64_t>(c.kind) << 1) | (vertex_first ? 0u : 1u),
          (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.vertex)) << 32) | static_cast<std::uint32_t>(c.feature)};
}

double period(const World& w, int axis) { return axis == 0 ? w.cell.size.x : w.cell.size.y; }

// Skeletons of at least kChunkedVertices vertices are cut into chunks of
// kChunkEdges consecutive vertices, each with a circle (world coordinates,
// worked out at each rebuild) around them and the end of the chunk's last
// edge. A pair's preselection of the vertices and edges within reach of
// the other body scans only the chunks whose circles come within reach,
// not the whole skeleton (1000 settled 64-gons: 52.2 → 37.3 million
// instructions per rebuild; cows 55.6 → 44.1 million).
constexpr int kChunkEdges = 8;
constexpr int kChunkedVertices = 24;

// Each chunk's circle, per body: chunks first[b] .. first[b + 1] − 1.
struct SkeletonChunks {
  std::vector<int> first;
  std::vector<Vec2> centre;
  std::vector<double> radius;
  int count(int body) const { return first[static_cast<std::size_t>(body) + 1] - first[static_cast<std::size_t>(body)]; }
};

// The chunks' circles, with the world vertices as they now lie: of every
// body, or only of those `only` marks (the others' are left unset).
SkeletonChunks chunk_circles(const World& w, const std::vector<std::uint8_t>* only = nullptr) {
  const std::size_t n = w.size();
  SkeletonChunks chunks;
  chunks.first.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i)
    chunks.first[i + 1] = chunks.first[i] + (!w.big[i] && w.vertex_count[i] >= kChunkedVertices
                                                 ? (w.vertex_count[i] + kChunkEdges - 1) / kChunkEdges
                                                 : 0);
  chunks.centre.resize(static_cast<std::size_t>(chunks.first[n]));
  chunks.radius.resize(static_cast<std::size_t>(chunks.first[n]));
  for (std::size_t i = 0; i < n; ++i) {
    if (only && !(*only)[i]) continue;
    const int body = static_cast<int>(i), begin = w.vertex_begin[i], count = w.vertex_count[i];
    for (int c = 0; c < chunks.count(body); ++c) {
      // Its vertices, and the end of its last edge (the next chunk's first
      // vertex, or a closed skeleton's first).
      const int from = begin + c * kChunkEdges, to = std::min(from + kChunkEdges, begin + count);
      const int last_end = after(w, body, to - 1).k;
      const auto cover = [&](auto&& visit) {
        for (int v = from; v < to; ++v) visit(w.world_vertex[static_cast<std::size_t>(v)]);
        if (last_end >= 0) visit(w.world_vertex[static_cast<std::size_t>(last_end)]);
      };
      Vec2 low = w.world_vertex[static_cast<std::size_t>(from)], high = low;
      cover([&](Vec2 x) {
        low = {std::min(low.x, x.x), std::min(low.y, x.y)};
        high = {std::max(high.x, x.x), std::max(high.y, x.y)};
      });
      const Vec2 centre = 0.5 * (low + high);
      double farthest = 0.0;
      cover([&](Vec2 x) { farthest = std::max(farthest, norm2(x - centre)); });
      const auto k = static_cast<std::size_t>(chunks.first[i] + c);
      chunks.centre[k] = centre;
      // Widened by rounding's worth: a chunk within reach is scanned, never
      // skipped.
      chunks.radius[k] = std::sqrt(farthest) * (1.0 + 1e-9) + 1e-12 * w.bounding_radius[i];
    }
  }
  return chunks;
}

struct CandidateBuilder {
  const World& w;
  double skin;  // 2δ
  bool contact_lists;
  std::vector<Candidate>& out;
  std::vector<int> near_a_, near_b_, edges_a_, edges_b_;  // scratch, reused
  long thin = 0;  // candidates that half the skin would still list (NeighbourListState)
  const SkeletonChunks* chunks = nullptr;

  // Feature pairs between body a and the image of body b moved by `shift`
  // (`image` counts periods, in unwrapped coordinates). Only pairs that can
  // become contacts under the rules before the next rebuild are listed:
  // within the cutoff, and with the vertex inside the edge's slab (or the
  // two vertices inside each other's cones) up to the slack that the
  // allowed motion can shift them by. Without this, round polygons with
  // many vertices would list every vertex against every nearby edge: M²
  // pairs per contact.
  void add_pair(int a, int b, Vec2 shift, std::array<int, 2> image) {
    const double cutoff = w.radius[a] + w.radius[b] + skin;
    if (!contact_lists) {
      add_all_feature_pairs(a, b, shift, image);
      return;
    }
    // Only vertices and edges within the cutoff of the circle around the
    // other body's skeleton can be in a contact: select them first, so that
    // two big polygons touching at their rims cost what their rims cost,
    // not M². (The skeleton's circle, not the outline's: the sphero-radius
    // is in the cutoff already, and counting it twice let in a 64-gon's
    // twelve vertices nearest a neighbour instead of its two.)
    const double reach_a = skeleton_reach(a) + cutoff, reach_b = skeleton_reach(b) + cutoff;
    near_vertices(a, {}, w.position[b] + shift, reach_b, near_a_);
    near_vertices(b, shift, w.position[a], reach_a, near_b_);
    if (near_a_.empty() && near_b_.empty()) return;
    near_edges(b, shift, w.position[a], reach_a, edges_b_);
    near_edges(a, {}, w.position[b] + shift, reach_b, edges_a_);
    add_vertices_on_edges(a, near_a_, b, edges_b_, shift, image, cutoff);
    add_vertices_on_edges(b, near_b_, a, edges_a_, -shift, {-image[0], -image[1]}, cutoff);
    // Relative turning allowed before a rebuild, per unit lever arm.
    const double turn = skin / 2.0 * (1.0 / w.bounding_radius[a] + 1.0 / w.bounding_radius[b]);
    const double slack = skin + cutoff * turn;
    // Corners: each vertex against each corner (or free end) of the other
    // body whose exterior cone it may enter; two points meet once.
    const bool a_point = w.vertex_count[a] == 1, b_point = w.vertex_count[b] == 1;
    for (int v : near_a_)
      for (int u : near_b_) {
        const Vec2 other = w.world_vertex[u] + shift;
        const double apart = norm2(other - w.world_vertex[v]);
        if (!(apart < cutoff * cutoff)) continue;
        const bool thin_too = within_half_skin(apart, cutoff);
        if (a_point && b_point) {
          push(a, b, v, u, ContactKind::vertex_vertex, shift, image, thin_too);
          continue;
        }
        if (!b_point && near_cone(b, u, shift, w.world_vertex[v], slack))
          push(a, b, v, u, ContactKind::vertex_vertex, shift, image, thin_too);
        if (!a_point && near_cone(a, v, {}, other, slack))
          push(b, a, u, v, ContactKind::vertex_vertex, -shift, {-image[0], -image[1]}, thin_too);
      }
  }

  // Without contact lists: every vertex of each body against every edge
  // and every vertex of the other, left for the force loop to reject.
  void add_all_feature_pairs(int a, int b, Vec2 shift, std::array<int, 2> image) {
    const int a_end = w.vertex_begin[a] + w.vertex_count[a], b_end = w.vertex_begin[b] + w.vertex_count[b];
    const auto vertex_on_edges = [&](int vb, int v_end, int eb, Vec2 offset, std::array<int, 2> seen) {
      for (int v = w.vertex_begin[vb]; v < v_end; ++v) {
        if (!is_feature(w, vb, v)) continue;
        for (int e = 0; e < w.edge_count(eb); ++e) push(vb, eb, v, w.vertex_begin[eb] + e, ContactKind::vertex_edge, offset, seen);
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
  double skeleton_reach(int b) const { return (w.bounding_radius[b] - w.radius[b]) * (1.0 + 1e-9) + 1e-12 * w.bounding_radius[b]; }

  // The index ranges of body's vertices (or edges, by first vertex: end is
  // where they stop) worth scanning for features within reach of centre:
  // the chunks whose circles come within reach, or the whole skeleton.
  // Calls scan(from, to) in increasing order.
  template <class Scan>
  void near_ranges(int body, Vec2 offset, Vec2 centre, double reach, int end, Scan&& scan) const {
    const int begin = w.vertex_begin[body];
    const int count = chunks == nullptr ? 0 : chunks->count(body);
    if (count == 0) {
      scan(begin, end);
      return;
    }
    const int first = chunks->first[static_cast<std::size_t>(body)];
    for (int c = 0; c < count; ++c) {
      const double r = chunks->radius[static_cast<std::size_t>(first + c)] + reach;
      if (norm2(chunks->centre[static_cast<std::size_t>(first + c)] + offset - centre) < r * r)
        scan(begin + c * kChunkEdges, std::min(begin + (c + 1) * kChunkEdges, end));
    }
  }

  // Squared distances throughout the search: no square root per feature.
  void near_vertices(int body, Vec2 offset, Vec2 centre, double reach, std::vector<int>& found) const {
    found.clear();
    near_ranges(body, offset, centre, reach, w.vertex_begin[body] + w.vertex_count[body], [&](int from, int to) {
      for (int v = from; v < to; ++v)
        if (norm2(w.world_vertex[v] + offset - centre) < reach * reach && is_feature(w, body, v)) found.push_back(v);
    });
  }

  // Edges (by first vertex) that come within reach of centre.
  void near_edges(int body, Vec2 offset, Vec2 centre, double reach, std::vector<int>& found) const {
    found.clear();
    near_ranges(body, offset, centre, reach, w.vertex_begin[body] + w.edge_count(body), [&](int from, int to) {
      for (int start = from; start < to; ++start) {
        const Vec2 p = w.world_vertex[start] + offset, q = w.world_vertex[after(w, body, start).k] + offset;
        if (norm2(centre - closest_point_on_segment(centre, p, q)) < reach * reach) found.push_back(start);
      }
    });
  }

  // Could p enter the exterior cone of vertex k (body moved by offset)?
  bool near_cone(int body, int k, Vec2 offset, Vec2 p, double slack) const {
    const Vec2 apex = w.world_vertex[k] + offset;
    for (const Along neighbour : {after(w, body, k), before(w, body, k)}) {
      if (neighbour.k < 0) continue;
      const Vec2 along = w.world_vertex[neighbour.k] + neighbour.shift + offset - apex;
      if (dot(p - apex, along) > slack * norm(along)) return false;
    }
    return true;
  }

  void add_vertices_on_edges(int vb, const std::vector<int>& vertices, int eb, const std::vector<int>& edges,
                             Vec2 offset, std::array<int, 2> image, double cutoff) {
    for (int start : edges) {
      const int end = after(w, eb, start).k;
      const Vec2 p = w.world_vertex[start] + offset, q = w.world_vertex[end] + offset;
      const Vec2 edge = q - p;
      const double length = norm(edge);
      // Bodies move by at most δ each and the edge turns by at most δ / R.
      const double slack = skin + (length + cutoff) * (skin / 2.0) / w.bounding_radius[eb];
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
  bool near_inner_side(int body, int corner, bool edge_ends_there, Vec2 x, Vec2 offset, double slack) const {
    if (!has_inner_side(w, body, corner)) return false;
    const Vec2 apex = w.world_vertex[corner];
    const InnerSide s = inner_side(w, body, corner, apex, edge_ends_there, x - (apex + offset));
    return s.along > -slack * s.length && s.side > -slack * s.length;
  }

  // Would half the skin still list a pair of features `apart` (squared)
  // with this cutoff?
  bool within_half_skin(double apart, double cutoff) const {
    const double half = cutoff - skin / 2.0;
    return apart < half * half;
  }

  void push(int vb, int eb, int v, int f, ContactKind kind, Vec2 offset, std::array<int, 2> image,
            bool thin_too = true) {
    thin += thin_too;
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
    out.push_back(c);
  }

  // Distance from a point to the skeleton of body b moved by offset.
  double skeleton_distance(int b, Vec2 offset, Vec2 p) const {
    if (w.vertex_count[b] == 1) return norm(w.world_vertex[w.vertex_begin[b]] + offset - p);
    double d = INFINITY;
    for (int e = 0; e < w.edge_count(b); ++e) {
      const int start = w.vertex_begin[b] + e;
      d = std::min(d, distance_to_segment(p, w.world_vertex[start] + offset,
                                          w.world_vertex[after(w, b, start).k] + offset));
    }
    return d;
  }
};

}  // namespace

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

NeighbourList::NeighbourList(NeighbourSettings settings, NeighbourListState state, const World& world)
    : settings_(settings),
      reference_position_(std::move(state.reference_position)),
      reference_angle_(std::move(state.reference_angle)),
      wraps_(std::move(state.wraps)),
      stats_(state.stats),
      built_(state.built),
      delta_(state.verlet_distance > 0.0 ? state.verlet_distance : settings.verlet_distance),
      steps_since_rebuild_(state.steps_since_rebuild),
      listed_at_half_skin_(state.listed_at_half_skin) {
  candidates_.reserve(state.contacts.size());
  states_.reserve(state.contacts.size());
  for (const Contact& c : state.contacts) {
    candidates_.push_back(packed(world, c));
    states_.push_back({c.xi, c.force, c.point, c.viscous_force, c.normal_force});
  }
  index_bodies(world.size());
}

Contact NeighbourList::record(const World& w, std::size_t k) const {
  const Candidate& key = candidates_[k];
  const ContactState& s = states_[k];
  Contact c;
  c.vertex_body = key.vertex_body;
  c.edge_body = key.edge_body;
  c.vertex = key.vertex;
  c.feature = key.feature;
  c.kind = key.kind;
  c.edge_offset = key.edge_offset;
  c.image = key.image;
  c.xi = s.xi;
  c.active = key.active;
  if (!key.active) return c;
  c.sliding = key.sliding;
  c.point = s.point;
  c.force = s.force;
  c.normal_force = s.normal_force;
  c.viscous_force = s.viscous_force;
  // The arithmetic of evaluate_contact: the same bits.
  const ContactLaw& law = w.law_between(key.vertex_body, key.edge_body);
  if (law.kt > 0.0) {
    c.tangential_spring_force = -law.kt * s.xi;
    c.tangential_energy = 0.5 * law.kt * norm2(s.xi);
  }
  const ContactGeometry g = contact_geometry(w, key);
  if (g.touching) c.overlap = g.overlap, c.normal = g.normal;
  return c;
}

NeighbourListState NeighbourList::state(const World& world) const {
  NeighbourListState s{{}, reference_position_, reference_angle_, wraps_, stats_, built_, delta_, steps_since_rebuild_, listed_at_half_skin_};
  s.contacts.reserve(candidates_.size());
  for (std::size_t k = 0; k < candidates_.size(); ++k) s.contacts.push_back(record(world, k));
  return s;
}

std::vector<Contact> NeighbourList::records(const World& world) const {
  std::vector<Contact> out;
  out.reserve(candidates_.size());
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    out.push_back(record(world, k));
    Contact& c = out.back();
    if (c.active && c.overlap == 0.0) {
      // Opened at a re-evaluation (Gear's corrector) with its books still
      // to close: no force acts now.
      c.active = c.sliding = false;
      c.force = c.viscous_force = c.tangential_spring_force = {};
      c.normal_force = c.tangential_energy = 0.0;
    }
  }
  return out;
}

template <class T> std::size_t capacity_bytes(const std::vector<T>& v) { return v.capacity() * sizeof(T); }

std::size_t NeighbourList::memory_bytes() const {
  return capacity_bytes(candidates_) + capacity_bytes(states_) + capacity_bytes(body_start_) +
         capacity_bytes(body_candidates_) + capacity_bytes(reference_position_) + capacity_bytes(reference_angle_) +
         capacity_bytes(wraps_);
}

// Each body's candidates, in candidate order, so that forces can be
// gathered per body in parallel and still be added in that order.
void NeighbourList::index_bodies(std::size_t body_count) {
  body_start_.assign(body_count + 1, 0);
  for (const Candidate& c : candidates_) ++body_start_[c.vertex_body + 1], ++body_start_[c.edge_body + 1];
  for (std::size_t b = 0; b < body_count; ++b) body_start_[b + 1] += body_start_[b];
  body_candidates_.resize(2 * candidates_.size());
  // A skin that thinned (the adaptive δ starts at its widest) leaves
  // room for several times the candidates now listed.
  if (body_candidates_.capacity() > 2 * body_candidates_.size() + 1024) body_candidates_.shrink_to_fit();
  std::vector<int> fill(body_start_.begin(), body_start_.end() - 1);
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    body_candidates_[fill[candidates_[k].vertex_body]++] = static_cast<int>(k);
    body_candidates_[fill[candidates_[k].edge_body]++] = static_cast<int>(k);
  }
}

bool NeighbourList::update(World& world) {
  if (!ready(world)) return update(world, 0.0);
  // A maximum: the same whatever the threads.
  const double largest = ThreadTeam::reduce(
      settings_.threads, world.size(), 0.0, [&](std::size_t i) { return motion_of(world, i); }, std::greater<>());
  return update(world, largest);
}

// The adaptive skin follows the motion, and below 1/64 of its ceiling what
// a thinner skin saves. A list that outlived 200 steps while the bodies
// moved at less than δ/4 per 200 steps halves δ — below 1/64 of the
// ceiling only if half the skin lists at most 80% of the candidates (a
// settled 64-gon packing: 6650 → 4935 → 3906; hexagons 2883 → 2627, not
// worth the rebuilds a thinner skin brings). (A rate, not the
// displacement: a body that crept and stopped leaves a large displacement
// from an old reference that says nothing of now.) A list that lasted
// under 10 steps doubles δ; one that motion ended later halves it where
// that pays by thinner_list_pays. (Two earlier cost models, which also
// thinned lists that had not expired and widened by estimate, were
// dropped: they thinned hexagons at rest to the floor and lost 12%, and
// made settling cows flap between skins — docs/PERFORMANCE.md, "The
// adaptive skin".) A list that motion ended with few bodies past δ/2 is
// mended (a partial rebuild, relist) rather than widened or rebuilt.
bool NeighbourList::update(World& world, double largest) {
  if (!ready(world)) {
    rebuild(world);
    return true;
  }
  ++steps_since_rebuild_;
  const auto steps = static_cast<double>(steps_since_rebuild_);
  const auto listed = static_cast<double>(candidates_.size());
  const double smallest_delta = settings_.verlet_distance / 1024.0;
  const bool thinning_pays = delta_ > settings_.verlet_distance / 64.0 || listed_at_half_skin_ < 0.8 * listed;
  if (largest > delta_) {
    // Few bodies moved: only their pairs are listed anew (a partial
    // rebuild), and the skin stays. The bodies past half the skin go with
    // them, which also keeps the next trigger away.
    std::vector<int> moved;
    if (settings_.partial_rebuilds) moved = moved_beyond(world, 0.5 * delta_);
    const bool few = !moved.empty() && moved.size() <= world.size() / kPartialShare &&
                     std::none_of(moved.begin(), moved.end(), [&](int i) { return world.big[static_cast<std::size_t>(i)]; });
    const double relisted = few ? static_cast<double>(moved.size()) : static_cast<double>(world.size());
    // Mended lists that end within a few steps, each mending walking every
    // body, can cost more than the contacts themselves (many rattlers
    // among many grains): then the skin widens as it would without them.
    const bool mending_dominates = rebuild_cost(world, relisted) / steps > listed;
    // A list that ended early widens the skin (at the ceiling it cannot,
    // and is mended if few moved); one that lasted may thin it.
    const bool ended_early = settings_.adaptive && steps_since_rebuild_ < 10 && (!few || mending_dominates);
    if (ended_early && delta_ < settings_.verlet_distance) {
      delta_ = std::min(2.0 * delta_, settings_.verlet_distance);
    } else if (!ended_early && settings_.adaptive && delta_ > smallest_delta && thinner_list_pays(world, relisted)) {
      delta_ = std::max(0.5 * delta_, smallest_delta);
    } else if (few) {
      relist(world, &moved);
      return true;
    }
  } else if (settings_.adaptive && steps_since_rebuild_ >= 200 && delta_ > smallest_delta && thinning_pays &&
             200.0 * largest / steps < 0.25 * delta_) {
    delta_ = std::max(0.5 * delta_, smallest_delta);
  } else {
    return false;
  }
  rebuild(world);
  return true;
}

// Asked when motion ended a list: would half the skin have cost less per
// step? Costs in candidate evaluations: a list's own candidates every
// step, plus its rebuild spread over its lifetime. Half the skin lists
// what the last rebuild counted for it and is taken to last half as long
// (when grains rattle in place, less: a 20% margin, and a list that
// lasted under 10 steps doubles the skin again). A rebuild costs about
// 100 evaluations per grain plus half an evaluation per vertex of each
// listed pair of bodies (measured on the default hopper's pile of cows:
// 0.94 ms per rebuild, 23 ns per candidate). This is what keeps a pile
// with a few rattling grains, whose lists end by motion every hundred
// steps or so and so never thin by the rate rule below, from listing
// five times the candidates it needs (the hopper's pile: 10 500 → 1900 per
// step).
// Only counts, never clocks: the skin decides the list, and the output
// must not depend on the machine.
bool NeighbourList::thinner_list_pays(const World& w, double relisted) const {
  if (!(listed_at_half_skin_ < INFINITY) || w.size() == 0) return false;
  const double rebuild = rebuild_cost(w, relisted);
  const auto life = static_cast<double>(steps_since_rebuild_);
  const auto listed = static_cast<double>(candidates_.size());
  return listed_at_half_skin_ + 2.0 * rebuild / life < 0.8 * (listed + rebuild / life);
}

// In candidate evaluations: 100 per grain plus half an evaluation per
// vertex of both bodies of each listed pair, for the share of bodies
// relisted; a partial rebuild also walks every body and candidate once.
double NeighbourList::rebuild_cost(const World& w, double relisted) const {
  if (w.size() == 0) return 0.0;
  // Every body's vertices, stored one body after the other.
  const double vertices = w.vertex_begin.back() + w.vertex_count.back();
  const auto n = static_cast<double>(w.size());
  const double search = 100.0 * n + vertices / n * static_cast<double>(stats_.body_pairs);
  return relisted < n ? search * relisted / n + kPartialWalk * n : search;
}

void NeighbourList::rebuild(World& w) { relist(w, nullptr); }

// The bodies whose motion since their reference exceeds `beyond`, in order.
std::vector<int> NeighbourList::moved_beyond(const World& w, double beyond) const {
  std::vector<int> moved;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (motion_of(w, i) > beyond) moved.push_back(static_cast<int>(i));
  return moved;
}

// `moved` null: every pair is decided anew (a full rebuild). Otherwise only
// the pairs of those bodies, none of them a wall (the others' candidates
// are kept; see update).
void NeighbourList::relist(World& w, const std::vector<int>* moved) {
  const std::size_t n = w.size();
  const bool partial = moved != nullptr;
  if (wraps_.size() != n) wraps_.assign(n, {0, 0});
  // Wrap into the periodic cell only here, so that between rebuilds the
  // image offsets stored in the contacts stay valid; a partial rebuild
  // wraps only the bodies whose candidates it makes anew.
  const auto wrap = [&](std::size_t i) {
    if (w.big[i]) return;
    for (int axis = 0; axis < 2; ++axis) {
      if (!w.cell.periodic[axis]) continue;
      const double low = axis == 0 ? w.cell.low.x : w.cell.low.y;
      double& coordinate = axis == 0 ? w.position[i].x : w.position[i].y;
      const double turns = std::floor((coordinate - low) / period(w, axis));
      coordinate -= turns * period(w, axis);
      wraps_[i][axis] += static_cast<int>(turns);
    }
  };
  if (partial)
    for (int i : *moved) wrap(static_cast<std::size_t>(i));
  else
    for (std::size_t i = 0; i < n; ++i) wrap(i);
  // A whole rebuild brings every vertex up to date, a partial one only
  // those of the bodies its pairs can reach (once the link cells say which).
  if (!partial) {
    update_world_vertices(w);
    mark_seams(w);  // constraints may have changed since the last rebuild
  }
  all_vertices_current_ = !partial;
  std::vector<std::uint8_t> relisted(partial ? n : 0, 0);
  if (partial)
    for (int i : *moved) relisted[static_cast<std::size_t>(i)] = 1;

  // Each thread lists candidates into its own vector; the canonical sort
  // below makes the result independent of who found what.
  const int threads = std::max(1, settings_.threads);
  // A full rebuild lets each body move δ before the next (2δ between two
  // bodies). A partial one: the moved body δ from now, a kept one δ from
  // its own reference, which it may already be δ/2 from — 1.5δ from now
  // (update picks the moved bodies so). Each of a new pair is allowed
  // 1.5δ: the builder's slack for turns assumes an even share.
  const double skin = (partial ? 3.0 : 2.0) * delta_;
  std::vector<std::vector<Candidate>> found(static_cast<std::size_t>(threads));
  std::vector<CandidateBuilder> builders;
  SkeletonChunks chunks;
  if (!partial) chunks = chunk_circles(w);
  for (auto& list : found)
    builders.push_back(CandidateBuilder{w, skin, settings_.contact_lists, list, {}, {}, {}, {}, 0, &chunks});

  // Image shift and wrap-invariant image key of body j seen from body i:
  // with x = X − m L (X unwrapped, m wraps so far), the image x_j + k L is
  // X_j − X_i + (k − m_j + m_i) L away from body i, whatever the wraps.
  const auto minimum_image = [&](int i, int j, Vec2& shift, std::array<int, 2>& image) {
    shift = {};
    image = {0, 0};
    for (int axis = 0; axis < 2; ++axis) {
      if (!w.cell.periodic[axis]) continue;
      const double L = period(w, axis);
      const double gap = axis == 0 ? w.position[j].x - w.position[i].x : w.position[j].y - w.position[i].y;
      const double k = -std::round(gap / L);
      (axis == 0 ? shift.x : shift.y) = k * L;
      image[axis] = static_cast<int>(k) - wraps_[j][axis] + wraps_[i][axis];
    }
  };
  // Whether bodies i < j are near enough to list (their bounding circles
  // within the skin of each other), and j's image seen from i.
  const auto within_reach = [&](int i, int j, Vec2& shift, std::array<int, 2>& image) {
    minimum_image(i, j, shift, image);
    return norm(w.position[j] + shift - w.position[i]) < w.bounding_radius[i] + w.bounding_radius[j] + skin;
  };
  std::size_t pairs = 0;
  // Returns whether the pair gave candidates.
  const auto consider = [&](CandidateBuilder& builder, int i, int j) -> bool {
    Vec2 shift;
    std::array<int, 2> image;
    if (!within_reach(i, j, shift, image)) return false;
    const std::size_t before = builder.out.size();
    builder.add_pair(i, j, shift, image);
    return builder.out.size() > before;
  };
  // Bodies handed out a few at a time to whichever member is free: the
  // search costs more where the grains are denser. At most 64 at a time,
  // and at least eight handfuls per thread: 200 cows in 64s made four
  // handfuls, and one member waited out most of another's.
  const auto search = [&](std::size_t count, auto&& visit) {
    std::atomic<std::size_t> next{0};
    std::vector<std::size_t> found_pairs(static_cast<std::size_t>(threads), 0);
    const std::size_t handful = std::clamp<std::size_t>(count / (8 * static_cast<std::size_t>(threads)), 1, 64);
    ThreadTeam::run(threads, [&](int member, int) {
      CandidateBuilder& builder = builders[static_cast<std::size_t>(member)];
      std::size_t mine = 0;  // stored once: neighbouring counters would share a cache line
      for (std::size_t first; (first = next.fetch_add(handful, std::memory_order_relaxed)) < count;)
        for (std::size_t index = first; index < std::min(count, first + handful); ++index) mine += visit(builder, index);
      found_pairs[static_cast<std::size_t>(member)] = mine;
    });
    for (std::size_t p : found_pairs) pairs += p;
  };

  std::vector<int> small, large;
  for (std::size_t i = 0; i < n; ++i) (w.big[i] ? large : small).push_back(static_cast<int>(i));

  // The small bodies whose pairs are decided anew: all, or the moved (never
  // a wall: update rebuilds whole when one moved).
  const std::vector<int>& searched = partial ? *moved : small;
  // Pair (i, j) from body i: every pair once, as (lower, higher), whichever
  // of the two the search comes from.
  const auto visits = [&](int i, int j) {
    if (j == i) return false;
    if (!partial) return j > i;
    return !relisted[static_cast<std::size_t>(j)] || j > i;
  };
  const auto consider_pair = [&](CandidateBuilder& builder, int i, int j) {
    return consider(builder, std::min(i, j), std::max(i, j));
  };
  // A partial rebuild's vertices, seams and chunk circles: of the bodies
  // it can pair (`involved`) and of every wall.
  const auto bring_up = [&](std::vector<std::uint8_t>& involved) {
    for (int b : large) involved[static_cast<std::size_t>(b)] = 1;
    for (std::size_t i = 0; i < n; ++i)
      if (involved[i]) update_body_vertices(w, i);
    mark_seams(w);
    chunks = chunk_circles(w, &involved);
  };
  if (partial && settings_.brute_force) {
    std::vector<std::uint8_t> everyone(n, 1);
    bring_up(everyone);
  }
  if (settings_.brute_force) {
    for (int i : searched)
      for (int j : small)
        if (visits(i, j)) pairs += consider_pair(builders[0], i, j);
  } else if (!searched.empty()) {
    // Link cells of side >= D + 2δ (D the largest outline diameter): a
    // listed pair's centres can be up to D + 2δ apart.
    double diameter = 0.0;
    Vec2 low{INFINITY, INFINITY}, high{-INFINITY, -INFINITY};
    for (int i : small) {
      diameter = std::max(diameter, 2.0 * w.bounding_radius[i]);
      low = {std::min(low.x, w.position[i].x), std::min(low.y, w.position[i].y)};
      high = {std::max(high.x, w.position[i].x), std::max(high.y, w.position[i].y)};
    }
    const double side = diameter + skin;
    // The grid spans the grains, but never more than a few cells per grain:
    // a grain that escaped far away (through a wall, in a run gone wrong)
    // would otherwise make millions of empty cells and every rebuild slow.
    // Cells beyond the grid are clamped to its edge, which keeps the search
    // exact: two grains within one cell width of each other still land in
    // the same or neighbouring cells, whatever the clamping.
    const double cap = 4.0 * static_cast<double>(small.size()) + 64.0;
    const auto cells_between = [&](Vec2 from, Vec2 to) {
      double count = 1.0;
      for (int axis = 0; axis < 2; ++axis)
        count *= w.cell.periodic[axis] ? std::max(1.0, std::floor(period(w, axis) / side))
                                       : std::floor((axis == 0 ? to.x - from.x : to.y - from.y) / side) + 1.0;
      return count;
    };
    if (cells_between(low, high) > cap) {
      // Span the bulk: the 1st to the 99th percentile of the coordinates.
      std::vector<double> xs, ys;
      for (int i : small) xs.push_back(w.position[i].x), ys.push_back(w.position[i].y);
      const auto percentile = [](std::vector<double>& v, double q) {
        const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1));
        std::nth_element(v.begin(), v.begin() + k, v.end());
        return v[static_cast<std::size_t>(k)];
      };
      low = {percentile(xs, 0.01), percentile(ys, 0.01)};
      high = {percentile(xs, 0.99), percentile(ys, 0.99)};
    }
    // Still too many (a sparse cloud): wider cells, which stay correct.
    std::array<int, 2> cells{};
    std::array<double, 2> origin{}, width{};
    for (double widen = 1.0;; widen *= 1.25) {
      for (int axis = 0; axis < 2; ++axis) {
        if (w.cell.periodic[axis]) {
          cells[axis] = std::max(1, static_cast<int>(std::floor(period(w, axis) / (side * widen))));
          origin[axis] = axis == 0 ? w.cell.low.x : w.cell.low.y;
          width[axis] = period(w, axis) / cells[axis];
        } else {
          origin[axis] = axis == 0 ? low.x : low.y;
          const double extent = axis == 0 ? high.x - low.x : high.y - low.y;
          cells[axis] = static_cast<int>(std::floor(extent / (side * widen))) + 1;
          width[axis] = side * widen;
        }
      }
      if (static_cast<double>(cells[0]) * cells[1] <= cap) break;
    }
    stats_.link_cells = static_cast<std::size_t>(cells[0]) * static_cast<std::size_t>(cells[1]);
    const auto cell_of = [&](int i, int axis) {
      const double coordinate = axis == 0 ? w.position[i].x : w.position[i].y;
      const int c = static_cast<int>(std::floor((coordinate - origin[axis]) / width[axis]));
      return std::clamp(c, 0, cells[axis] - 1);
    };
    const std::size_t cell_count = static_cast<std::size_t>(cells[0]) * cells[1];
    std::vector<int> start(cell_count + 1, 0), members(small.size());
    std::vector<int> home(n, -1);
    for (int i : small) home[i] = cell_of(i, 0) + cells[0] * cell_of(i, 1), ++start[home[i] + 1];
    for (std::size_t c = 0; c < cell_count; ++c) start[c + 1] += start[c];
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (int i : small) members[fill[home[i]]++] = i;  // bodies in index order within each cell

    // The 3 × 3 cells around body i, each once (a periodic axis of fewer
    // than three cells wraps onto the same cell twice).
    const auto cells_around = [&](int i, std::array<int, 9>& neighbours) {
      const int cx = home[i] % cells[0], cy = home[i] / cells[0];
      std::size_t count = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int nx = cx + dx, ny = cy + dy;
          if (w.cell.periodic[0]) nx = (nx % cells[0] + cells[0]) % cells[0];
          if (w.cell.periodic[1]) ny = (ny % cells[1] + cells[1]) % cells[1];
          if (nx < 0 || ny < 0 || nx >= cells[0] || ny >= cells[1]) continue;
          const int cell = nx + cells[0] * ny;
          if (std::find(neighbours.begin(), neighbours.begin() + static_cast<std::ptrdiff_t>(count), cell) ==
              neighbours.begin() + static_cast<std::ptrdiff_t>(count))
            neighbours[count++] = cell;
        }
      return count;
    };
    if (partial) {
      // The relisted bodies and those within reach of one, by the test
      // consider makes (the pair taken in the same order).
      std::vector<std::uint8_t> involved(n, 0);
      for (int i : searched) {
        involved[static_cast<std::size_t>(i)] = 1;
        std::array<int, 9> neighbours;
        const std::size_t count = cells_around(i, neighbours);
        for (std::size_t m = 0; m < count; ++m)
          for (int k = start[neighbours[m]]; k < start[neighbours[m] + 1]; ++k) {
            const int j = members[k];
            Vec2 shift;
            std::array<int, 2> image;
            if (j != i && within_reach(std::min(i, j), std::max(i, j), shift, image)) involved[static_cast<std::size_t>(j)] = 1;
          }
      }
      bring_up(involved);
    }

    search(searched.size(), [&](CandidateBuilder& builder, std::size_t index) {
      const int i = searched[index];
      std::array<int, 9> neighbours;
      const std::size_t count = cells_around(i, neighbours);
      std::size_t listed = 0;
      for (std::size_t m = 0; m < count; ++m)
        for (int k = start[neighbours[m]]; k < start[neighbours[m] + 1]; ++k)
          if (visits(i, members[k])) listed += consider_pair(builder, i, members[k]);
      return listed;
    });
  }

  // Walls and landscapes against every body, through each periodic image
  // of the wall that can reach it.
  // A moving wall (a shear plate) may have drifted periods away from the
  // cell: its images are searched around the one that brings it back in.
  std::vector<std::array<int, 2>> home(large.size());
  for (std::size_t k = 0; k < large.size(); ++k) home[k] = periods_into_cell(w, static_cast<std::size_t>(large[k]));
  if (!large.empty()) search(searched.size(), [&](CandidateBuilder& builder, std::size_t index) {
    const int p = searched[index];
    std::size_t listed = 0;
    for (std::size_t k = 0; k < large.size(); ++k) {
      const int b = large[k];
      const auto [hx, hy] = home[k];
      for (int ix = hx - 1; ix <= hx + 1; ++ix) {
        if (ix != hx && !w.cell.periodic[0]) continue;
        for (int iy = hy - 1; iy <= hy + 1; ++iy) {
          if (iy != hy && !w.cell.periodic[1]) continue;
          const Vec2 shift{ix * w.cell.size.x, iy * w.cell.size.y};
          if (builder.skeleton_distance(b, shift, w.position[p]) >= w.bounding_radius[p] + w.radius[b] + skin) continue;
          const std::size_t before = builder.out.size();
          builder.add_pair(p, b, shift, {ix + wraps_[p][0], iy + wraps_[p][1]});
          listed += builder.out.size() > before;
        }
      }
    }
    return listed;
  });
  std::vector<Candidate> fresh;
  if (threads == 1) {
    fresh = std::move(found[0]);
  } else {
    std::size_t total = 0;
    for (const auto& list : found) total += list.size();
    fresh.reserve(total);
    for (const auto& list : found) fresh.insert(fresh.end(), list.begin(), list.end());
  }

  // Sort by packed keys and permute once. The key leads with the lower
  // body: candidates are first bucketed by it (a counting sort), then each
  // bucket, a few dozen at most, sorted whole — the order of one sort of
  // all the keys, at a fraction of its comparisons.
  std::vector<std::pair<SortKey, std::uint32_t>> order(fresh.size());
  {
    std::vector<std::uint32_t> bucket(n + 1, 0);
    const auto lower_body = [](const Candidate& c) { return static_cast<std::size_t>(std::min(c.vertex_body, c.edge_body)); };
    for (const Candidate& c : fresh) ++bucket[lower_body(c) + 1];
    for (std::size_t b = 0; b < n; ++b) bucket[b + 1] += bucket[b];
    std::vector<std::uint32_t> fill(bucket.begin(), bucket.end() - 1);
    for (std::size_t k = 0; k < fresh.size(); ++k)
      order[fill[lower_body(fresh[k])]++] = {sort_key(fresh[k]), static_cast<std::uint32_t>(k)};
    for (std::size_t b = 0; b < n; ++b)
      if (bucket[b + 1] - bucket[b] > 1) std::sort(order.begin() + bucket[b], order.begin() + bucket[b + 1]);
  }
  std::vector<Candidate> sorted(fresh.size());
  for (std::size_t k = 0; k < order.size(); ++k) sorted[k] = fresh[order[k].second];
  // Carry the contacts' state over: the tangential springs are history,
  // and the last forces close the books of a contact that opens next step.
  // Both lists are in canonical order: one merge walk.
  std::vector<ContactState> states(sorted.size());
  std::size_t o = 0;
  SortKey old_key = candidates_.empty() ? SortKey{} : sort_key(candidates_[0]);
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    const SortKey& key = order[k].first;
    while (o < candidates_.size() && old_key < key)
      if (++o < candidates_.size()) old_key = sort_key(candidates_[o]);
    if (o < candidates_.size() && old_key == key) {
      sorted[k].active = candidates_[o].active;
      sorted[k].sliding = candidates_[o].sliding;
      states[k] = states_[o];
    }
  }
  if (partial) {
    // The kept candidates (neither body moved) are in canonical order, and
    // so are the new ones: one merge.
    std::vector<Candidate> merged;
    std::vector<ContactState> merged_states;
    merged.reserve(candidates_.size() + sorted.size());
    merged_states.reserve(candidates_.size() + sorted.size());
    std::size_t fresh_at = 0;
    for (std::size_t k = 0; k < candidates_.size(); ++k) {
      const Candidate& c = candidates_[k];
      if (relisted[static_cast<std::size_t>(c.vertex_body)] || relisted[static_cast<std::size_t>(c.edge_body)]) continue;
      const SortKey key = sort_key(c);
      for (; fresh_at < sorted.size() && order[fresh_at].first < key; ++fresh_at) {
        merged.push_back(sorted[fresh_at]);
        merged_states.push_back(states[fresh_at]);
      }
      merged.push_back(c);
      merged_states.push_back(states_[k]);
    }
    for (; fresh_at < sorted.size(); ++fresh_at) {
      merged.push_back(sorted[fresh_at]);
      merged_states.push_back(states[fresh_at]);
    }
    candidates_ = std::move(merged);
    states_ = std::move(merged_states);
    for (int i : *moved) {
      reference_position_[static_cast<std::size_t>(i)] = w.position[static_cast<std::size_t>(i)];
      reference_angle_[static_cast<std::size_t>(i)] = w.angle[static_cast<std::size_t>(i)];
    }
    ++partial_rebuilds_;
  } else {
    long thin = 0;
    for (const CandidateBuilder& b : builders) thin += b.thin;
    listed_at_half_skin_ = static_cast<double>(thin);
    candidates_ = std::move(sorted);
    states_ = std::move(states);
    reference_position_ = w.position;
    reference_angle_ = w.angle;
    stats_.body_pairs = pairs;
  }
  index_bodies(n);
  built_ = true;
  steps_since_rebuild_ = 0;
  ++stats_.rebuilds;
}

}  // namespace sphero
