// The one way Sphero draws a uniform number in [0, 1) from its generator:
// the top 53 bits of a 64-bit draw, so that a seed gives the same numbers
// on every platform (std::uniform_real_distribution does not promise that).
#pragma once

#include <random>

namespace sphero {

inline double unit_uniform(std::mt19937_64& generator) { return static_cast<double>(generator() >> 11) * 0x1.0p-53; }

}  // namespace sphero
