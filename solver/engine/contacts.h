// Vertex–edge and vertex–vertex contacts between skeletons (MODEL.md §2),
// and the O(N) search that finds them (§4): link cells → Verlet list of
// body pairs → per-pair contact list of feature pairs, rebuilt when
// max_i(|Δx_i| + R_i |Δθ_i|) exceeds the Verlet distance.
//
// Which feature pairs count (docs/ENGINE.md, "Corners"). A vertex V of one
// body touches
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

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/world.h"

namespace sphero {

enum class ContactKind : std::uint8_t { vertex_edge = 0, vertex_vertex = 1 };

// One feature pair and its contact, as the engine reports it (output,
// analysis, checkpoints): assembled on demand from the list's packed
// Candidate and ContactState and the current geometry, never stored in the
// step. `feature` is the global index of the edge's first vertex (the edge
// runs to the next vertex of that body) or of the other vertex.
struct Contact {
  int vertex_body = 0;
  int edge_body = 0;
  int vertex = 0;
  int feature = 0;
  ContactKind kind = ContactKind::vertex_edge;
  // Added to the edge body's coordinates to bring its image next to the
  // vertex (periodic cells); zero otherwise.
  Vec2 edge_offset;
  // Which periodic image this is, invariant when bodies wrap: keeps the
  // tangential history of a contact that crosses the cell's boundary.
  std::array<int, 2> image{0, 0};
  Vec2 xi;  // tangential spring: contact history, survives list rebuilds

  // Results of the last force evaluation (for output and analysis).
  bool active = false;
  bool sliding = false;
  double overlap = 0.0;
  Vec2 normal;          // unit, from the vertex towards the edge
  Vec2 point;           // point of application R (vertex body's coordinates)
  Vec2 force;           // on the vertex body; the edge body gets −force
  double normal_force = 0.0;
  // The parts of the force whose work is dissipation, and the tangential
  // spring's energy, from the last evaluation: the energy ledger books the
  // work of each over the next step (trapezoidal, like the integrator).
  Vec2 tangential_spring_force;
  Vec2 viscous_force;
  double tangential_energy = 0.0;
};

// What the force loop reads of every candidate, packed (56 bytes): most
// candidates are not touching, and the loop streams through them without
// dragging their history through the cache. Lives from one list rebuild to
// the next; (bodies, image, kind, vertex, feature) identify it across
// rebuilds.
struct Candidate {
  int vertex_body = 0, edge_body = 0, vertex = 0, feature = 0;
  ContactKind kind = ContactKind::vertex_edge;
  bool active = false;   // touching at the last evaluation
  bool sliding = false;  // ... and sliding (Coulomb)
  int feature_end = 0;   // the edge's second vertex (vertex–edge)
  std::array<int, 2> image{0, 0};
  double reach = 0.0;    // sum of the two sphero-radii
  Vec2 edge_offset;
};

// What a touching candidate carries to the next step (72 bytes, written
// for every touching contact every step — the step's largest stream, so
// nothing here can be recomputed): the tangential spring, the force and
// where it acts (the gather's input), the viscous force (the ledger books
// its work over the next step) and the normal force (output). The spring's
// force and energy are −k_t ξ and ½ k_t |ξ|², to the bit.
struct ContactState {
  Vec2 xi;
  Vec2 force;  // on the vertex body; the edge body gets −force
  Vec2 point;
  Vec2 viscous_force;
  double normal_force = 0.0;
};

struct NeighbourSettings {
  double verlet_distance = 0.0;  // δ: skin thickness per body (the largest, when adaptive)
  bool brute_force = false;      // all pairs, no cells: the reference for tests
  int threads = 1;               // for the rebuild's candidate search
  // Adapt δ to the observed motion, between verlet_distance / 1024 and
  // verlet_distance (NeighbourList::update): a list rebuilt within 10
  // steps doubles it; a list that lasts while the bodies move slowly halves
  // it, below verlet_distance / 64 only where that saves candidates.
  // Which candidates are listed changes, never which contacts touch, so the
  // forces do not depend on it.
  bool adaptive = false;
  // false: list every vertex–edge and vertex–vertex pair of each
  // neighbouring body pair (M² per pair, evaluated every step) instead of
  // only those within reach — the cost without contact lists (MODEL.md §4),
  // for the benchmark. The forces are the same either way.
  bool contact_lists = true;
  // A list that motion ended because a few bodies moved is rebuilt for
  // those bodies' pairs only, the rest kept (NeighbourList::update).
  // false: every rebuild is whole. The forces are the same either way.
  bool partial_rebuilds = true;
};

struct NeighbourStats {
  long rebuilds = 0;
  long feature_pairs_evaluated = 0;  // summed over all evaluations
  std::size_t body_pairs = 0;        // in the current list
  std::size_t link_cells = 0;        // of the last rebuild's grid
};

// Everything the list carries from step to step (for checkpoints).
struct NeighbourListState {
  std::vector<Contact> contacts;
  std::vector<Vec2> reference_position;
  std::vector<double> reference_angle;
  std::vector<std::array<int, 2>> wraps;
  NeighbourStats stats;
  bool built = false;
  double verlet_distance = 0.0;  // δ in use (adaptive); 0: the settings' δ
  long steps_since_rebuild = 0;
  // The candidates a list with half the skin would hold, counted at the
  // last rebuild from the features' distances (the slab and cone tests
  // would leave out more): below 1/64 of its ceiling the adaptive skin
  // halves only where this is at most 80% of the list. A count, not a
  // clock, so that the skin — and with it the list and the grouping of the
  // energy sums — is the same on every machine and for every number of
  // threads. Unknown (infinite) until a list is built.
  double listed_at_half_skin = INFINITY;
};

// The candidate list and what is needed to decide when to rebuild it.
class NeighbourList {
 public:
  explicit NeighbourList(NeighbourSettings settings) : settings_(settings), delta_(settings.verlet_distance) {}
  NeighbourList(NeighbourSettings settings, NeighbourListState state, const World& world);
  // For a checkpoint: the contacts as records (their flags as stored).
  NeighbourListState state(const World& world) const;

