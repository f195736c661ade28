// The exact state of a world as a VTK unstructured grid (.vtu): one cell per
// body, its skeleton in world coordinates (a vertex, a poly-line or a
// polygon, points in double precision) with everything needed to rebuild
// it as cell data: radius, centre of mass, angle, velocities, material,
// density, wall flag and constraint. ParaView opens it as it is; `sphero
// run` reads it back as a packing (`packing = FILE.vtu`).
#pragma once

#include <filesystem>
#include <vector>

#include <vtkSmartPointer.h>

#include "engine/world.h"
#include "io/frame_data.h"
#include "io/frame_piece.h"

class vtkUnstructuredGrid;

namespace sphero {

void write_state_vtu(const std::filesystem::path& path, const World& world, double time);
// The bodies of `world` as a state frame holds them, whole or a rank's
// piece (bodies named by id).
std::vector<StateRecord> state_records(const World& world, const FramePiece& piece);
// Their grid.
vtkSmartPointer<vtkUnstructuredGrid> state_grid(const std::vector<StateRecord>& records);

// A packing (bodies without contact laws, e.g. from `sphero pack`) in the
// same format.
void write_packing_vtu(const std::filesystem::path& path, const std::vector<BodySpec>& bodies);

// Throws std::runtime_error naming the file and what is missing.
// Bodies in the order of their ids, and with `ids` these (see below).
std::vector<BodySpec> read_state_vtu(const std::filesystem::path& path, std::vector<int>* ids = nullptr);
// A state grid's records in the order of their ids (cell numbers where the
// file has none); throws std::runtime_error naming `source` and the array
// that is missing or misshapen.
std::vector<StateRecord> state_records_from_grid(vtkUnstructuredGrid* grid, const std::string& source);
// The bodies of records, checked (a plate's span turned into body indices).
std::vector<BodySpec> bodies_of_states(const std::vector<StateRecord>& records, const std::string& source);
// The same from a grid already read (`source` names it in messages), in
// the order of their ids; with `ids`, these too (cell numbers where the
// file has none).
std::vector<BodySpec> bodies_from_state_grid(vtkUnstructuredGrid* grid, const std::string& source,
                                             std::vector<int>* ids = nullptr);

}  // namespace sphero
