#include "analysis/packing/local_packing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "geometry/polygon.h"
#include "packing/voronoi.h"

namespace sphero::analysis {
namespace {

struct Samples {
  std::vector<Vec2> points;
  std::vector<std::size_t> owner;
};

double perimeter(const std::vector<Vec2>& outline) {
  double length = 0.0;
  for (std::size_t k = 0; k < outline.size(); ++k) length += norm(outline[(k + 1) % outline.size()] - outline[k]);
  return length;
}

// Points along every outline, `spacing` apart along its perimeter (the
// outline's own corners are not forced in: arcs cut into short chords would
// otherwise set the count), each moved `inset` into its particle along its
// edge's inward normal.
Samples sample_outlines(const std::vector<std::vector<Vec2>>& outlines, double spacing, double inset) {
  Samples s;
  for (std::size_t i = 0; i < outlines.size(); ++i) {
    const auto& o = outlines[i];
    const double inward = signed_area(o) >= 0.0 ? 1.0 : -1.0;  // left of a counter-clockwise edge
    const double length = perimeter(o);
    if (!(length > 0.0)) continue;
    const int count = std::max(3, static_cast<int>(std::ceil(length / spacing)));
    const double step = length / count;
    double walked = 0.0;  // the perimeter up to the edge's start
    int j = 0;            // the next sample, at j·step
    for (std::size_t k = 0; k < o.size(); ++k) {
      const Vec2 a = o[k], b = o[(k + 1) % o.size()];
      const double edge = norm(b - a);
      if (!(edge > 0.0)) continue;
      const Vec2 t = (b - a) / edge;
      const Vec2 shift = inward * inset * Vec2{-t.y, t.x};
      for (; j < count && j * step < walked + edge; ++j) {
        s.points.push_back(a + (j * step - walked) * t + shift);
        s.owner.push_back(i);
      }
      walked += edge;
    }
  }
  return s;
}

}  // namespace

LocalPacking local_packing_fractions(const std::vector<std::vector<Vec2>>& outlines, const std::vector<double>& area,
                                     double spacing, double half_width) {
  if (outlines.size() != area.size()) throw std::invalid_argument("local packing: one area per outline");
  LocalPacking out;
  out.cell_area.assign(outlines.size(), 0.0);
  out.packing_fraction.assign(outlines.size(), 0.0);
  if (outlines.empty()) return out;
  out.low = {INFINITY, INFINITY};
  out.high = {-INFINITY, -INFINITY};
  double sizes = 0.0, thinnest = INFINITY;
  for (std::size_t i = 0; i < outlines.size(); ++i) {
    for (Vec2 p : outlines[i]) {
      out.low = {std::min(out.low.x, p.x), std::min(out.low.y, p.y)};
      out.high = {std::max(out.high.x, p.x), std::max(out.high.y, p.y)};
    }
    sizes += std::sqrt(area[i]);
    if (const double l = perimeter(outlines[i]); l > 0.0) thinnest = std::min(thinnest, area[i] / l);
  }
  if (spacing <= 0.0) spacing = kLocalPackingSpacing * sizes / static_cast<double>(outlines.size());
  // Touching outlines share a boundary; samples of both on it would
  // interleave, and the cells between them would cut across the boundary
  // into both particles. Moved inwards by the same distance, each
  // particle's samples stay on its side, and the bisector between two
  // particles' samples is unchanged where their surfaces are convex.
  // Half the thinnest part keeps every inset sample inside its own particle
  // (area over perimeter is half a disk's radius, about a thin rod's
  // half-width).
  if (!(half_width > 0.0)) half_width = std::isfinite(thinnest) ? thinnest : 0.0;
  const double inset = std::min(0.5 * spacing, 0.5 * half_width);
  Samples samples = sample_outlines(outlines, spacing, inset);
  for (Vec2& p : samples.points)  // a particle thinner than its radius says must not throw a sample out
    p = {std::clamp(p.x, out.low.x, out.high.x), std::clamp(p.y, out.low.y, out.high.y)};
  const std::vector<double> cells = voronoi_cell_areas(samples.points, {out.low, out.high});
  for (std::size_t s = 0; s < cells.size(); ++s) out.cell_area[samples.owner[s]] += cells[s];
  for (std::size_t i = 0; i < outlines.size(); ++i)
    out.packing_fraction[i] = out.cell_area[i] > 0.0 ? area[i] / out.cell_area[i] : 0.0;
  return out;
}

}  // namespace sphero::analysis
