#include "shapes/mass_properties.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <deque>
#include <mutex>
#include <numbers>
#include <optional>
#include <stdexcept>

#include "geometry/mitre.h"
#include "geometry/polygon.h"
#include "morphology/minkowski.h"
#include "morphology/offset_curve.h"
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

// From this many vertices on, a skeleton's region comes from its offset
// curve in floating point (offset_curve.h): CGAL's exact arrangement takes
// seconds for thousands of vertices, and holds the run's start (and a stop
// request) that long.
constexpr std::size_t kCurveFromVertices = 256;

// A skeleton's region ⊕ D(r), and whether it came from the offset curve
// (else from CGAL's exact offsets).
struct OffsetRegion {
  std::vector<Region> regions;
  bool from_curve = false;
};

OffsetRegion offset_region(const Shape& shape) {
  if (shape.vertices.size() >= kCurveFromVertices)
    if (auto regions = offset_curve_region(shape.vertices, shape.is_closed(), shape.radius))
      return {std::move(*regions), true};
  return {shape.is_closed() ? dilate_polygon(shape.vertices, shape.radius) : dilate_path(shape.vertices, shape.radius),
          false};
}

// The offsets last made: one takes a good part of a second for a skeleton
// of thousands of vertices, and a run asks for one shape's several times
// (placing grains, checking overlaps, the world, its outlines).
class OffsetMemo {
 public:
  OffsetRegion of(const Shape& shape) {
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      for (const Entry& e : entries_)
        if (same_bits(e, shape)) return e.region;
    }
    OffsetRegion region = offset_region(shape);
    const std::lock_guard<std::mutex> hold(mutex_);
    if (entries_.size() == kKept) entries_.pop_front();
    entries_.push_back({shape.kind, shape.radius, shape.vertices, region});
    return region;
  }

 private:
  struct Entry {
    SkeletonKind kind;
    double radius;
    std::vector<Vec2> vertices;
    OffsetRegion region;
  };
  // Bit for bit, so that what is kept is what this shape would give.
  static bool same_bits(const Entry& e, const Shape& shape) {
    return e.kind == shape.kind && std::memcmp(&e.radius, &shape.radius, sizeof e.radius) == 0 &&
           e.vertices.size() == shape.vertices.size() &&
           std::memcmp(e.vertices.data(), shape.vertices.data(), e.vertices.size() * sizeof(Vec2)) == 0;
  }
  static constexpr std::size_t kKept = 8;
  std::mutex mutex_;
  std::deque<Entry> entries_;
};

OffsetRegion memo_offset_region(const Shape& shape) {
  static OffsetMemo memo;
  return memo.of(shape);
}

std::vector<Region> sharp_or_offset_region(const Shape& shape) {
  if (shape.radius == 0.0) {  // only polygons may be sharp
    Region polygon;
    for (int i = 0; i < shape.edge_count(); ++i)
      polygon.outer.push_back(BoundaryPiece::segment(shape.edge_start(i), shape.edge_end(i)));
    return {polygon};
  }
  return memo_offset_region(shape).regions;
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
  if (auto mitre = mitred_swept_region(shape)) return {std::move(*mitre)};
  return sharp_or_offset_region(shape);
}

MassProperties exact_mass_properties(const Shape& shape) {
  return finish(shape, integrate(sharp_or_offset_region(shape)));
}

