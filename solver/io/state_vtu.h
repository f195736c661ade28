// The exact state of a world as a VTK unstructured grid (.vtu): one cell per
// body, its skeleton in world coordinates (a vertex, a poly-line or a
// polygon, points in double precision) with everything needed to rebuild
// it as cell data: radius, centre of mass, angle, velocities, material,
// density, wall flag and constraint. ParaView opens it as it is; `sphero
// run` reads it back as a packing (`packing = FILE.vtu`).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <vtkSmartPointer.h>

#include "engine/stress.h"
#include "engine/world.h"
#include "io/frame_data.h"
#include "io/frame_piece.h"
#include "io/shape_table.h"

class vtkUnstructuredGrid;

namespace sphero {

void write_state_vtu(const std::filesystem::path& path, const World& world, double time);
// The bodies of `world` as a state frame holds them, whole or a rank's
// piece (bodies named by id); without `skeletons`, each body's skeleton and
// shape name left empty (a light frame names its shape's row instead).
std::vector<StateRecord> state_records(const World& world, const FramePiece& piece, bool skeletons = true);
// Their grid: format 1, each body's skeleton in world coordinates (a
// packing, a file that stands alone).
// With `analysis`, their coordination and stresses too (a run's frame).
vtkSmartPointer<vtkUnstructuredGrid> state_grid(const std::vector<StateRecord>& records, bool analysis = false);
// What a light state frame holds of each body of a world beyond the world
// itself: its row in the run's shape table, and what the analysis reads of
// it (coordination, Love–Weber stress and the grains' share of it).
struct BodyExtras {
  const std::vector<int>& shape_row;
  const std::vector<int>& coordination;
  const std::vector<Stress>& stress;
  const std::vector<Stress>& between_grains;
};
// Format 2, a run's light state frame of the bodies of `world` that `piece`
// writes, straight from the world: one vertex per body at its centre of
// mass, its shape named by its row in the run's shape table, `shape_table`
// beside the file.
vtkSmartPointer<vtkUnstructuredGrid> light_state_grid(const World& world, const FramePiece& piece,
                                                      const BodyExtras& extras, const std::string& shape_table);
// 1 or 2, as the grid's field data says (1 where it says nothing).
int state_format(vtkUnstructuredGrid* grid);
// The shape table a grid of format 2 read from `file` names, beside it;
// null for format 1. Throws std::runtime_error naming the file.
std::shared_ptr<const ShapeTable> shape_table_of_state(vtkUnstructuredGrid* grid, const std::filesystem::path& file);

// A packing (bodies without contact laws, e.g. from `sphero pack`) in the
// same format.
void write_packing_vtu(const std::filesystem::path& path, const std::vector<BodySpec>& bodies);

// Throws std::runtime_error naming the file and what is missing.
// Bodies in the order of their ids, and with `ids` these (see below).
std::vector<BodySpec> read_state_vtu(const std::filesystem::path& path, std::vector<int>* ids = nullptr);
// A state grid's records in the order of their ids (cell numbers where the
// file has none); throws std::runtime_error naming `source` and the array
// that is missing or misshapen.
// A grid of format 2 needs its shape table.
std::vector<StateRecord> state_records_from_grid(vtkUnstructuredGrid* grid, const std::string& source,
                                                 const ShapeTable* shapes = nullptr);
// The bodies of records, checked (a plate's span turned into body indices).
std::vector<BodySpec> bodies_of_states(const std::vector<StateRecord>& records, const std::string& source);
// The same from a grid already read (`source` names it in messages), in
// the order of their ids; with `ids`, these too (cell numbers where the
// file has none).
std::vector<BodySpec> bodies_from_state_grid(vtkUnstructuredGrid* grid, const std::string& source,
                                             std::vector<int>* ids = nullptr, const ShapeTable* shapes = nullptr);

}  // namespace sphero
