// What a frame costs (`sphero bench --frames`): for a case's state, each
// field's file and the light set written as `sphero run` writes them, in
// bytes per grain and seconds per frame on the thread that writes them.
#pragma once

#include <string>
#include <vector>

#include "engine/engine.h"

namespace sphero::app {

struct FrameCost {
  std::string fields;                // one field, or several joined by '+'
  std::string precision = "double";  // of the files' numbers (io/single_precision.h)
  double bytes_per_grain = 0.0;
  double write_seconds = 0.0;  // per frame, the fastest of the repeats
};

// Writes `repeats` frames of each field of io/frame_grids.h's kFrameFields
// alone and of the light set (state, contacts, walls), in double precision
// and in single, into a temporary folder, removed after; `engine` takes a
// few steps before each frame, as in a run.
std::vector<FrameCost> frame_costs(Engine& engine, int arc_resolution, int repeats);

}  // namespace sphero::app
