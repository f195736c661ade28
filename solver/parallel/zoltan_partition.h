// The bodies' owners, by Zoltan's recursive coordinate bisection: cuts
// across the longer extent of the points until every rank has an equal
// share of the weight, so that each rank's subdomain is a compact box.
#pragma once

#include <vector>

#include "geometry/vec2.h"
#include "parallel/ranks.h"

namespace sphero {

// Each rank passes the bodies it holds now (their global ids, centres and
// weights); returns, for each of them, the rank that owns it next. Throws
// std::runtime_error with Zoltan's complaint if it fails.
// method: Zoltan's LB_METHOD, "RCB" or "HSFC" (its Hilbert curve).
std::vector<int> partition_bodies(const Ranks& ranks, const std::vector<unsigned long>& ids,
                                  const std::vector<Vec2>& points, const std::vector<float>& weights,
                                  const char* method);

}  // namespace sphero
