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
#include <cstdint>
#include <vector>

#include "engine/world.h"

namespace sphero {

enum class ContactKind : std::uint8_t { vertex_edge = 0, vertex_vertex = 1 };

// One candidate feature pair; lives from one list rebuild to the next.
// `feature` is the global index of the edge's first vertex (the edge runs to
// the next vertex of that body) or of the other vertex.
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

// What the force loop reads of every candidate, packed (40 bytes against a
// Contact's ~190): most candidates are not touching, and the loop should
// stream through them without dragging their history through the cache.
struct Candidate {
  int vertex_body = 0, edge_body = 0, vertex = 0, feature = 0;
  ContactKind kind = ContactKind::vertex_edge;
  bool active = false;  // mirrors the Contact's flag
  int feature_end = 0;  // the edge's second vertex (vertex–edge)
  double reach = 0.0;   // sum of the two sphero-radii
  Vec2 edge_offset;
};

struct NeighbourSettings {
  double verlet_distance = 0.0;  // δ: skin thickness per body (the largest, when adaptive)
  bool brute_force = false;      // all pairs, no cells: the reference for tests
  int threads = 1;               // for the rebuild's candidate search
  // Adapt δ to the observed motion, between verlet_distance / 64 and
  // verlet_distance: a list rebuilt within 10 steps doubles it; one that
  // outlives 200 steps while the bodies moved at less than δ/4 per 200
  // steps halves it.
  // Which candidates are listed changes, never which contacts touch, so the
  // forces do not depend on it.
  bool adaptive = false;
  // false: list every vertex–edge and vertex–vertex pair of each
  // neighbouring body pair (M² per pair, evaluated every step) instead of
  // only those within reach — the cost without contact lists (MODEL.md §4),
  // for the benchmark. The forces are the same either way.
  bool contact_lists = true;
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
};

// The candidate list and what is needed to decide when to rebuild it.
class NeighbourList {
 public:
  explicit NeighbourList(NeighbourSettings settings) : settings_(settings), delta_(settings.verlet_distance) {}
  NeighbourList(NeighbourSettings settings, NeighbourListState state, const World& world);
  NeighbourListState state() const {
    return {contacts_, reference_position_, reference_angle_, wraps_, stats_, built_, delta_, steps_since_rebuild_};
  }

  // Rebuilds when the update condition says so (or on the first call);
  // returns true if it did. Wraps periodic bodies into the cell first, so
  // call it before computing world vertices... it does that itself.
  bool update(World& world);

  std::vector<Contact>& contacts() { return contacts_; }
  const std::vector<Contact>& contacts() const { return contacts_; }
  // Parallel to contacts(): the packed part the force loop reads.
  std::vector<Candidate>& candidates() { return candidates_; }
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

 private:
  void rebuild(World& world);
  void pack_candidates(const World& world);

  NeighbourSettings settings_;
  std::vector<Contact> contacts_;
  std::vector<Candidate> candidates_;
  std::vector<int> body_start_, body_candidates_;
  std::vector<Vec2> reference_position_;
  std::vector<double> reference_angle_;
  std::vector<std::array<int, 2>> wraps_;  // times each body was wrapped, per axis
  NeighbourStats stats_;
  bool built_ = false;
  double delta_ = 0.0;
  long steps_since_rebuild_ = 0;
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
ContactGeometry contact_geometry(const World& world, const Candidate& candidate);
Candidate packed(const World& world, const Contact& contact);

}  // namespace sphero
