// Mass properties of a spheropolygon (docs/MODEL.md §1). All per unit density:
// multiply by the areal density σ for mass and moment of inertia.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "geometry/vec2.h"
#include "morphology/region.h"
#include "shapes/shape.h"

namespace sphero {

struct MassProperties {
  double area = 0.0;             // of skeleton ⊕ disk
  Vec2 centroid;                 // centre of mass, in the shape's coordinates
  double polar_moment = 0.0;     // ∫|x − centroid|² dA: inertia per unit density
  double bounding_radius = 0.0;  // R: largest distance from centroid to outline

  double mass(double density) const { return density * area; }
  double inertia(double density) const { return density * polar_moment; }
};

// Picks the analytic decomposition for convex skeletons, the mitred one
// for polygons whose pieces meet only at reflex corners, and the exact
// region otherwise.
MassProperties mass_properties(const Shape& shape);

// Analytic: polygon + one r-thick rectangle outside each edge + one circular
// sector at each vertex (exterior angle). Exact for a point, a segment or a
// convex polygon; throws std::invalid_argument for anything else, where the
// pieces would overlap at reflex corners.
MassProperties convex_mass_properties(const Shape& shape);

// A non-convex polygon whose pieces overlap only at its reflex corners:
// the convex decomposition less, at each reflex corner, the kite where its
// two edges' rectangles overlap (area r² tan(φ/2), φ the turn there). It
// applies where every reflex turn is at most a right angle, the kites fit
// along their edges, and the outer boundary of the pieces (its arcs by
// their tangents) is a simple loop; nothing otherwise. O(n log n): the
// boundary is checked by a sweep.
std::optional<MassProperties> mitred_mass_properties(const Shape& shape);
// Its outline where it applies (r > 0): the edges pushed out by r, meeting
// at the mitres' tips at reflex corners and joined by arcs at convex ones.
std::optional<Region> mitred_swept_region(const Shape& shape);

// The region P ⊕ D(r) integrated by Green's theorem over its segments and
// arcs: from CGAL's exact offset construction, or, for a skeleton of
// hundreds of vertices or more, from its offset curve in floating point
// (morphology/offset_curve.h; CGAL where that cannot decide). Any skeleton.
MassProperties exact_mass_properties(const Shape& shape);

// Which of the above mass_properties() takes for `shape`, in words.
std::string mass_properties_method(const Shape& shape);

// The exact region skeleton ⊕ D(r) as segment-and-arc boundaries (for a
// sharp polygon, r = 0, the polygon itself): built directly for a rounded
// point, segment or convex polygon and for a mitred polygon, from the
// offsets of exact_mass_properties() otherwise (milliseconds a shape: too
// slow for every grain of a large Voronoi packing).
std::vector<Region> swept_region(const Shape& shape);

// R from the skeleton alone: max over vertices of |v − c| + r (the farthest
// point of a segment from any point is one of its ends).
double bounding_radius(const Shape& shape, Vec2 centroid);

}  // namespace sphero
