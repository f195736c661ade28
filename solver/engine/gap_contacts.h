// The rigid model's contact points (docs/MODEL.md §7, "Contact points"):
// the listed feature pairs whose outlines are within a gap of each other,
// with the same vertex–edge and vertex–vertex rules as the soft model's
// contacts (contact_geometry.h), their point A_k, normal and signed gap.
#pragma once

#include <vector>

#include "engine/neighbour_list.h"
#include "engine/world.h"

namespace sphero {

struct GapContact {
  int candidate = 0;  // its index in the neighbour list
  int vertex_body = 0, edge_body = 0;
  Vec2 edge_offset;    // the edge body's periodic image
  Vec2 point;          // A_k: half-way between the two outlines
  Vec2 normal;         // unit, from the vertex towards the edge
  double gap = 0.0;    // between the outlines; negative: an overlap
  double reach = 0.0;  // the sum of the two sphero-radii
};

// Every listed pair whose outlines are closer than `gap`, in list order.
// Pairs of two walls are left out: neither moves under the collisions.
std::vector<GapContact> gap_contacts(const World& world, const NeighbourList& list, double gap);

// The same geometry for one candidate: false when its outlines are `gap`
// or more apart or the rules of contact_geometry.h say it is no contact.
bool gap_contact_of(const WorldView& w, const Candidate& c, int index, double gap, GapContact& out);

}  // namespace sphero
