// Every vertex contact of a frame (contact_points_NNNNN.vtu): one vertex
// cell at each contact's point of application with what acts there — the
// two bodies and their features, the normal, the force and its normal and
// tangential parts, the overlap, whether it slides. What a referee needs to
// recompute each particle's Love–Weber stress, to draw the contact points,
// or to study the force distribution contact by contact (docs/SCENES.md).
#pragma once

#include <vector>

#include <vtkSmartPointer.h>

#include "engine/engine.h"
#include "io/frame_data.h"
#include "io/frame_piece.h"

class vtkUnstructuredGrid;

namespace sphero {

// The records of the world's touching contacts, whole or a rank's piece
// (bodies named by id, features numbered along each body's skeleton).
std::vector<VertexContactRecord> vertex_contact_records(const World& world, const std::vector<Contact>& contacts,
                                                        const FramePiece& piece);
// Their grid.
vtkSmartPointer<vtkUnstructuredGrid> contact_points_grid(const std::vector<VertexContactRecord>& records);

// The records of a grid written so. Throws std::runtime_error naming the
// missing or misshapen array.
std::vector<VertexContactRecord> vertex_contacts_from_grid(vtkUnstructuredGrid* grid);

}  // namespace sphero
