// A spheropolygon shape: a skeleton (point, segment, open polyline or closed
// polygon, convex or not) swept by a disk of radius `radius` (docs/MODEL.md §1).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "geometry/vec2.h"

namespace sphero {

enum class SkeletonKind { point, segment, polyline, polygon };

std::string_view to_string(SkeletonKind kind);
// Throws ShapeError naming the accepted words.
SkeletonKind skeleton_kind_from_string(std::string_view word);

// Any invalid shape, with a message that says what is wrong and what to do.
class ShapeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Shape {
  std::string name;
  SkeletonKind kind = SkeletonKind::point;
  // Closed polygons are stored counter-clockwise, the last vertex joining the
  // first; paths run from the first vertex to the last.
  std::vector<Vec2> vertices;
  double radius = 0.0;

  bool is_closed() const { return kind == SkeletonKind::polygon; }
  int edge_count() const;
  // Edge i runs from vertices[i] to vertices[(i + 1) % n].
  Vec2 edge_start(int i) const { return vertices[i]; }
  Vec2 edge_end(int i) const { return vertices[(i + 1) % vertices.size()]; }
  // True for a point, a segment and a convex polygon: their sweep is the
  // union of disjoint pieces that the analytic formulas integrate.
  bool has_convex_skeleton() const;
};

// Limits every shape keeps (docs/FILE-FORMATS.md): they keep areas,
// moments and the exact offset construction finite and fast.
inline constexpr std::size_t kMaxSkeletonVertices = 10'000;
inline constexpr double kMaxCoordinate = 1e9;  // |x|, |y| and the radius, in the scene's unit of length
inline constexpr double kMinShapeSize = 1e-9;  // extent of skeleton ⊕ disk

// Checks and normalises a skeleton, or throws ShapeError. Refuses: no
// vertices, a vertex count that does not fit the kind or exceeds the limit,
// non-finite coordinates or radius, coordinates or a radius beyond the
// limit, a shape smaller than the limit, a radius that is negative (or zero
// for points, segments and polylines, which would have no area), repeated
// consecutive vertices (zero-length edges), a closed polygon whose edges
// cross or fold back onto each other (which includes all-collinear ones).
// Closed polygons come back counter-clockwise.
Shape make_shape(std::string name, SkeletonKind kind, std::vector<Vec2> vertices, double radius);

// The same shape with its vertices moved by `offset` and then rotated by
// `angle` about the origin.
Shape transformed(const Shape& shape, Vec2 offset, double angle);

}  // namespace sphero
