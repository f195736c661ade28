// The exact area of a particle inside an analysis window (docs/MODEL.md §6):
// its outline's segments and circular arcs clipped by the window's edges,
// not a polygon through them.
#pragma once

#include <vector>

#include "analysis/window.h"
#include "morphology/region.h"

namespace sphero::analysis {

// The area inside a rectangular or circular window of the region bounded by
// `loops` (outer loops counter-clockwise, holes clockwise, as
// morphology/region.h makes them). Each loop is cut where it crosses the
// window's edge; the parts inside count by Green's theorem, and each part
// outside is replaced by the stretch of the window's edge that turns as far
// around the window's middle as it does, so that a loop enclosing the whole
// window counts the window. A window smaller than a fifth of the arcs'
// radius may be missed by an arc that bends round it; no analysis window
// is.
double area_inside(const std::vector<BoundaryLoop>& loops, const Window& window);

}  // namespace sphero::analysis
