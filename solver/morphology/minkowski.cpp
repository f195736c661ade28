// Exact offsets use Exact_predicates_exact_constructions_kernel with the
// circle-segment traits of CGAL's Boolean set operations:
// approximated_offset_2 / approximated_inset_2 return boundaries of exact
// circular arcs and segments whose end points are rational approximations
// within kOffsetTolerance of the true ones. The straight skeleton uses the
// inexact-constructions kernel, as CGAL recommends for it.
#include "morphology/minkowski.h"

// GCC 12 sees a false "may be used uninitialized" deep inside CGAL's
// polygon simplicity test; the warning is not about our code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <CGAL/Boolean_set_operations_2.h>
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/General_polygon_set_2.h>
#include <CGAL/Gps_circle_segment_traits_2.h>
#include <CGAL/Polygon_2.h>
#include <CGAL/approximated_offset_2.h>
#include <CGAL/create_offset_polygons_2.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <numbers>
#include <stdexcept>

namespace sphero {
namespace {

using ExactKernel = CGAL::Exact_predicates_exact_constructions_kernel;
using ExactPolygon = CGAL::Polygon_2<ExactKernel>;
using ArcTraits = CGAL::Gps_circle_segment_traits_2<ExactKernel>;
using ArcPolygon = ArcTraits::Polygon_2;
using ArcPolygonWithHoles = ArcTraits::Polygon_with_holes_2;
using ArcPolygonSet = CGAL::General_polygon_set_2<ArcTraits>;
using SkeletonKernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using SkeletonPolygon = CGAL::Polygon_2<SkeletonKernel>;

// Relative to the size of the input: small enough that areas agree with the
// closed forms to ~1e-12, large enough that CGAL's rational approximations
// stay cheap.
constexpr double kRelativeTolerance = 1e-11;

double extent(std::span<const Vec2> points, double r) {
  double size = r;
  for (Vec2 p : points) size = std::max({size, std::abs(p.x), std::abs(p.y)});
  return size;
}

// CGAL's approximated offsets cast an edge's length over √ε to int without
// a check (Approx_offset_base_2): beyond coordinates of about 10⁶ that
// overflows, undefined behaviour (found by fuzzing). They run at unit scale
// instead: a power of two, so that scaling there and back is exact.
double unit_scale(std::span<const Vec2> points, double r) { return std::exp2(std::ceil(std::log2(extent(points, r)))); }

std::vector<Vec2> scaled(std::span<const Vec2> points, double factor) {
  std::vector<Vec2> out;
  out.reserve(points.size());
  for (Vec2 p : points) out.push_back(p * factor);
  return out;
}

void scale(BoundaryLoop& loop, double factor) {
  for (BoundaryPiece& piece : loop) {
    piece.start = piece.start * factor;
    piece.end = piece.end * factor;
    piece.centre = piece.centre * factor;
    piece.radius *= factor;
  }
}

std::vector<Region> scaled(std::vector<Region> regions, double factor) {
  for (Region& region : regions) {
    scale(region.outer, factor);
    for (BoundaryLoop& hole : region.holes) scale(hole, factor);
  }
  return regions;
}

ExactPolygon to_exact(std::span<const Vec2> points) {
  ExactPolygon polygon;
  for (Vec2 p : points) polygon.push_back(ExactKernel::Point_2(p.x, p.y));
  return polygon;
}

Vec2 to_vec(const ArcTraits::Point_2& p) { return {CGAL::to_double(p.x()), CGAL::to_double(p.y())}; }

BoundaryLoop to_loop(const ArcPolygon& polygon) {
  BoundaryLoop loop;
  for (auto curve = polygon.curves_begin(); curve != polygon.curves_end(); ++curve) {
    BoundaryPiece piece;
    piece.start = to_vec(curve->source());
    piece.end = to_vec(curve->target());
    if (!curve->is_linear()) {
      const auto& circle = curve->supporting_circle();
      piece.is_arc = true;
      piece.centre = {CGAL::to_double(circle.center().x()), CGAL::to_double(circle.center().y())};
      piece.radius = std::sqrt(CGAL::to_double(circle.squared_radius()));
      piece.counterclockwise = curve->orientation() == CGAL::COUNTERCLOCKWISE;
    }
    loop.push_back(piece);
  }
  return loop;
}

Region to_region(const ArcPolygonWithHoles& polygon) {
  Region region;
  region.outer = to_loop(polygon.outer_boundary());
  for (auto hole = polygon.holes_begin(); hole != polygon.holes_end(); ++hole) region.holes.push_back(to_loop(*hole));
  orient(region);
  return region;
}

std::vector<Region> to_regions(const ArcPolygonSet& set) {
  std::vector<ArcPolygonWithHoles> pieces;
  set.polygons_with_holes(std::back_inserter(pieces));
  std::vector<Region> regions;
  for (const auto& piece : pieces) regions.push_back(to_region(piece));
  return regions;
}

void require_positive_radius(double r, const char* operation) {
  if (!(r > 0.0) || !std::isfinite(r))
    throw std::invalid_argument(std::string(operation) + ": the disk radius must be positive and finite");
}

ExactPolygon simple_ccw_polygon(std::span<const Vec2> loop, const char* operation) {
  ExactPolygon polygon = to_exact(loop);
  if (polygon.size() < 3 || !polygon.is_simple())
    throw std::invalid_argument(std::string(operation) + ": the polygon must be simple with at least 3 vertices");
  if (polygon.orientation() == CGAL::CLOCKWISE) polygon.reverse_orientation();
  return polygon;
}

// A full circle as two half-circle arcs (the traits need x-monotone pieces).
Region disk(Vec2 centre, double r) {
  const Vec2 west = centre - Vec2{r, 0.0}, east = centre + Vec2{r, 0.0};
  Region region;
  region.outer.push_back(BoundaryPiece::arc(west, east, centre, r, true));
  region.outer.push_back(BoundaryPiece::arc(east, west, centre, r, true));
  return region;
}

}  // namespace

std::vector<Region> dilate_polygon(std::span<const Vec2> loop, double r) {
  require_positive_radius(r, "dilation");
  const double unit = unit_scale(loop, r);
  const std::vector<Vec2> small = scaled(loop, 1.0 / unit);
  const ExactPolygon polygon = simple_ccw_polygon(small, "dilation");
  const double tolerance = kRelativeTolerance * extent(small, r / unit);
  return scaled({to_region(CGAL::approximated_offset_2(polygon, r / unit, tolerance))}, unit);
}

std::vector<Region> dilate_path(std::span<const Vec2> path, double r) {
  require_positive_radius(r, "dilation");
  if (path.empty()) throw std::invalid_argument("dilation: the path has no vertices");
  if (path.size() == 1) return {disk(path[0], r)};
  const double unit = unit_scale(path, r);
  const std::vector<Vec2> small = scaled(path, 1.0 / unit);
  const double tolerance = kRelativeTolerance * extent(small, r / unit);
  // A two-vertex "polygon" runs along the segment and back; CGAL's
  // convolution of it with the disk is exactly the segment's stadium.
  ArcPolygonSet swept;
  for (std::size_t i = 0; i + 1 < small.size(); ++i) {
    const std::array<Vec2, 2> segment{small[i], small[i + 1]};
    if (segment[0] == segment[1]) throw std::invalid_argument("dilation: the path repeats a vertex");
    swept.join(CGAL::approximated_offset_2(to_exact(segment), r / unit, tolerance));
  }
  return scaled(to_regions(swept), unit);
}

std::vector<Region> erode_polygon(std::span<const Vec2> loop, double r) {
  require_positive_radius(r, "erosion");
  const double unit = unit_scale(loop, r);
  const std::vector<Vec2> small = scaled(loop, 1.0 / unit);
  const ExactPolygon polygon = simple_ccw_polygon(small, "erosion");
  const double tolerance = kRelativeTolerance * extent(small, r / unit);
  std::vector<ArcPolygon> insets;
  CGAL::approximated_inset_2(polygon, r / unit, tolerance, std::back_inserter(insets));
  std::vector<Region> regions;
  for (const ArcPolygon& inset : insets) {
    Region region{to_loop(inset), {}};
    orient(region);
    regions.push_back(std::move(region));
  }
  return scaled(std::move(regions), unit);
}

std::vector<std::vector<Vec2>> erode_polygon_mitred(std::span<const Vec2> loop, double r) {
  require_positive_radius(r, "erosion");
  SkeletonPolygon polygon;
  for (Vec2 p : loop) polygon.push_back(SkeletonKernel::Point_2(p.x, p.y));
  if (polygon.size() < 3 || !polygon.is_simple())
    throw std::invalid_argument("erosion: the polygon must be simple with at least 3 vertices");
  if (polygon.orientation() == CGAL::CLOCKWISE) polygon.reverse_orientation();
  const auto offsets = CGAL::create_interior_skeleton_and_offset_polygons_2(r, polygon);
  std::vector<std::vector<Vec2>> pieces;
  for (const auto& offset : offsets) {
    std::vector<Vec2> piece;
    for (auto v = offset->vertices_begin(); v != offset->vertices_end(); ++v)
      piece.push_back({CGAL::to_double(v->x()), CGAL::to_double(v->y())});
    if (piece.size() >= 3) pieces.push_back(std::move(piece));
  }
  return pieces;
}

std::vector<Region> open_polygon(std::span<const Vec2> loop, double r) {
  // Disks centred between the exact erosion's reflex arc and the mitred
  // corner are covered by the disks centred on the two offset edges beside
  // it, so the mitred pieces give the same union while those edges exist
  // (see the header for when they do not).
  ArcPolygonSet opened;
  const double tolerance = kRelativeTolerance * extent(loop, r);
  for (const auto& piece : erode_polygon_mitred(loop, r)) {
    ExactPolygon polygon = to_exact(piece);
    if (polygon.orientation() == CGAL::CLOCKWISE) polygon.reverse_orientation();
    opened.join(CGAL::approximated_offset_2(polygon, r, tolerance));
  }
  return to_regions(opened);
}

}  // namespace sphero
