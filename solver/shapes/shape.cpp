#include "shapes/shape.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "geometry/polygon.h"

namespace sphero {

std::string_view to_string(SkeletonKind kind) {
  switch (kind) {
    case SkeletonKind::point:
      return "point";
    case SkeletonKind::segment:
      return "segment";
    case SkeletonKind::polyline:
      return "polyline";
    case SkeletonKind::polygon:
      return "polygon";
  }
  return "?";
}

SkeletonKind skeleton_kind_from_string(std::string_view word) {
  for (SkeletonKind kind : {SkeletonKind::point, SkeletonKind::segment, SkeletonKind::polyline, SkeletonKind::polygon})
    if (word == to_string(kind)) return kind;
  throw ShapeError(fmt::format("unknown skeleton kind '{}': use point, segment, polyline or polygon", word));
}

int Shape::edge_count() const {
  const int n = static_cast<int>(vertices.size());
  switch (kind) {
    case SkeletonKind::point:
      return 0;
    case SkeletonKind::segment:
    case SkeletonKind::polyline:
      return n - 1;
    case SkeletonKind::polygon:
      return n;
  }
  return 0;
}

bool Shape::has_convex_skeleton() const {
  return kind == SkeletonKind::point || kind == SkeletonKind::segment ||
         (kind == SkeletonKind::polygon && is_convex(vertices));
}

namespace {

void check_vertex_count(const std::string& name, SkeletonKind kind, std::size_t n) {
  if (n == 0) throw ShapeError(fmt::format("shape '{}': the skeleton has no vertices; give at least one", name));
  const auto complain = [&](const char* needed) {
    throw ShapeError(
        fmt::format("shape '{}': a {} skeleton needs {}, this one has {}", name, to_string(kind), needed, n));
  };
  switch (kind) {
    case SkeletonKind::point:
      if (n != 1) complain("exactly 1 vertex");
      break;
    case SkeletonKind::segment:
      if (n != 2) complain("exactly 2 vertices");
      break;
    case SkeletonKind::polyline:
      if (n < 2) complain("at least 2 vertices");
      break;
    case SkeletonKind::polygon:
      if (n < 3) complain("at least 3 vertices");
      break;
  }
}

void check_finite(const std::string& name, const std::vector<Vec2>& vertices, double radius) {
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (!is_finite(vertices[i]))
      throw ShapeError(fmt::format("shape '{}': vertex {} has a coordinate that is not a finite number", name, i + 1));
  if (!std::isfinite(radius)) throw ShapeError(fmt::format("shape '{}': the radius is not a finite number", name));
}

// Sizes that keep every later computation finite and exact predicates
// cheap: areas stay within 1e-18 .. 1e18, and CGAL's exact offset (a few
// seconds at the vertex limit) never meets numbers GMP cannot handle.
void check_scale(const std::string& name, const std::vector<Vec2>& vertices, double radius) {
  if (vertices.size() > kMaxSkeletonVertices)
    throw ShapeError(fmt::format("shape '{}': {} vertices; a skeleton has at most {} (simplify the outline)", name,
                                 vertices.size(), kMaxSkeletonVertices));
  double extent = 2.0 * radius;
  Vec2 low = vertices.front(), high = vertices.front();
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const Vec2 v = vertices[i];
    if (std::abs(v.x) > kMaxCoordinate || std::abs(v.y) > kMaxCoordinate)
      throw ShapeError(
          fmt::format("shape '{}': vertex {} ({}, {}) lies beyond {:g} from the origin; coordinates "
                      "must stay within ±{:g}",
                      name, i + 1, v.x, v.y, kMaxCoordinate, kMaxCoordinate));
    low = {std::min(low.x, v.x), std::min(low.y, v.y)};
    high = {std::max(high.x, v.x), std::max(high.y, v.y)};
  }
  extent = std::max({extent, high.x - low.x, high.y - low.y});
  if (radius > kMaxCoordinate)
    throw ShapeError(fmt::format("shape '{}': the radius {} exceeds {:g}", name, radius, kMaxCoordinate));
  if (extent < kMinShapeSize)
    throw ShapeError(
        fmt::format("shape '{}': {:g} across; a shape must be at least {:g} across (change the unit of "
                    "length)",
                    name, extent, kMinShapeSize));
}

void check_radius(const std::string& name, SkeletonKind kind, double radius) {
  if (radius < 0.0)
    throw ShapeError(fmt::format("shape '{}': the radius {} is negative; give a radius >= 0", name, radius));
  if (radius == 0.0 && kind != SkeletonKind::polygon)
    throw ShapeError(fmt::format(
        "shape '{}': a {} skeleton with radius 0 has no area; give a positive radius", name, to_string(kind)));
}

void check_edges(const std::string& name, const std::vector<Vec2>& vertices, bool closed) {
  const std::size_t n = vertices.size();
  const std::size_t edges = closed ? n : n - 1;
  for (std::size_t i = 0; i < edges; ++i) {
    const std::size_t j = (i + 1) % n;
    if (vertices[i] == vertices[j]) {
      if (closed && j == 0)
        throw ShapeError(fmt::format(
            "shape '{}': the last vertex repeats the first; a closed polygon closes itself, drop the last vertex",
            name));
      throw ShapeError(
          fmt::format("shape '{}': vertices {} and {} are equal (a zero-length edge); remove one", name, i + 1, j + 1));
    }
  }
}

void check_polygon(const std::string& name, const std::vector<Vec2>& vertices) {
  const EdgePair crossing = first_self_intersection(vertices);
  if (crossing.first >= 0) {
    const int n = static_cast<int>(vertices.size());
    throw ShapeError(fmt::format(
        "shape '{}': the polygon intersects itself: edge {}-{} meets edge {}-{}; a closed skeleton must be a "
        "simple polygon (use a polyline for an open, crossing path)",
        name, crossing.first + 1, (crossing.first + 1) % n + 1, crossing.second + 1, (crossing.second + 1) % n + 1));
  }
}

}  // namespace

Shape make_shape(std::string name, SkeletonKind kind, std::vector<Vec2> vertices, double radius) {
  check_vertex_count(name, kind, vertices.size());
  check_finite(name, vertices, radius);
  check_radius(name, kind, radius);
  check_scale(name, vertices, radius);
  check_edges(name, vertices, kind == SkeletonKind::polygon);
  if (kind == SkeletonKind::polygon) {
    check_polygon(name, vertices);
    if (signed_area(vertices) < 0.0) std::reverse(vertices.begin(), vertices.end());
  }
  return Shape{std::move(name), kind, std::move(vertices), radius};
}

Shape transformed(const Shape& shape, Vec2 offset, double angle) {
  Shape moved = shape;
  for (Vec2& v : moved.vertices) v = rotated(v + offset, angle);
  return moved;
}

}  // namespace sphero
