// The grids of one frame of a run, whole or one rank's piece
// (io/frame_piece.h): particles (rounded outlines as polygons with
// per-particle data), contacts (the force network, one line per
// interacting pair), walls (skeletons, outlines and the grains' contact
// points on them), contact points (every vertex contact) and state (the
// exact skeletons, enough to restart from as a packing).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "io/frame_data.h"
#include "io/frame_piece.h"
#include "io/pvtu_file.h"

namespace sphero {

// Every field a run can write, in the order it writes them.
inline const std::vector<std::string> kFrameFields = {"particles", "contacts", "walls", "contact_points", "state"};

class FrameGrids {
 public:
  // Outlines of each distinct shape of `world` (the engine's world that
  // write() is given: the run's, or a rank's part) are drawn once, in its
  // body frame.
  FrameGrids(const World& world, int arc_resolution);

  // Writes `engine`'s part `piece` of frame `frame` of each of `fields`
  // into `directory` (FramePiece::file_name), each file whole or not at all;
  // returns each field's arrays, which a .pvtu names.
  std::vector<PieceLayout> write(const Engine& engine, const FramePiece& piece, const std::vector<std::string>& fields,
                                 const std::filesystem::path& directory, int frame) const;

  // The grids write() would write of `engine`'s whole state, in memory: a
  // frame without the disk, by field.
  std::map<std::string, vtkSmartPointer<vtkUnstructuredGrid>> grids(const Engine& engine,
                                                                    const std::vector<std::string>& fields) const;

 private:
  // Each from the engine's contacts, assembled once per frame.
  vtkSmartPointer<vtkUnstructuredGrid> particles(const Engine& engine, const std::vector<Contact>& contacts,
                                                 const FramePiece& piece) const;
  vtkSmartPointer<vtkUnstructuredGrid> contact_lines(const Engine& engine, const std::vector<Contact>& contacts,
                                                     const FramePiece& piece) const;
  vtkSmartPointer<vtkUnstructuredGrid> walls(const World& w, const std::vector<Contact>& contacts,
                                             const FramePiece& piece) const;
  vtkSmartPointer<vtkUnstructuredGrid> grid_of(const std::string& field, const Engine& engine,
                                               const std::vector<Contact>& contacts, const FramePiece& piece) const;

  struct DrawnShape {
    std::vector<Vec2> outline;  // body frame
    double area = 0.0;
  };
  const DrawnShape& shape_of(std::size_t body) const { return shapes_[shape_index_[body]]; }

  std::vector<DrawnShape> shapes_;          // one per distinct shape
  std::vector<std::uint32_t> shape_index_;  // per body of the world, its shape in shapes_
};

// The frame `sphero run` would write of `engine`'s state now, made in
// memory: the grids write() would write, read as read_frame reads the
// files (Python's live frames, with no disk).
FrameData frame_in_memory(const Engine& engine, int arc_resolution);

}  // namespace sphero
