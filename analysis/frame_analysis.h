// Per-frame granular quantities from what a run wrote (docs/MODEL.md §6): average
// stress of a window (particles whose centre lies in it), p and q, the stress
// on every wall face, packing fraction and void ratio (global and local),
// coordination number and its distribution, fabric and the orientation
// distributions of contact normals and forces, force chains.
#pragma once

#include <string>
#include <vector>

#include "analysis/chains/force_chains.h"
#include "analysis/packing/local_packing.h"
#include "analysis/window.h"
#include "io/frame_data.h"

namespace sphero::analysis {

struct AnalysisOptions {
  Window window;                    // bounding_box: the box around the particles' outlines
  bool exclude_rattlers = false;    // particles with < 2 contacts out of the coordination number
  bool exclude_walls = false;       // wall contacts out of the particles' stresses
  bool packing_by_centres = false;  // count whole particles whose centre is in the window, not their exact part
  bool local_packing = false;       // the set-Voronoi tessellation (the costly part)
  double voronoi_spacing = kLocalPackingSpacing;  // its samples' spacing over the mean particle size
  int rose_bins = 18;                             // over [0°, 180°)
  double chain_tolerance_degrees = 45.0;
  ChainLinks chain_links = ChainLinks::ahead_and_behind;
};

// The stress a straight face of a wall (one segment of its skeleton)
// carries: the forces of the vertex contacts nearest to that face, over the
// length of the face the sample covers (its outlines projected on the face).
struct WallFaceStress {
  int wall = 0, face = 0;      // body id, segment index along the skeleton
  Vec2 force;                  // on the face
  double length = 0.0;         // covered length
  double normal_stress = 0.0;  // compression positive
  double shear_stress = 0.0;   // along the face's direction (first to second point)
};

// The grains of one shape whose centre is in the window: how many, their
// area, and the mean of their centres (for segregation: a shape's mean
// height against the others').
struct ShapeGroup {
  std::string shape;
  int grains = 0;
  double area = 0.0;
  Vec2 mean_centre;
};

struct FrameSummary {
  double time = 0.0;
  Stress stress;  // compression positive
  double pressure = 0.0, deviator = 0.0;
  double packing_fraction = 0.0, void_ratio = 0.0;
  // Whether they count each particle's exact part inside the window (the
  // frame holds exact outlines), or whole particles by their centres.
  bool packing_exact = false;
  double width = 0.0, height = 0.0;  // of the box around the outlines (for strains)
  double coordination = 0.0;         // mean contacts per particle in the window
  int particles = 0, rattlers = 0;
  // Fraction of the window's particles with z contacts, z = 0, 1, ...
  std::vector<double> coordination_distribution;
  // Fabric F = ⟨n ⊗ n⟩ over the contacts between particles (at least one
  // centre in the window), and its anisotropy a = 2 (F1 − F2): 0 when
  // isotropic, 2 when every normal is parallel.
  double fabric_xx = 0.0, fabric_yy = 0.0, fabric_xy = 0.0, anisotropy = 0.0;
  // Orientation distributions over the same contacts, per bin of the axis
  // angle θ ∈ [0, π): the probability density of normals E(θ) (∫E dθ = 1,
  // 1/π when isotropic), and the mean normal force of the bin's contacts.
  std::vector<double> normal_density, mean_normal_force;
  std::vector<WallFaceStress> walls;
  // Set-Voronoi local packing fraction (when asked): per particle of the
  // frame, and the mean over the window's particles.
  std::vector<double> local_packing_fraction;
  double mean_local_packing_fraction = 0.0;
  ChainStatistics chains;          // chain_of is per particle of the frame
  std::vector<ShapeGroup> shapes;  // by name, in alphabetical order (none where the frame names no shapes)
};

FrameSummary analyze_frame(const FrameData& frame, const AnalysisOptions& options = {});

// A particle's stress as the run wrote it, less the share of its contacts
// with walls when `exclude_walls`.
Stress particle_stress(const ParticleRecord& particle, bool exclude_walls);

}  // namespace sphero::analysis
