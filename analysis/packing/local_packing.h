// Local packing fraction per particle from a tessellation of the plane
// around the particles (docs/MODEL.md §6).
//
// The tessellation is the set-Voronoi (navigation-map) one: the cell of a
// particle holds the points closer to its surface than to any other
// particle's. For spheropolygons of unequal size and non-convex shape that is
// the only choice that gives each particle the space it actually bounds:
// a Voronoi diagram of centres gives an elongated or concave particle's void
// to its neighbours, and a power diagram (or a Voronoi diagram of skeleton
// segments) is exact only for disks (or equal radii). It is computed the way
// Schaller et al. (Phil. Mag. 93, 3993, 2013) do: sample each rounded
// outline densely, take the Voronoi diagram of all samples (CGAL's Delaunay
// triangulation underneath), and merge the cells of each particle's samples.
// The merged cell converges to the set-Voronoi cell as the spacing of the
// samples goes to zero.
#pragma once

#include <vector>

#include "geometry/vec2.h"

namespace sphero::analysis {

struct LocalPacking {
  std::vector<double> cell_area;         // per particle, the area of its cell
  std::vector<double> packing_fraction;  // per particle, its area over its cell's
  Vec2 low, high;                        // the rectangle the cells tile
};

// The default distance between samples, as a fraction of the mean particle
// size √A (docs/ANALYSIS.md gives its accuracy).
inline constexpr double kLocalPackingSpacing = 0.15;

// `outlines`: each particle's closed outline (as the run writes it), `area`:
// its exact area. Cells are clipped to the bounding box of the outlines,
// so particles at the sample's edge get the void out to that box. Edges of
// the outlines are subdivided so that no two samples are further apart than
// `spacing` (0: kLocalPackingSpacing times the mean particle size).
// `half_width`: a lower bound on every particle's half-width, such as the
// smallest sphero-radius (0: estimated from the outlines).
LocalPacking local_packing_fractions(const std::vector<std::vector<Vec2>>& outlines, const std::vector<double>& area,
                                     double spacing = 0.0, double half_width = 0.0);

}  // namespace sphero::analysis
