// Minkowski operators of mathematical morphology on 2D skeletons, by a disk
// of radius r (docs/MODEL.md section 1):
//   dilation  A ⊕ D(r)              -- the swept region of a spheropolygon,
//   erosion   A ⊖ D(r)              -- where the disk's centre fits inside A,
//   opening   (A ⊖ D(r)) ⊕ D(r)     -- A with its convex corners rounded.
// Inputs are plain vertex lists; results are exact segment-and-arc regions.
// Built on CGAL's Minkowski-sum package, the only place that sees CGAL.
#pragma once

#include <span>
#include <vector>

#include "geometry/vec2.h"
#include "morphology/region.h"

namespace sphero {

// Closed simple polygon (either orientation) ⊕ D(r), r > 0. The result is one
// region; it has holes when the sweeps close around a pocket of the polygon.
std::vector<Region> dilate_polygon(std::span<const Vec2> loop, double r);

// Open path (one point, a segment or a polyline) ⊕ D(r), r > 0: the union of
// the stadiums of its segments (a disk for a single point).
std::vector<Region> dilate_path(std::span<const Vec2> path, double r);

// Closed simple polygon ⊖ D(r), exact: arcs of radius r appear around
// reflex corners. Empty when the disk fits nowhere; several regions when
// the polygon has narrow necks.
std::vector<Region> erode_polygon(std::span<const Vec2> loop, double r);

// Closed simple polygon ⊖ D(r) as straight-edged polygons (counter-
// clockwise), from the straight skeleton. Equal to the exact erosion for
// convex polygons; at reflex corners it mitres where the exact erosion has
// an arc, so it is slightly smaller there. This is what a spheropolygon
// skeleton needs, since skeletons have straight edges.
std::vector<std::vector<Vec2>> erode_polygon_mitred(std::span<const Vec2> loop, double r);

// Closed simple polygon opened by D(r): the union of all disks of radius r
// inside it. Convex corners become arcs of radius r; reflex corners stay.
// Computed as (mitred erosion) ⊕ D(r), which keeps the result exact and
// CGAL-representable. It equals the true opening wherever each reflex
// corner keeps both of its offset edges in the erosion (isolated reflex
// corners, as in an L or a U); where the polygon's neck beside a reflex
// corner is narrower than 2r, it leaves out the thin slivers that disks
// centred on the exact erosion's reflex arcs would add.
std::vector<Region> open_polygon(std::span<const Vec2> loop, double r);

}  // namespace sphero
