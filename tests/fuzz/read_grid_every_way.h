// What the fuzz targets of frame files do with a file: read it as a grid
// (read_vtu: a .vtu, or a .pvtu's pieces) and through every reader that
// takes such a grid — a run's frame, its contact points, a state file
// (a light one with its shape table), a shape table.
// A refusal is an exception; a crash or a sanitizer's report is a bug.
#pragma once

#include <exception>
#include <string>

#include "io/contact_points_vtu.h"
#include "io/frame_reader.h"
#include "io/shape_table.h"
#include "io/state_vtu.h"
#include "io/vtu_file.h"

inline void read_grid_every_way(const std::string& file) {
  try {
    const auto grid = sphero::read_vtu(file);
    try {
      (void)sphero::frame_from_grids(grid, grid, grid, grid);
    } catch (const std::exception&) {
    }
    try {
      (void)sphero::vertex_contacts_from_grid(grid);
    } catch (const std::exception&) {
    }
    try {
      (void)sphero::read_shape_table(file);
    } catch (const std::exception&) {
    }
    try {  // a light state frame, naming rows of a table of one disk
      sphero::ShapeTable disks;
      disks.row_of(sphero::make_shape("disk", sphero::SkeletonKind::point, {{0.0, 0.0}}, 0.5));
      (void)sphero::frame_from_grids(nullptr, grid, grid, grid, &disks, 8);
    } catch (const std::exception&) {
    }
    (void)sphero::bodies_from_state_grid(grid, file);
  } catch (const std::exception&) {
  }
}
