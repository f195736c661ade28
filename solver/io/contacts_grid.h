// The contacts file's grid: one line per interacting pair of bodies, from
// the first body to the second (or to the mean contact point for a wall),
// with the pair's summed force, normal, overlap and count of vertex
// contacts.
#pragma once

#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

#include <vector>

#include "engine/world.h"
#include "io/contact_pairs.h"
#include "io/frame_data.h"
#include "io/frame_piece.h"

namespace sphero {

// A pair as the contacts file holds it: its record and its drawn line.
struct ContactLine {
  PairRecord pair;
  ForceSegment line;
};
ContactLine contact_line(const World& w, const ContactPair& p);

// What the grid holds beside what every contacts file has: the arrays a
// reader derives (force_magnitude, branch_vector), written only on request,
// and a rigid run's percussions (its step; 0 for none).
struct ContactExtras {
  bool derived = false;
  double percussion_dt = 0.0;
};

// The grid of a frame's pairs and lines (FrameData::pairs and ::forces).
vtkSmartPointer<vtkUnstructuredGrid> contacts_grid(const std::vector<PairRecord>& pairs,
                                                   const std::vector<ForceSegment>& lines, ContactExtras extras);

// The same grid straight from the pairs of `w` that `piece` writes, with
// no records in between.
vtkSmartPointer<vtkUnstructuredGrid> contacts_grid(const World& w, const std::vector<ContactPair>& pairs,
                                                   const FramePiece& piece, ContactExtras extras);

}  // namespace sphero
