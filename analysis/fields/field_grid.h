// The regular grid coarse-grained fields live on, and the kernel's weights
// at its nodes. Each kernel is normalised on the grid's own lattice (the
// grid's nodes extended beyond its edges, or wrapped across a periodic
// axis), so that Σ weight × cell area is exactly 1 for every source: the
// grid's sums are the fields' integrals, to round-off.
#pragma once

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "analysis/fields/coarse_graining_kernel.h"
#include "geometry/vec2.h"

namespace sphero::analysis {

struct FieldGrid {
  Vec2 origin;  // node (0, 0)
  double hx = 1.0, hy = 1.0;
  int nx = 0, ny = 0;
  // A periodic axis wraps: node n along it is node 0 one period (n × h) on.
  std::array<bool, 2> periodic{false, false};
  // A periodic axis's period where the grid covers only part of it (a
  // window): sources count at their images one period either way too.
  Vec2 image_period{};

  std::size_t nodes() const { return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny); }
  std::size_t index(int i, int j) const { return static_cast<std::size_t>(j) * static_cast<std::size_t>(nx) + i; }
  Vec2 node(int i, int j) const { return {origin.x + i * hx, origin.y + j * hy}; }
  double cell_area() const { return hx * hy; }
};

// The normalised weights a source at a point gives the grid's nodes.
class KernelStencil {
 public:
  KernelStencil(const FieldGrid& grid, const CoarseGrainingKernel& kernel) : grid_(grid), kernel_(kernel) {}
  // (node, weight) pairs, valid until the next call; weights have units of
  // one over area. Empty where the kernel reaches no node of the grid.
  const std::vector<std::pair<std::size_t, double>>& at(Vec2 source);
  // The same along the straight line from `a` to `b`: the mean of the
  // point kernel over the line (midpoints of pieces at most a quarter of
  // the width or half a cell long, 4096 at most), as the coarse-grained
  // contact stress spreads a force along the line between the two bodies'
  // centres.
  const std::vector<std::pair<std::size_t, double>>& along(Vec2 a, Vec2 b);

 private:
  void add_image(Vec2 source);
  const FieldGrid& grid_;
  CoarseGrainingKernel kernel_;
  std::vector<std::pair<std::size_t, double>> weights_, line_;
  std::vector<double> line_sum_;  // per node, while a line is gathered
  std::vector<double> column_factor_;
};

}  // namespace sphero::analysis
