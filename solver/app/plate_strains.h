// The strains of a biaxial sample from its plates: the walls named left,
// right, bottom and top (as `sphero pack compress` names them), their
// positions in energy.csv, their sphero-radii from the run's first state
// frame, so that the spans run between the plates' inner faces. Compression
// positive: axial ε_a = 1 − H/H₀, lateral 1 − W/W₀, volumetric
// ε_v = 1 − WH/(W₀H₀).
#pragma once

#include <string>
#include <vector>

#include "app/analysis_options.h"

namespace sphero::app {

struct PlateStrains {
  bool found = false;                                    // false: the run has no four plates so named
  std::string note;                                      // how the spans were measured, for a caption
  std::vector<double> time, axial, lateral, volumetric;  // per frame of the range
};

// Throws std::runtime_error naming energy.csv when its rows do not match
// the run's frames.
PlateStrains plate_strains(const std::string& run, FrameRange frames);

// A shear cell's strains from its plates named bottom and top: the shear
// strain γ = (Δx_top − Δx_bottom)/H₀, the plates' relative displacement
// over the first frame's height, and the dilatancy (H − H₀)/H₀, dilation
// positive. H runs between the plates' centroids (energy.csv's positions)
// less their sphero-radii: between their inner faces where they are flat,
// between the middles of their teeth where they are rough.
struct ShearStrains {
  bool found = false;  // false: the run has no plates named bottom and top
  std::string note;
  std::vector<double> time, shear, dilatancy;  // per frame of the range
};
ShearStrains shear_strains(const std::string& run, FrameRange frames);

}  // namespace sphero::app
