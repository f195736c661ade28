// Regions bounded by straight segments and circular arcs -- what a
// Minkowski sum, erosion or opening of a polygon by a disk looks like --
// and their exact area moments by Green's theorem. Plain data: the CGAL
// types that build these regions never leave minkowski.cpp.
#pragma once

#include <vector>

#include "geometry/vec2.h"

namespace sphero {

// One boundary piece, traversed from `start` to `end`. An arc lies on the
// circle (centre, radius) and turns counter-clockwise when `counterclockwise`.
// Arcs are at most a half circle long.
struct BoundaryPiece {
  Vec2 start;
  Vec2 end;
  bool is_arc = false;
  Vec2 centre;
  double radius = 0.0;
  bool counterclockwise = true;

  static BoundaryPiece segment(Vec2 from, Vec2 to) { return {from, to, false, {}, 0.0, true}; }
  static BoundaryPiece arc(Vec2 from, Vec2 to, Vec2 centre, double radius, bool counterclockwise) {
    return {from, to, true, centre, radius, counterclockwise};
  }
};

// A closed loop of pieces, each starting where the previous one ended.
using BoundaryLoop = std::vector<BoundaryPiece>;

// Outer loop counter-clockwise, holes clockwise.
struct Region {
  BoundaryLoop outer;
  std::vector<BoundaryLoop> holes;
};

// Integrals over a region about the origin of its coordinates:
// area = ∫dA, first = ∫x dA, second = ∫|x|² dA (polar second moment).
struct AreaMoments {
  double area = 0.0;
  Vec2 first;
  double second = 0.0;

  AreaMoments& operator+=(const AreaMoments& o) {
    area += o.area;
    first += o.first;
    second += o.second;
    return *this;
  }
  Vec2 centroid() const { return first / area; }
  // Polar second moment about the centroid (parallel-axis theorem).
  double central_second() const { return second - norm2(first) / area; }
};

// The same loop traversed the other way.
BoundaryLoop reversed(const BoundaryLoop& loop);
// The loop turned by `angle` about the origin, then shifted by `offset`: a
// body-frame outline placed in the world.
BoundaryLoop placed(const BoundaryLoop& loop, double angle, Vec2 offset);
// Makes the outer loop counter-clockwise and the holes clockwise.
void orient(Region& region);

// Signed contribution of one piece to the moments of the region it bounds
// (positive area for counter-clockwise loops).
AreaMoments boundary_integral(const BoundaryPiece& piece);
AreaMoments integrate(const BoundaryLoop& loop);
AreaMoments integrate(const Region& region);
AreaMoments integrate(const std::vector<Region>& regions);

// Signed angle swept by an arc piece: positive counter-clockwise, in
// [-2π, 2π].
double arc_sweep(const BoundaryPiece& arc);

// A polygon through the loop's pieces; arcs are cut into chords so that a
// full circle would get `segments_per_circle` of them (at least one per arc).
std::vector<Vec2> discretise(const BoundaryLoop& loop, int segments_per_circle);

}  // namespace sphero
