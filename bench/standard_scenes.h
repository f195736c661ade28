// The standard benchmark scenes (issue: performance): dense, frictional,
// damped packings of one shape in a box, settled under gravity before any
// timing. Shared by `sphero bench` and the Google Benchmark binary, so that
// anyone reruns exactly what docs/PERFORMANCE.md reports.
#pragma once

#include <string>
#include <vector>

#include "engine/engine.h"

namespace sphero::bench {

struct SceneKind {
  std::string name;  // disks, hexagons, polygon6 … polygon64, cows
  int vertices = 1;  // skeleton vertices per particle
};

// disks, hexagons (r = 10% of the size), regular polygons of 6, 16, 32 and
// 64 vertices of the same size, 62-vertex cows.
const std::vector<SceneKind>& standard_scenes();
// Throws std::invalid_argument listing the names for an unknown one.
const SceneKind& scene_named(const std::string& name);

struct SceneOptions {
  int particles = 1000;
  int threads = 1;
  double verlet_distance = 0.0;  // 0: automatic (from the settling's motion)
  long settle_steps = 0;  // 0: until at rest (grains slower than 1% of sqrt(g size), the skin steady), 100 000 at most
};

// Grains settled at once; larger scenes repeat a settled block.
constexpr int kBlock = 1000;

// N particles of size 1 (outline diameter) dropped from a lattice of
// spacing 1.01, odd rows shifted by half of it, onto a floor, periodic in x (a strip as wide as the
// lattice), and settled under gravity with contacts damped at half of
// critical; then kn = 1e6 × mass, γn = 0.3 of critical (restitution ≈ 0.4),
// kt = kn/2, μ = 0.5, dt = 1/50 of the contact period, g = 9.81. Above
// kBlock grains the scene is ceil(N / kBlock) copies of a settled block of
// ceil(N / copies) grains side by side (so N is rounded up to a multiple of
// the copies), with the block's contacts, forces and skin, so that they
// continue it exactly: a layer about sqrt(kBlock) grains deep whatever N.
// `data_dir` holds shapes/cow.shape.
Engine settled_scene(const SceneKind& kind, const SceneOptions& options, const std::string& data_dir);

// The largest speed of a surface point (|v| + R |ω|) over the grains, over
// sqrt(g · size): how far from rest a settled scene is.
double residual_speed(const Engine& engine);

}  // namespace sphero::bench
