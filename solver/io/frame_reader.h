// Reads back a frame of a run (state_, contacts_, walls_NNNNN.vtu and the
// rest its fields hold; particles_NNNNN.vtu in runs before light frames)
// into plain data (io/frame_data.h), for figures and analysis that must not
// see VTK, and the run's collections and energy table.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "geometry/vec2.h"
#include "io/frame_data.h"
#include "io/shape_table.h"

class vtkUnstructuredGrid;

namespace sphero {

// Frames listed in the run's frame index (state.pvd; particles.pvd before
// light frames, frame_index_collection). Throws std::runtime_error
// naming the directory when it holds no run.
int frame_count(const std::filesystem::path& run_directory);

// The data sets of a .pvd collection, in order: time and file name.
struct CollectionEntry {
  double time = 0.0;
  std::string file;
};
// Throws std::runtime_error naming the file when it cannot be read.
std::vector<CollectionEntry> read_collection(const std::filesystem::path& pvd);

// A run's energy.csv: the header's column names and the rows.
struct EnergyTable {
  bool present = false;  // the run wrote the file
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;  // NaN where a cell is empty (a wall a stage removed)
  // A column's index; throws std::runtime_error naming the column when the
  // header lacks it.
  std::size_t column(const std::string& name) const;
};
EnergyTable read_energy_table(const std::filesystem::path& run_directory);
// A frame, whole (.vtu) or in pieces (.pvtu, read in the order of a whole
// frame: io/pvtu_file.h).
FrameData read_frame(const std::filesystem::path& run_directory, int frame);
// The extension of a frame's files as the frame index names them: ".vtu" for
// a frame written whole, ".pvtu" for one written in pieces.
std::string frame_extension(const std::filesystem::path& run_directory, int frame);
// The same of a collection's entry.
std::string frame_extension(const CollectionEntry& frame);
// The number a frame's files carry ("particles_00011.vtu": 11; a run
// continued with --from goes on from its parent's numbers), 0 where the
// name carries none.
int frame_number(const CollectionEntry& frame);
// The file of `field` of the frame `frame` names ("contacts_00011.vtu"
// beside "particles_00011.vtu"), relative to the run's folder.
std::string frame_file(const CollectionEntry& frame, const std::string& field);

// The same from grids already in memory (what ParaView's Sphero reader
// produces); `contacts`, `walls` and `state` may be null. The state frame
// gives the particles' exact outlines.
// `particles`, where given, are the drawn outlines, and the state gives
// their exact shapes; without them, the particles are drawn from a state
// that carries the analysis (holds_analysis) at `arc_resolution`, the
// run's (run_arc_resolution). A state of format 2 needs its run's shape
// table.
FrameData frame_from_grids(vtkUnstructuredGrid* particles, vtkUnstructuredGrid* contacts, vtkUnstructuredGrid* walls,
                           vtkUnstructuredGrid* state = nullptr, const ShapeTable* shapes = nullptr,
                           int arc_resolution = 24);
// Throws where `data` lacks arrays the analysis reads (FrameData::
// missing_arrays), naming them: a run that chose fewer arrays is viewed,
// not analysed.
void refuse_missing_arrays(const FrameData& data);
// Whether a state frame stands for the drawn outlines: a light one (format
// 2, drawn from the shape table), or one that carries the analysis.
bool holds_analysis(vtkUnstructuredGrid* state);
// Adds to a contacts grid the arrays a run writes only on request
// (io/field_arrays.h) where it lacks them: force_magnitude (of force_on_a)
// and branch_vector (from the line's first point to its second), as the
// run computes them.
void add_derived_contact_arrays(vtkUnstructuredGrid* contacts);
// The chords per full circle a run's outlines are drawn at (its manifest's).
int run_arc_resolution(const std::filesystem::path& run_directory);
// The collection that lists every frame of a run: state.pvd since light
// frames (manifest format 4), particles.pvd before.
std::string frame_index_collection(const std::filesystem::path& run_directory);

// Per-particle results to add to a frame's particles_NNNNN.vtu (an array of
// the same name is replaced), so that ParaView shows them on the outlines.
struct ParticleField {
  std::string name;
  int components = 1;
  std::vector<double> values;  // components × particles, particle-major
};
// Rewrites the file whole or not at all; throws std::runtime_error naming
// the file when a field's size does not match its particles.
void add_particle_fields(const std::filesystem::path& run_directory, int frame,
                         const std::vector<ParticleField>& fields);

}  // namespace sphero
