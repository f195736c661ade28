// The order grains are listed in. The engine works through bodies and
// their candidates in index order and gives each thread a contiguous range
// of them: grains listed along a space-filling curve keep neighbours' data
// near in memory and make the threads' ranges compact regions, whose
// borders are all the threads share. Listed at random (a Voronoi
// tessellation of random sites, a random gas, a packing from elsewhere),
// neighbours' data lies far apart in memory and every thread's range
// touches every other's (docs/PERFORMANCE.md, "Spatial order").
#pragma once

#include <cstddef>
#include <vector>

#include "engine/world.h"
#include "geometry/hilbert_order.h"
#include "geometry/vec2.h"

namespace sphero {

// The grains of `bodies` (those not walls) re-listed along the Hilbert curve
// through their positions; a wall keeps its place in the list, so that
// what names it by its body number still does.
void list_grains_along_curve(std::vector<BodySpec>& bodies);

// How far apart consecutive grains lie, in grain sizes: the median of
// |centre[i+1] − centre[i]| over the median of `sizes`. About 1 for grains
// listed along a curve or row by row, about √N / 2 for N grains listed at
// random. 0 for fewer than two grains.
double median_listing_step(const std::vector<Vec2>& centres, std::vector<double> sizes);

// Above this median step, `sphero run` suggests `sphero pack sort`.
constexpr double kDisorderedListing = 8.0;

}  // namespace sphero
