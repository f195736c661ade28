#include "shapes/mass_properties.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "morphology/minkowski.h"
#include "morphology/region.h"

namespace sphero {
namespace {

constexpr double kPi = std::numbers::pi;

AreaMoments polygon_moments(std::span<const Vec2> loop) {
  AreaMoments m;
  for (std::size_t i = 0; i < loop.size(); ++i)
    m += boundary_integral(BoundaryPiece::segment(loop[i], loop[(i + 1) % loop.size()]));
  return m;
}

// Circular sector of radius r at `apex`, opening angle `angle`, centred on
// the unit direction `bisector`. Centroid at 4 r sin(angle/2) / (3 angle)
// from the apex; polar moment about the apex r⁴ angle / 4.
AreaMoments sector_moments(Vec2 apex, Vec2 bisector, double angle, double r) {
  AreaMoments m;
  m.area = 0.5 * r * r * angle;
  const double apex_to_centroid = angle > 0.0 ? 4.0 * r * std::sin(0.5 * angle) / (3.0 * angle) : 2.0 * r / 3.0;
  const Vec2 centroid_offset = apex_to_centroid * bisector;
  m.first = m.area * (apex + centroid_offset);
  // ∫|apex + u|² = A|apex|² + 2 apex·∫u + ∫|u|²
  m.second = m.area * norm2(apex) + 2.0 * m.area * dot(apex, centroid_offset) + r * r * r * r * angle / 4.0;
  return m;
}

MassProperties finish(const Shape& shape, const AreaMoments& m) {
  MassProperties p;
  p.area = m.area;
  p.centroid = m.centroid();
  p.polar_moment = m.central_second();
  p.bounding_radius = bounding_radius(shape, p.centroid);
  return p;
}

}  // namespace

double bounding_radius(const Shape& shape, Vec2 centroid) {
  double farthest = 0.0;
  for (Vec2 v : shape.vertices) farthest = std::max(farthest, norm(v - centroid));
  return farthest + shape.radius;
}

MassProperties convex_mass_properties(const Shape& shape) {
  if (!shape.has_convex_skeleton())
    throw std::invalid_argument("convex_mass_properties: shape '" + shape.name +
                                "' has a non-convex skeleton; use exact_mass_properties");
  const double r = shape.radius;
  const std::vector<Vec2>& v = shape.vertices;
  const std::size_t n = v.size();
  if (n == 1) return finish(shape, sector_moments(v[0], {1.0, 0.0}, 2.0 * kPi, r));

  // A segment is the degenerate counter-clockwise polygon A→B→A: zero area,
  // one rectangle on each side, a half disk at each end.
  AreaMoments m = n >= 3 ? polygon_moments(v) : AreaMoments{};
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = v[i], b = v[(i + 1) % n], c = v[(i + 2) % n];
    const Vec2 edge = b - a;
    const Vec2 outward = Vec2{edge.y, -edge.x} / norm(edge);  // right of a CCW edge
    if (r == 0.0) continue;
    const std::array<Vec2, 4> rectangle{a, a + r * outward, b + r * outward, b};
    // Outward lies to the right of the edge, so a, a + r·out, b + r·out, b
    // runs counter-clockwise.
    m += polygon_moments(rectangle);

    const Vec2 next_edge = c - b;
    const Vec2 next_outward = Vec2{next_edge.y, -next_edge.x} / norm(next_edge);
    const double turn = cross(edge, next_edge);
    // Exterior angle at b between the two outward normals: in [0, π] for a
    // convex CCW loop, π at the ends of a segment (where turn is ±0).
    const double angle = std::atan2(turn > 0.0 ? turn : 0.0, dot(edge, next_edge));
    if (angle <= 0.0) continue;
    Vec2 bisector = outward + next_outward;
    bisector = norm2(bisector) > 1e-300 ? bisector / norm(bisector) : edge / norm(edge);
    m += sector_moments(b, bisector, angle, r);
  }
  return finish(shape, m);
}

namespace {

std::vector<Region> sharp_or_offset_region(const Shape& shape) {
  if (shape.radius == 0.0) {  // only polygons may be sharp
    Region polygon;
    for (int i = 0; i < shape.edge_count(); ++i)
      polygon.outer.push_back(BoundaryPiece::segment(shape.edge_start(i), shape.edge_end(i)));
    return {polygon};
  }
  return shape.is_closed() ? dilate_polygon(shape.vertices, shape.radius) : dilate_path(shape.vertices, shape.radius);
}

// A rounded convex skeleton's outline directly: each edge pushed out by r
// along its outward normal, and an arc of radius r round each vertex from
// one edge's normal to the next (a point: the whole circle; a segment: two
// sides and two half circles). Counter-clockwise, like CGAL's.
Region convex_swept_region(const Shape& shape) {
  const double r = shape.radius;
  const std::vector<Vec2>& v = shape.vertices;
  Region region;
  BoundaryLoop& loop = region.outer;
  if (v.size() == 1) {
    const Vec2 east = v[0] + Vec2{r, 0.0};
    loop.push_back(BoundaryPiece::arc(east, east, v[0], r, true));
    return region;
  }
  // The outward normal of the edge from a to b, for a loop run
  // counter-clockwise: its right-hand side.
  const auto outward = [](Vec2 a, Vec2 b) {
    const Vec2 d = (b - a) / norm(b - a);
    return Vec2{d.y, -d.x};
  };
  // A segment is the closed loop a → b → a.
  const std::vector<Vec2> corners = shape.is_closed() ? v : std::vector<Vec2>{v[0], v[1]};
  const std::size_t n = corners.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = corners[i], b = corners[(i + 1) % n], c = corners[(i + 2) % n];
    const Vec2 here = outward(a, b), next = outward(b, c);
    loop.push_back(BoundaryPiece::segment(a + r * here, b + r * here));
    // Collinear edges meet without an arc.
    if (cross(here, next) > 0.0 || dot(here, next) < 0.0)
      loop.push_back(BoundaryPiece::arc(b + r * here, b + r * next, b, r, true));
  }
  return region;
}

}  // namespace

std::vector<Region> swept_region(const Shape& shape) {
  if (shape.radius > 0.0 && shape.has_convex_skeleton()) return {convex_swept_region(shape)};
  return sharp_or_offset_region(shape);
}

MassProperties exact_mass_properties(const Shape& shape) {
  return finish(shape, integrate(sharp_or_offset_region(shape)));
}

MassProperties mass_properties(const Shape& shape) {
  return shape.has_convex_skeleton() ? convex_mass_properties(shape) : exact_mass_properties(shape);
}

}  // namespace sphero
