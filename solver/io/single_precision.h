// Frames in single precision (`precision = single`): every floating-point
// array of a frame's files in 32 bits, except what places a body — the
// state's positions and angles stay in double, so that a frame read back
// draws, analyses and restarts from the bodies where they were. Halves
// what the other numbers cost; their rounding, 2⁻²⁴ of a value, is far
// below what a stress, a force or a contact point means.
#pragma once

#include <string>

#include "engine/world.h"

class vtkUnstructuredGrid;

namespace sphero {

// The grid's floating-point arrays (and its points, unless `keep_placement`)
// as 32-bit floats; with `keep_placement` (a state frame), the points,
// `angle` and what a body is given rather than what it does — its density
// and imposed motions, a plate's pressure and the ids of its span — stay.
void to_single_precision(vtkUnstructuredGrid* grid, bool keep_placement);

// The largest coordinate a frame of `world` is written with and its
// smallest grain's size (bounding radius): a float rounds a point by
// 2⁻²⁴ of its largest coordinate, which must stay within 10⁻⁴ of that
// size, so that contact points and branch vectors keep their meaning.
// Throws std::invalid_argument naming `where` and both numbers otherwise.
void check_single_precision(const World& world, const std::string& where);

}  // namespace sphero
