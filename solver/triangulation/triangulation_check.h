// The properties a valid void-space triangulation has, checked from
// scratch: what the tests hold a long run of flips to.
#pragma once

#include <string>

#include "triangulation/void_triangulation.h"

namespace sphero {

// The first broken property in words, or empty when all hold: neighbours
// that point at each other across the same edge, every triangle strictly
// counter-clockwise (exactly), the constrained edges exactly the skeleton
// edges, Euler's formula V − E + F = 1 for a triangulated frame, the
// triangles' areas summing to the frame's, and the triangles marked inside
// a skeleton summing to that skeleton's area.
std::string triangulation_problem(const VoidTriangulation& triangulation);

// The area of the triangles outside every closed skeleton.
double void_area(const VoidTriangulation& triangulation);

}  // namespace sphero
