// The `.shape` text format (docs/FILE-FORMATS.md):
//
//   # a comment; blank lines are ignored
//   sphero-shape 1          first line: format name and version
//   name   pebble           optional, defaults to the file name's stem
//   kind   polygon          point | segment | polyline | polygon
//   radius 0.05             sphero-radius, in length units
//   vertices 3              then exactly that many lines "x y"
//   0 0
//   1 0
//   0.5 0.8
#pragma once

#include <filesystem>
#include <istream>
#include <string>

#include "shapes/shape.h"

namespace sphero {

// Reads and validates one shape. Errors are ShapeError with
// "FILE:LINE: what is wrong, and what to do".
Shape read_shape_file(const std::filesystem::path& path);
Shape parse_shape(std::istream& in, const std::string& source_name, const std::string& default_name);

// Writes the format above, full precision, so that reading gives the same
// shape back bit for bit.
void write_shape(std::ostream& out, const Shape& shape);

}  // namespace sphero
