// `sphero bench --scene rigid`: the rigid model's heap (docs/VALIDATION.md,
// "The heap"): N hexagons at rest at random places in a square drawn
// together by a central field, timed from the start over the collapse.
// Its records differ from the soft scenes': time per step and per contact,
// the interior-point iterations, and the shares of detection, the
// collision programs and the position corrections.
#pragma once

#include <string>
#include <vector>

namespace sphero::app {

struct RigidBenchOptions {
  std::vector<int> sizes;
  long steps = 0;  // 0: the whole collapse (kHeapSteps)
  bool csv = false;
  std::string data;  // the data directory (shapes/hexagon.shape)
};

// The heap's scene text for N hexagons: the square's side grows as √N and
// the field with it, so that every N collapses in the same simulated time.
std::string heap_scene_text(int grains, const std::string& shape_file);

// One record per size, JSON lines or CSV.
void run_rigid_bench(const RigidBenchOptions& options);

}  // namespace sphero::app
