// How a long computation (random placement of 10^6 grains, a Voronoi-
// Minkowski packing) says how far it is, so that a command line can show a
// progress line instead of seeming to hang.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace sphero {

// Called now and then with the stage under way and `done` of `total` items;
// an empty Progress reports nothing.
using Progress = std::function<void(std::string_view stage, std::size_t done, std::size_t total)>;

// Calls `progress` every `every` items and at the last one.
inline void report(const Progress& progress, std::string_view stage, std::size_t done, std::size_t total,
                   std::size_t every = 4096) {
  if (progress && (done % every == 0 || done == total)) progress(stage, done, total);
}

}  // namespace sphero
