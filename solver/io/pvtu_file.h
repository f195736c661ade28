// A frame written in pieces, one per rank: the .pvtu that names them
// (VTK's parallel unstructured grid, which ParaView opens as one data
// set), and the pieces read back as one grid.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <vtkSmartPointer.h>

#include "engine/run_identity.h"

class vtkUnstructuredGrid;

namespace sphero {

// A cell array as a .pvtu declares it.
struct ArrayLayout {
  std::string name;
  std::string type;  // VTK's XML word: Int32, Float64, String, ...
  int components = 1;
};
// One field's grid (particles, contacts, ...) and its cell arrays.
struct PieceLayout {
  std::string field;
  std::vector<ArrayLayout> cell_arrays;
};

std::vector<ArrayLayout> layout_of(vtkUnstructuredGrid* grid);

// Marks `grid` as piece `index` of `count` of frame `frame` of run `run`
// (the field arrays sphero_piece and, for a known run, sphero_run), which
// reading the .pvtu checks: pieces of one run (the folder's, where its
// run.sphero names it), of one frame at one time, each index once, as
// many as the .pvtu names.
void add_piece_identity(vtkUnstructuredGrid* grid, const RunIdentity& run, int frame, int index, int count);

// Writes the .pvtu whole or not at all; `pieces` are file names beside it.
void write_pvtu_atomically(const std::filesystem::path& pvtu, const std::vector<ArrayLayout>& cell_arrays,
                           const std::vector<std::string>& pieces);

// The pieces a .pvtu names, each a .vtu beside it. Throws std::runtime_error
// naming the file when it is not a .pvtu Sphero can read, names no piece,
// or names one that is missing or lies outside its directory.
std::vector<std::filesystem::path> pvtu_pieces(const std::filesystem::path& pvtu);

// Every piece (checked as read_vtu checks a .vtu) into one grid, its cells
// in the order a serial run writes them (particles and state by id, pairs
// and contact points by their bodies, walls first), with the first
// piece's field data (its time): the grid a whole frame's .vtu gives. The
// pieces must hold the same cell arrays.
vtkSmartPointer<vtkUnstructuredGrid> read_pvtu(const std::filesystem::path& pvtu);

}  // namespace sphero
