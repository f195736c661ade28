// A contact between two skeletons, in the three forms the engine keeps it:
// the full record that output, analysis and checkpoints see (Contact), the
// packed key the force pass streams through (Candidate), and the history a
// touching candidate carries from step to step (ContactState).
#pragma once

#include <array>
#include <cstdint>

#include "geometry/vec2.h"

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
  Vec2 normal;  // unit, from the vertex towards the edge
  Vec2 point;   // point of application R (vertex body's coordinates)
  Vec2 force;   // on the vertex body; the edge body gets −force
  double normal_force = 0.0;
  // The parts of the force whose work is dissipation, and the tangential
  // spring's energy, from the last evaluation: the energy ledger books the
  // work of each over the next step (trapezoidal, like the integrator).
  Vec2 tangential_spring_force;
  Vec2 viscous_force;
  double tangential_energy = 0.0;
  // Dissipated by this contact since it began to touch (ContactState).
  double damping_total = 0.0, sliding_total = 0.0;
};

// What the force pass reads of every candidate, packed (56 bytes): most
// candidates are not touching, and the pass streams through them without
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
  double reach = 0.0;  // sum of the two sphero-radii
  Vec2 edge_offset;
};

// A record with a candidate's key and flag filled in (the rest is the
// model's to fill: NeighbourList::records, RigidStepper::contacts).
inline void set_key(Contact& c, const Candidate& key) {
  c.vertex_body = key.vertex_body;
  c.edge_body = key.edge_body;
  c.vertex = key.vertex;
  c.feature = key.feature;
  c.kind = key.kind;
  c.edge_offset = key.edge_offset;
  c.image = key.image;
  c.active = key.active;
}
inline Contact record_of_key(const Candidate& key) {
  Contact c;
  set_key(c, key);
  return c;
}

// What a touching candidate carries to the next step (88 bytes, written
// for every touching contact every step, so nothing here can be
// recomputed): the tangential spring, the force and where it acts, the
// viscous force (the ledger books its work over the next step), the
// normal force (output), and what the contact has dissipated since it
// began to touch, added step by step in the same order on any thread or rank (the
// ledger adds every contact's exactly, docs/MODEL.md §2). The spring's
// force and energy are −k_t ξ and ½ k_t |ξ|², to the bit.
struct ContactState {
  Vec2 xi;
  Vec2 force;  // on the vertex body; the edge body gets −force
  Vec2 point;
  Vec2 viscous_force;
  double normal_force = 0.0;
  double damping_total = 0.0, sliding_total = 0.0;
};

// A record's state, and a state into a record.
inline ContactState state_of(const Contact& c) {
  return {c.xi, c.force, c.point, c.viscous_force, c.normal_force, c.damping_total, c.sliding_total};
}
inline void set_state(Contact& c, const ContactState& s) {
  c.xi = s.xi, c.force = s.force, c.point = s.point, c.viscous_force = s.viscous_force;
  c.normal_force = s.normal_force, c.damping_total = s.damping_total, c.sliding_total = s.sliding_total;
}

}  // namespace sphero
