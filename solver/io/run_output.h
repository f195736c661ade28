// What `sphero run` leaves on disk: shapes.vtu, every shape of the run once
// (io/shape_table.h); per frame state_NNNNN.vtu (every body's state, its
// shape by its row in the table, and the grains' stresses), contacts_NNNNN.vtu
// (the force network, one line per interacting pair), walls_NNNNN.vtu (wall
// skeletons and outlines), contact_points_NNNNN.vtu (every vertex contact)
// and outlines_NNNNN.vtu (the grains drawn as polygons, for ParaView
// without the plugin) (io/frame_grids.h), as the run's fields choose,
// collected with their times in state.pvd, contacts.pvd, ...; and
// energy.csv, one row per frame. A run on ranks writes each frame as
// pieces, one per rank, named by state_NNNNN.pvtu and the others.
// Every file is written whole or not at all (temporary name, then rename);
// a CSV row is appended with one write.
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "io/folder_lock.h"
#include "io/frame_grids.h"

namespace sphero {

// A wall's columns in energy.csv, named by its label (io/wall_labels.h):
// LABEL_fx_N, LABEL_fy_N, the force the grains exert on it; LABEL_x_m,
// LABEL_y_m, its position; and for a wall pushed by an imposed load (a
// pressure plate) LABEL_load_fx_N, LABEL_load_fy_N, that load.
struct WallColumns {
  int number = 0;  // in the run
  std::string label;
  bool loaded = false;
};
// The walls of `world`, numbered by `piece` as in the run, in the order of
// their numbers.
std::vector<WallColumns> wall_columns(const World& world);
// Gives `columns` (a run's, in the order of their numbers) the load
// columns `wall` needs; returns whether it had them already. A stage adds
// no walls: `wall` must be among them.
bool add_wall_columns(std::vector<WallColumns>& columns, const WallColumns& wall);

// A row of energy.csv: the run's energies and work, its deepest overlap,
// and its walls' forces and positions in the order of their numbers (the
// walls there now: a wall a stage removed leaves its columns empty).
struct EnergyRow {
  double time = 0.0;
  long step = 0;
  EnergyLedger ledger;
  double deepest_overlap = 0.0;
  BodySteps body_steps;  // stepping = events
  struct Wall {
    int number = 0;  // its id (World::id): a wall a stage removed has no entry
    Vec2 force;      // the grains' on the wall: contacts only
    Vec2 position;
    Vec2 load;  // imposed on its free translations
  };
  std::vector<Wall> walls;
};
// The row of an engine whose walls are numbered by `piece` as in the run,
// with the run's `ledger` and `deepest_overlap`.
EnergyRow energy_row(const Engine& engine, const EnergyLedger& ledger, double deepest_overlap);

// `fields` in the order frames write them (io/frame_grids.h's).
std::vector<std::string> in_frame_order(const std::vector<std::string>& fields);
// The field whose collection lists every frame of a run that writes
// `fields`: state (which every run writes), else contacts, else outlines,
// else walls.
std::string index_field(const std::vector<std::string>& fields);

class RunOutput {
 public:
  // `fields` chooses among kFrameFields (state always among them). The directory must
  // exist. Outlines of each distinct shape are drawn once, in its body frame,
  // at the first whole frame (a run on ranks, whose ranks draw their own,
  // never draws them here).
  // With `resume_at`, continues the frames and energy.csv of an earlier run
  // from the checkpoint taken at that time, or, in a folder holding no run
  // (a branch of that run), starts them afresh at that time.
  RunOutput(std::filesystem::path directory, const World& world, int arc_resolution, std::vector<std::string> fields,
            std::optional<double> resume_at = std::nullopt, const RunLineage& lineage = {});
  // The same for a run whose walls are `walls` (in the order of their
  // numbers) and whose periodic cell is `cell`: all the folder needs of the
  // world.
  // `lineage` is the run's identity, which run.sphero records;
  // `event_columns`: energy.csv counts the grains' steps flown by events
  // and time-stepped (stepping = events).
  RunOutput(std::filesystem::path directory, std::vector<WallColumns> walls, const PeriodicCell& cell,
            int arc_resolution, std::vector<std::string> fields, std::optional<double> resume_at = std::nullopt,
            const RunLineage& lineage = {}, bool event_columns = false);

