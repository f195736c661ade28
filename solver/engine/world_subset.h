// A part of a world: the bodies of one rank's subdomain with their
// neighbours (solver/parallel), as a world of its own whose bodies keep
// their relative order, so that every sum the engine adds in body or
// candidate order runs over them in the whole world's order.
#pragma once

#include <vector>

#include "engine/world.h"

namespace sphero {

// The bodies listed (increasing indices of `whole`) as a world of their
// own: body k of the result is body bodies[k] of `whole`. Materials, laws,
// fields and the cell are shared; span_bodies are renumbered (−1 where the
// body named is not kept).
World world_subset(const World& whole, const std::vector<int>& bodies);

// Per-body values of the bodies listed, in that order.
template <class T>
std::vector<T> values_of(const std::vector<T>& per_body, const std::vector<int>& bodies) {
  std::vector<T> out;
  out.reserve(bodies.size());
  for (int b : bodies) out.push_back(per_body[static_cast<std::size_t>(b)]);
  return out;
}

}  // namespace sphero
