// The frames of a run, whole or one rank's piece (io/frame_piece.h): made
// in memory as a FrameData straight from the engine, then written as one
// grid per field — particles (rounded outlines as polygons with
// per-particle data), contacts (the force network, one line per
// interacting pair), walls (skeletons, outlines and the grains' contact
// points on them), contact points (every vertex contact) and state (the
// exact skeletons, enough to restart from as a packing).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/stress.h"
#include "io/contact_pairs.h"
#include "io/frame_data.h"
#include "io/frame_piece.h"
#include "io/pvtu_file.h"
#include "io/shape_table.h"

namespace sphero {

// Every field a run can write, in the order it writes them.
// `state` (every body's state, and its shape by its row in the run's shape
// table) is in every frame; `outlines` are the grains drawn as polygons,
// for viewing without the plugin.
inline const std::vector<std::string> kFrameFields = {"outlines", "contacts", "walls", "contact_points", "state"};

class FrameGrids {
 public:
  // Outlines of each distinct shape of `world` (the engine's world that
  // frame() and write() are given: the run's, or a rank's part) are drawn
  // once, in its body frame.
  // With `shapes` (the run's table, which it may append to), the state is
  // written light: each body names its shape's row (io/state_vtu.h).
  // With `single_precision`, the files hold their floating-point arrays in
  // 32 bits, the bodies' placement aside (io/single_precision.h).
  FrameGrids(const World& world, int arc_resolution, ShapeTable* shapes = nullptr, bool single_precision = false);

  // `engine`'s part `piece` of a frame of `fields`, made straight from its
  // state: what each field's file holds, named by the bodies' ids. A
  // piece's wall it does not draw (rank 0 draws the walls) comes as a
  // record without skeleton, holding the piece's contacts on it.
  // Without `skeletons`, a light state's records lack what its file does
  // not hold (the skeletons in world coordinates, the shapes' names).
  FrameData frame(const Engine& engine, const FramePiece& piece, const std::vector<std::string>& fields,
                  bool skeletons = true) const;

  // Writes `engine`'s part `piece` of frame `frame` of each of `fields`
  // into `directory` (FramePiece::file_name), each file whole or not at all,
  // with frame()'s values (the contacts and a light state made straight
  // from the world); returns each field's arrays, which a .pvtu names.
  std::vector<PieceLayout> write(const Engine& engine, const FramePiece& piece, const std::vector<std::string>& fields,
                                 const std::filesystem::path& directory, int frame) const;

 private:
  // What a frame is made from, taken once: the engine's touching contacts,
  // the pairs they join, and per body what the analysis needs beyond its
  // state (stresses, coordination), which particles and the state both
  // carry (where `fields` need them).
  struct Gathered {
    std::vector<Contact> contacts;       // only where the contact points are written
    std::vector<Contact> wall_contacts;  // between a grain and a wall
    std::vector<ContactPair> pairs;
    std::vector<Stress> stress, between_grains;
    std::vector<int> coordination;
  };
  Gathered gather(const Engine& engine, const std::vector<std::string>& fields) const;
  // frame() from what was gathered; without `states`, no state records
  // (write() makes a light state from the world).
  FrameData frame_of(const Engine& engine, const Gathered& gathered, const FramePiece& piece,
                     const std::vector<std::string>& fields, bool skeletons, bool states) const;
  void add_particles(const World& w, const Gathered& loads, const FramePiece& piece, FrameData& data) const;
  void add_states(const World& w, const Gathered& loads, const FramePiece& piece, bool skeletons,
                  FrameData& data) const;
  void add_pairs(const World& w, const std::vector<ContactPair>& pairs, const FramePiece& piece, FrameData& data) const;
  void add_walls(const World& w, const std::vector<Contact>& contacts, const FramePiece& piece, FrameData& data) const;

  struct DrawnShape {
    std::vector<Vec2> outline;  // body frame
    double area = 0.0;
  };
  const DrawnShape& shape_of(std::size_t body) const { return shapes_[shape_index_[body]]; }

  std::vector<DrawnShape> shapes_;          // one per distinct shape
  std::vector<std::uint32_t> shape_index_;  // per body of the world, its shape in shapes_
  std::vector<int> table_row_;              // per body, its row in the run's shape table (none without one)
  bool single_precision_ = false;
};

// The grid of one field (kFrameFields) of a frame, with the values its
// file holds (a contacts grid made from records gives each line its own
// two points, where write() shares grains' centres); with `fields` (a
// run's, io/field_arrays.h), without the arrays a reader derives unless
// they ask for them.
vtkSmartPointer<vtkUnstructuredGrid> field_grid(const std::string& field, const FrameData& data,
                                                const std::vector<std::string>& fields = {});

// The frame `sphero run` would write of `engine`'s state now, in memory
// (Python's live frames, with no disk): frame() of every field but the
// drawn outlines, with what a reader derives from the state frame and the
// shape table (particles, outlines, exact shapes, masses) derived alike,
// so that its analysis is that of the files to the bit.
FrameData frame_in_memory(const Engine& engine, int arc_resolution);

}  // namespace sphero
