// A coarse-grained field as a publication figure: the field's nodes as a
// colour map (viridis) under the grains' outlines and the walls (clipped
// to the field's extent), optional arrows (a vector field) and bars (the
// major principal stress direction), a caption wrapped to the width above,
// and a colour bar with ticks and the quantity's name and unit below.
// Headless Cairo; PNG, or vector SVG / PDF by the file's extension.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/figures/box.h"
#include "geometry/vec2.h"

namespace sphero::analysis {

struct FieldMap {
  std::string caption;   // above the drawing, wrapped to its width
  std::string quantity;  // under the colour bar, with its unit: "pressure p (N/m)"
  Vec2 origin, spacing;  // of the nodes
  int nx = 0, ny = 0;
  std::vector<double> values;  // per node, x fastest; NaN for a node left blank
  // Per node, an arrow (a vector in its own unit, `arrow_unit`), drawn at
  // every few nodes and scaled to the longest; empty for none.
  std::vector<Vec2> arrows;
  std::string arrow_unit;
  // Per node, a bar along a direction, its length the vector's norm over
  // the largest (the major principal direction scaled by q); empty for none.
  std::vector<Vec2> bars;
  std::vector<std::vector<Vec2>> outlines, wall_outlines;  // drawn over the field
};

// Where the figure puts its parts, in output units (y down): the caption's
// text, the field's drawing (everything else is clipped to it), and the
// colour bar with its tick labels and quantity.
struct FieldMapLayout {
  double width = 0, height = 0;
  Box caption, drawing, colour_bar;
};
FieldMapLayout field_map_layout(const FieldMap& map, int width);

// Throws std::runtime_error for a map without finite values, an unknown
// extension or an unwritable file; never leaves a partial file.
void draw_field_map(const FieldMap& map, const std::filesystem::path& file, int width = 1600);

}  // namespace sphero::analysis
