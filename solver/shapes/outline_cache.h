// Rounded outlines (skeleton ⊕ disk, arcs cut into chords) in the body frame
// and exact mass properties, computed once per distinct shape: the offset
// construction is the slow part, and a sample holds few distinct shapes
// among many grains.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "geometry/vec2.h"
#include "morphology/region.h"
#include "shapes/mass_properties.h"
#include "shapes/shape.h"

namespace sphero {

class OutlineCache {
 public:
  explicit OutlineCache(int arc_resolution) : arc_resolution_(arc_resolution) {}
  // The outline's polygon (counter-clockwise, `arc_resolution` chords per
  // full circle) and the shape's exact area and mass properties.
  const std::vector<Vec2>& outline(const Shape& shape) { return entry(shape).outline; }
  // The outline exactly: every loop of the swept region (outer loops
  // counter-clockwise, holes clockwise), in the body frame.
  const std::vector<BoundaryLoop>& loops(const Shape& shape) { return entry(shape).loops; }
  double area(const Shape& shape) { return mass_properties(shape).area; }
  const MassProperties& mass_properties(const Shape& shape);

 private:
  struct Entry {
    std::vector<Vec2> outline;
    std::vector<BoundaryLoop> loops;
    std::optional<MassProperties> mass;  // asked for only by some callers: made on demand
  };
  Entry& entry(const Shape& shape);
  int arc_resolution_;
  std::map<std::string, Entry> known_;
};

}  // namespace sphero
