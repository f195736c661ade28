// Coarse-grained continuum fields of a frame (Goldhirsch 2010; Weinhart,
// Thornton, Luding & Bokhove 2012), on a regular grid: density, momentum
// and velocity, kinetic and contact stress, fabric, coordination and
// granular temperature. Contact stress spreads each touching pair's force
// along the line between the two centres of mass (all of a pair's vertex
// contacts share that line), and each contact with a wall along the line
// from the grain's centre to the contact point (Weinhart et al.'s boundary
// term), so that ∫σ dA is the Love–Weber sum Σ ℓ ⊗ f of every particle.
// Stress is compression positive, as `sphero analyze` reports it.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "analysis/fields/coarse_graining_kernel.h"
#include "analysis/fields/field_grid.h"
#include "io/frame_data.h"
#include "io/image_data.h"

namespace sphero::analysis {

// A grid larger than this is refused: each node holds about 40 numbers a frame.
inline constexpr std::size_t kMaxFieldNodes = 4'000'000;

struct CoarseGrainingOptions {
  CoarseGrainingKernel kernel;
  double cell = 0.0;  // the grid's spacing, at most the kernel's width
  // x0, y0, x1, y1; all zero: the box around the particles' outlines, grown
  // by the kernel's cutoff so that no particle's kernel is cut.
  std::array<double, 4> window{};
  // The run's periodic cell: a periodic axis's grid spans its period, and
  // kernels and contact lines wrap across it.
  std::array<bool, 2> periodic{false, false};
  Vec2 cell_low, cell_size;

  bool has_window() const { return window[2] > window[0] || window[3] > window[1]; }
};

// The grid of a series of frames, from the first: on a periodic axis the
// spacing is rounded down so that whole cells fill the period. Throws
// std::invalid_argument naming what is wrong: a width or cell that is not
// positive and finite, a cell wider than the width (the kernel would fall
// between the nodes) or finer than a 500th of the kernel's reach (each grain
// would touch a million nodes), a window that misses every particle, a
// window on a periodic axis wider than its period, a grid of more than
// kMaxFieldNodes nodes.
FieldGrid field_grid(const FrameData& frame, const CoarseGrainingOptions& options);

// What every field is made of: per node, sums over the frame's particles
// and contacts, each weighted by its normalised kernel. Additive: a mean
// over frames is the mean of these.
namespace sums {
enum : std::size_t {
  number,  // Σ φ (1/m²)
  mass,    // ρ = Σ m φ (kg/m², per unit thickness)
  momentum_x,
  momentum_y,
  mvv_xx,  // Σ m v ⊗ v φ
  mvv_xy,
  mvv_yy,
  contact_xx,  // contact stress, Σ −ℓ ⊗ f along the lines; σ_ab = −ℓ_a f_b
  contact_xy,
  contact_yx,
  contact_yy,
  contacts,   // Σ z φ: particle–particle contacts, counted at both particles
  fabric_xx,  // Σ (Σ_c n ⊗ n) φ over each particle's contacts with particles
  fabric_xy,
  fabric_yy,
  count
};
}  // namespace sums

struct CoarseGrainedSums {
  FieldGrid grid;
  double time = 0.0;
  std::vector<std::array<double, sums::count>> nodes;  // row-major, grid.index(i, j)
};

// Throws std::runtime_error when the frame holds no masses (a run that
// wrote no state frames), or a value that is not finite.
CoarseGrainedSums coarse_grain(const FrameData& frame, const FieldGrid& grid, const CoarseGrainingKernel& kernel);

// Adds `weight` × a frame's sums (and time) to `total`, which an empty
// total takes the frame's grid for: a running mean without the frames kept.
// Throws std::invalid_argument for a frame on another grid.
void accumulate(CoarseGrainedSums& total, const CoarseGrainedSums& frame, double weight);
// The weighted mean of several frames' sums on one grid (the weights need
// not add to 1), for a time average; its time is the weighted mean time.
CoarseGrainedSums weighted_mean(const std::vector<CoarseGrainedSums>& frames, const std::vector<double>& weights);

// One field on the grid's nodes, node-major: vectors have 3 components (z
// = 0, as ParaView expects) and tensors 4 (xx, xy, yx, yy).
using FieldArray = ImageArray;

// The fields a user reads, in this order: density, number_density,
// momentum, velocity, kinetic_stress (Σ m v′ ⊗ v′ φ with v′ = v − V(r)),
// contact_stress, stress (their sum), pressure, deviator_stress,
// major_stress_direction, coordination_density, coordination (z per
// particle), fabric (⟨n ⊗ n⟩ over the contacts), granular_temperature
// (tr σ_kinetic / 2ρ, m²/s²). Where no mass reaches a node, its ratios
// (velocity, coordination, fabric, temperature) are 0.
std::vector<FieldArray> continuum_fields(const CoarseGrainedSums& sums);
// The same as an image on the grid's nodes, for the .vti writer and ParaView.
ImageData2D field_image(const CoarseGrainedSums& sums);

}  // namespace sphero::analysis
