// Compression protocols that turn a loose sample into a dense one with the
// engine: isotropic compression by four pressure plates to a target
// pressure (friction optionally off while compressing, then on), and
// deposition under gravity into a box. Each runs until the sample is static
// by the unbalanced-force criterion.
#pragma once

#include <vector>

#include "engine/engine.h"
#include "packing/progress.h"
#include "packing/voronoi.h"

namespace sphero {

struct StaticCriterion {
  // Static when the mean net force on the grains is below this fraction of
  // the mean contact force...
  double unbalanced_force_ratio = 1e-3;
  // ...and, with plates, every plate's pressure is within this relative
  // tolerance of the target.
  double pressure_tolerance = 0.01;
  long check_every = 200;  // steps between checks
  long max_steps = 2'000'000;
};

struct CompressionOptions {
  std::vector<BodySpec> grains;
  ContactLaw law;                  // grain–grain and grain–plate; damping is needed to come to rest
  double pressure = 0.0;           // target, N/m (2D)
  bool frictionless_first = true;  // compress without friction, then switch it on and relax
  double dt = 0.0;                 // 0: a fiftieth of the contact period
  StaticCriterion until;
  Progress progress;  // how far it is, for a progress line
};

struct CompactionResult {
  std::vector<BodySpec> bodies;   // grains (and plates or walls) in their final state
  double packing_fraction = 0.0;  // grain area over the area they fill
  // Left, right, bottom, top plate: its contact force over the span of the
  // sample it presses on (compression only).
  double pressure[4] = {0, 0, 0, 0};
  double unbalanced_force_ratio = 0.0;
  long steps = 0;
  bool static_reached = false;
};

// Throws std::invalid_argument on bad options; a sample that does not come
// to rest within max_steps is reported (static_reached = false), not thrown.
CompactionResult compress_isotropically(const CompressionOptions& options);

struct DepositionOptions {
  std::vector<BodySpec> grains;
  ContactLaw law;
  double gravity = 9.81;
  double dt = 0.0;
  StaticCriterion until;
  Progress progress;
};
// Walls: a floor under the grains and two sides at their extent.
CompactionResult deposit_under_gravity(const DepositionOptions& options);

}  // namespace sphero