namespace {

// The turn at each vertex of a counter-clockwise loop: positive at a convex
// corner, negative at a reflex one, in (−π, π).
std::vector<double> turns(const std::vector<Vec2>& v) {
  // A turn within rounding of straight is straight: its arc, whose end
  // normals could round the wrong way round, would otherwise become a
  // whole circle.
  constexpr double kStraight = 1e-12;
  const std::size_t n = v.size();
  std::vector<double> turn(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 in = v[i] - v[(i + n - 1) % n], out = v[(i + 1) % n] - v[i];
    turn[i] = std::atan2(cross(in, out), dot(in, out));
    if (std::abs(turn[i]) < kStraight) turn[i] = 0.0;
  }
  return turn;
}

// The outward normals (right of a counter-clockwise loop) of the edges
// into and out of corner i, and where the two edges pushed out by r meet.
struct Corner {
  Vec2 in, out;
  Vec2 tip(Vec2 corner, double r) const { return mitre_tip(corner, in, out, r); }
};

Corner corner_normals(const std::vector<Vec2>& v, std::size_t i) {
  const std::size_t n = v.size();
  const Vec2 in = v[i] - v[(i + n - 1) % n], out = v[(i + 1) % n] - v[i];
  return {Vec2{in.y, -in.x} / norm(in), Vec2{out.y, -out.x} / norm(out)};
}

// The outer boundary of the mitred pieces, each arc replaced by the polygon
// of its tangents (which encloses it): where this loop is simple, no two
// pieces meet but at the kites, and the true boundary, inside it, is simple
// too. A loop that only the tangents make cross errs on the safe side.
std::vector<Vec2> mitred_outline(const std::vector<Vec2>& v, const std::vector<double>& turn, double r) {
  const std::size_t n = v.size();
  std::vector<Vec2> loop;
  loop.reserve(3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const Corner c = corner_normals(v, i);
    const Vec2 n_in = c.in, n_out = c.out;
    if (turn[i] <= 0.0) {  // the mitre's tip, or the point beside a straight vertex
      loop.push_back(c.tip(v[i], r));
      continue;
    }
    const int steps = static_cast<int>(std::ceil(turn[i] / (kPi / 8.0)));
    const double step = turn[i] / steps, start = std::atan2(n_in.y, n_in.x);
    loop.push_back(v[i] + r * n_in);
    for (int k = 0; k < steps; ++k) {
      const double angle = start + (k + 0.5) * step;
      loop.push_back(v[i] + (r / std::cos(0.5 * step)) * Vec2{std::cos(angle), std::sin(angle)});
    }
    loop.push_back(v[i] + r * n_out);
  }
  return loop;
}

// A closed skeleton counter-clockwise, with its turns, where the mitred
// decomposition applies to it at radius r (mitred_mass_properties).
struct Mitred {
  std::vector<Vec2> v;
  std::vector<double> turn;
};

std::optional<Mitred> mitred(const Shape& shape) {
  if (!shape.is_closed() || shape.vertices.size() < 3) return std::nullopt;
  Mitred m{shape.vertices, {}};
  std::vector<Vec2>& v = m.v;
  if (signed_area(v) < 0.0) std::reverse(v.begin(), v.end());
  m.turn = turns(v);
  const std::size_t n = v.size();
  const double r = shape.radius;
  if (r == 0.0) return m;
  // How far along each edge, from either end, a reflex corner's kite reaches.
  std::vector<double> kite_reach(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (m.turn[i] >= 0.0) continue;
    if (m.turn[i] < -0.5 * kPi) return std::nullopt;  // sharper than a right angle: its edges' strips enter the polygon
    kite_reach[i] = r * std::tan(-0.5 * m.turn[i]);
  }
  for (std::size_t i = 0; i < n; ++i)  // edge i runs from vertex i to vertex i + 1
    if (kite_reach[i] + kite_reach[(i + 1) % n] >= norm(v[(i + 1) % n] - v[i])) return std::nullopt;
  if (first_self_intersection(mitred_outline(v, m.turn, r)).first >= 0) return std::nullopt;
  return m;
}

// Where the outline passes a corner: the mitre's tip at a reflex or
// straight corner, else the start of the corner's arc (`leaving` false) or
// its end (`leaving` true).
Vec2 outline_at(const Mitred& m, std::size_t i, double r, bool leaving) {
  const Corner c = corner_normals(m.v, i);
  if (m.turn[i] <= 0.0) return c.tip(m.v[i], r);
  return m.v[i] + r * (leaving ? c.out : c.in);
}

}  // namespace

std::optional<Region> mitred_swept_region(const Shape& shape) {
  if (shape.radius <= 0.0) return std::nullopt;
  const auto m = mitred(shape);
  if (!m) return std::nullopt;
  const std::size_t n = m->v.size();
  const double r = shape.radius;
  Region region;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n;
    region.outer.push_back(BoundaryPiece::segment(outline_at(*m, i, r, true), outline_at(*m, j, r, false)));
    if (m->turn[j] > 0.0)
      region.outer.push_back(
          BoundaryPiece::arc(outline_at(*m, j, r, false), outline_at(*m, j, r, true), m->v[j], r, true));
  }
  return region;
}

std::optional<MassProperties> mitred_mass_properties(const Shape& shape) {
  const auto mitre = mitred(shape);
  if (!mitre) return std::nullopt;
  const std::vector<Vec2>& v = mitre->v;
  const std::vector<double>& turn = mitre->turn;
  const std::size_t n = v.size();
  const double r = shape.radius;
  AreaMoments m = polygon_moments(v);
  if (r == 0.0) return finish(shape, m);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = v[i], b = v[(i + 1) % n];
    const Vec2 edge = b - a;
    const Vec2 outward = Vec2{edge.y, -edge.x} / norm(edge);
    m += polygon_moments(std::array<Vec2, 4>{a, a + r * outward, b + r * outward, b});
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 corner = v[i];
    const Corner c = corner_normals(v, i);
    const Vec2 n_in = c.in, n_out = c.out;
    if (turn[i] > 0.0) {
      Vec2 bisector = n_in + n_out;
      bisector = bisector / norm(bisector);
      m += sector_moments(corner, bisector, turn[i], r);
    } else if (turn[i] < 0.0) {
      // The kite both strips cover: the corner, the two strips' outer
      // corners and where their outer edges cross.
      const Vec2 tip = c.tip(corner, r);
      AreaMoments kite = polygon_moments(std::array<Vec2, 4>{corner, corner + r * n_out, tip, corner + r * n_in});
      if (kite.area < 0.0)
        kite = polygon_moments(std::array<Vec2, 4>{corner, corner + r * n_in, tip, corner + r * n_out});
      m.area -= kite.area, m.first -= kite.first, m.second -= kite.second;
    }
  }
  return finish(shape, m);
}

MassProperties mass_properties(const Shape& shape) {
  if (shape.has_convex_skeleton()) return convex_mass_properties(shape);
  if (const auto p = mitred_mass_properties(shape)) return *p;
  return exact_mass_properties(shape);
}

std::string mass_properties_method(const Shape& shape) {
  if (shape.has_convex_skeleton()) return "analytic";
  if (mitred_mass_properties(shape)) return "analytic, mitred reflex corners";
  if (shape.radius > 0.0 && memo_offset_region(shape).from_curve) return "offset curve + Green";
  return "exact (CGAL offset + Green)";
}

}  // namespace sphero
