// Scenes for comparing the neighbour strategies (docs/PERFORMANCE.md,
// "Neighbour strategy"): disks or rounded hexagons of one size
// or of sizes spread over 1:10 or 1:30, packed densely or flying about as a
// gas, in a closed box without gravity. Where sizes spread, a grid sized
// for the largest grain holds many small ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace sphero::bench {

struct NeighbourSceneKind {
  std::string name;   // disks-dense1 … hexagons-gas30
  bool hexagons;      // rounded hexagons (r = 10% of the size), else disks
  double size_ratio;  // largest to smallest outline diameter
  bool gas;           // 8% of the box covered, moving fast; else 45%, creeping
};

const std::vector<NeighbourSceneKind>& neighbour_scenes();
// Null when `name` is none of them.
const NeighbourSceneKind* neighbour_scene_named(const std::string& name);

// N grains of outline diameters in seven classes from 1 to the size ratio,
// evenly spaced in log, each class covering the same area (so the small
// ones are many), placed at random without overlap of their bounding
// circles from the largest down in a square box, at random angles, with
// random velocities (1 diameter of the smallest per second in the gas, a
// tenth of it packed), listed along a Hilbert curve. Linear contacts, lightly damped; dt 1/50 of the
// smallest grains' contact period.
Engine neighbour_scene(const NeighbourSceneKind& kind, int particles, int threads, std::uint64_t seed = 1);

}  // namespace sphero::bench
