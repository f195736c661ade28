// Per-frame granular quantities from what a run wrote (MODEL.md §6): average
// stress of a window (particles whose centre lies in it), p and q, packing
// fraction and void ratio, coordination number, force chains.
#pragma once

#include <optional>
#include <vector>

#include "analysis/chains/force_chains.h"
#include "io/frame_reader.h"

namespace sphero::analysis {

struct Window {
  enum class Kind { bounding_box, rectangle, circle } kind = Kind::bounding_box;
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // rectangle
  Vec2 centre;                            // circle
  double radius = 0.0;
  bool contains(Vec2 p) const;
  double area() const;
};

struct FrameSummary {
  double time = 0.0;
  Stress stress;                 // compression positive
  double pressure = 0.0, deviator = 0.0;
  double packing_fraction = 0.0, void_ratio = 0.0;
  double coordination = 0.0;     // mean contacts per particle in the window
  int particles = 0, rattlers = 0;
  // Fabric F = ⟨n ⊗ n⟩ over the contacts between particles (at least one
  // centre in the window), and its anisotropy a = 2 (F1 − F2): 0 when
  // isotropic, 2 when every normal is parallel.
  double fabric_xx = 0.0, fabric_yy = 0.0, fabric_xy = 0.0, anisotropy = 0.0;
  ChainStatistics chains;
};

// A window of kind bounding_box becomes the box around the particles'
// outlines. `exclude_rattlers` leaves particles with fewer than two
// contacts out of the coordination number (Z counts every contact, walls
// included).
FrameSummary analyze_frame(const FrameData& frame, Window window, bool exclude_rattlers = false);

}  // namespace sphero::analysis