  // Rebuilds when the update condition says so (or on the first call);
  // returns true if it did. Wraps periodic bodies into the cell first, so
  // call it before computing world vertices... it does that itself.
  bool update(World& world);
  // The same, with the largest motion_of over the bodies already measured
  // by a loop that had them in hand (the integrator's); only when ready().
  bool update(World& world, double largest_motion);
  bool ready(const World& world) const { return built_ && reference_position_.size() == world.size(); }
  // How far body i may have moved any of its points since the list was
  // built: translation plus turn times its bounding radius.
  double motion_of(const World& w, std::size_t i) const {
    return norm(w.position[i] - reference_position_[i]) + w.bounding_radius[i] * std::abs(w.angle[i] - reference_angle_[i]);
  }

  // Every candidate as a full record, overlap and normal from the current
  // geometry (world vertices current); `active` only where the contact
  // touches now (a Gear correction can leave a contact opened but its
  // books still to close: stored active, reported apart).
  std::vector<Contact> records(const World& world) const;
  std::vector<Candidate>& candidates() { return candidates_; }
  const std::vector<Candidate>& candidates() const { return candidates_; }
  std::vector<ContactState>& states() { return states_; }  // parallel to candidates()
  // Per body, the indices of its candidates in increasing order:
  // body_candidates()[body_candidate_start()[b] .. body_candidate_start()[b + 1]).
  const std::vector<int>& body_candidate_start() const { return body_start_; }
  const std::vector<int>& body_candidates() const { return body_candidates_; }
  void set_threads(int threads) { settings_.threads = threads; }
  double verlet_distance() const { return delta_; }  // δ in use
  std::size_t memory_bytes() const;  // by the capacity of its arrays
  const NeighbourStats& stats() const { return stats_; }
  NeighbourStats& stats() { return stats_; }
  const NeighbourSettings& settings() const { return settings_; }

  // Partial rebuilds among stats().rebuilds, since this list was made (not
  // kept in checkpoints).
  long partial_rebuilds() const { return partial_rebuilds_; }
  // Whether the last rebuild brought every body's world vertices up to
  // date (a whole one does; a partial one only those it could pair).
  bool all_vertices_current() const { return all_vertices_current_; }

 private:
  // A list that motion ended is rebuilt only for the bodies that moved
  // past half the skin when they are at most 1/kPartialShare of all.
  static constexpr std::size_t kPartialShare = 8;
  // What a partial rebuild costs per body whatever it relists, in
  // candidate evaluations (the link cells, the merge and the per-body
  // index).
  static constexpr double kPartialWalk = 20.0;
  void rebuild(World& world);
  void relist(World& world, const std::vector<int>* moved);
  std::vector<int> moved_beyond(const World& w, double beyond) const;
  void index_bodies(std::size_t body_count);
  Contact record(const World& world, std::size_t k) const;

  NeighbourSettings settings_;
  std::vector<Candidate> candidates_;
  std::vector<ContactState> states_;
  std::vector<int> body_start_, body_candidates_;
  std::vector<Vec2> reference_position_;
  std::vector<double> reference_angle_;
  std::vector<std::array<int, 2>> wraps_;  // times each body was wrapped, per axis
  NeighbourStats stats_;
  bool built_ = false;
  double delta_ = 0.0;
  long steps_since_rebuild_ = 0;
  double listed_at_half_skin_ = INFINITY;  // see NeighbourListState
  long partial_rebuilds_ = 0;
  bool all_vertices_current_ = true;
  // Would half the skin cost less, a trigger relisting `relisted` bodies?
  bool thinner_list_pays(const World& w, double relisted) const;
  double rebuild_cost(const World& w, double relisted) const;  // in candidate evaluations
};

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

// Inline: the force loop calls it for every candidate every step.
inline ContactGeometry contact_geometry(const WorldView& w, const Candidate& c) {
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
    if (w.vertex_count[c.edge_body] > 1 && !detail::in_exterior_cone(*w.world, c.edge_body, c.feature, c.edge_offset, y, x))
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
inline ContactGeometry contact_geometry(const World& w, const Candidate& c) { return contact_geometry(WorldView(w), c); }

Candidate packed(const World& world, const Contact& contact);  // its key and flags

}  // namespace sphero