  // A whole frame of a run on one process; its energy row books `ledger`,
  // the engine's (Engine::ledger) when a caller holds it already.
  void write_frame(const Engine& engine);
  void write_frame(const Engine& engine, const EnergyLedger& ledger);
  // A frame whose `pieces` pieces every rank has written (each with the
  // FrameGrids of the bodies it holds and its FramePiece), `layouts` being
  // rank 0's: the .pvtu of each field, the collections and energy.csv's row.
  void add_frame_of_pieces(const std::vector<PieceLayout>& layouts, int pieces, const EnergyRow& row);
  int frames_written() const { return frame_; }
  // Frames are numbered from `first` in their files' names (a --from run
  // goes on from its parent's numbers); before the first frame only.
  void number_frames_from(int first) { first_number_ = first; }
  // The number the next frame's files carry.
  int next_frame_number() const { return first_number_ + frame_; }
  // A --from run or a branch numbers its shapes on from its parent's table
  // (the run beside its checkpoint, in `parent`), so that its state frames
  // are those of one run; before the first frame only. A parent without a
  // readable table leaves the numbering to this run.
  void number_shapes_from(const std::filesystem::path& parent);
  // Frames in single precision (io/single_precision.h); before the first
  // frame only.
  void set_single_precision(bool single) { single_precision_ = single; }
  // The run's shape table as it stands (io/shape_table.h).
  const ShapeTable& shapes() const { return shapes_; }
  // Whether an earlier run's frames were found and are continued (those up
  // to the checkpoint's time kept). False for a new run and for a branch,
  // which the caller starts with a frame of the state it starts from.
  bool continues() const { return continues_; }
  const std::vector<std::string>& fields() const { return fields_; }
  // What frames hold from now on (a stage's fields, among those given at
  // construction, which run.sphero lists and whose collections are kept):
  // each collection names the frames that hold its field.
  void set_frame_fields(std::vector<std::string> fields);
  const std::vector<std::string>& frame_fields() const { return frame_fields_; }
  const std::vector<WallColumns>& walls() const { return walls_; }
  const std::filesystem::path& directory() const { return directory_; }
  // Keeps the folder's claim (io/folder_lock.h) as long as this output.
  void hold(FolderLock claim) { claim_.emplace(std::move(claim)); }

 private:
  // The frame just written, its files ending in `extension`, in the
  // collections and energy.csv.
  void list_frame(const std::string& extension, const EnergyRow& row);
  void append_energy_row(const EnergyRow& row);
  void write_collection(const std::string& name) const;
  // The collection whose frames a continued run keeps: the last of
  // state, else contacts, else outlines the run writes, else walls.
  std::filesystem::path frames_collection() const;
  // Whether the directory holds the frames of an earlier run to continue;
  // throws where it holds part of a run only.
  bool holds_a_run() const;
  // Keeps the frames and energy.csv rows up to `time`; throws where the
  // file's columns are not `header` (written by another version).
  void resume(double time, const std::string& header);
  std::string energy_header() const;
  bool wants(const std::string& field) const;

  std::filesystem::path directory_;
  std::vector<std::string> fields_;
  std::vector<WallColumns> walls_;
  bool event_columns_ = false;
  int arc_resolution_;
  std::optional<FrameGrids> grids_;
  ShapeTable shapes_;  // the run's (io/shape_table.h), which its state frames name
  std::size_t shapes_written_ = 0;
  bool single_precision_ = false;
  std::optional<FolderLock> claim_;
  std::pair<std::size_t, int> grids_bodies_;  // the bodies grids_ was drawn for: their count and next id
  std::vector<double> times_;
  std::vector<std::string> extensions_;         // per frame: ".vtu" whole, ".pvtu" in pieces
  std::vector<std::vector<std::string>> held_;  // per frame: the fields it holds
  std::vector<std::string> frame_fields_;       // what frames hold now
  int frame_ = 0;                               // frames in the folder
  int first_number_ = 0;                        // the first one's number
  bool continues_ = false;
};

}  // namespace sphero
