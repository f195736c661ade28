#include "analysis/packing/local_packing.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "geometry/polygon.h"
#include "packing/voronoi.h"

namespace sphero::analysis {

LocalPacking local_packing_fractions(const std::vector<std::vector<Vec2>>& outlines, const std::vector<double>& area,
                                     double spacing) {
  if (outlines.size() != area.size()) throw std::invalid_argument("local packing: one area per outline");
  LocalPacking out;
  out.cell_area.assign(outlines.size(), 0.0);
  out.packing_fraction.assign(outlines.size(), 0.0);
  if (outlines.empty()) return out;
  out.low = {INFINITY, INFINITY};
  out.high = {-INFINITY, -INFINITY};
  double sizes = 0.0;
  for (std::size_t i = 0; i < outlines.size(); ++i) {
    for (Vec2 p : outlines[i]) {
      out.low = {std::min(out.low.x, p.x), std::min(out.low.y, p.y)};
      out.high = {std::max(out.high.x, p.x), std::max(out.high.y, p.y)};
    }
    sizes += std::sqrt(area[i]);
  }
  if (spacing <= 0.0) spacing = sizes / static_cast<double>(outlines.size()) / 20.0;
  // Samples along every outline. Touching outlines can give two samples a
  // round-off apart, whose bisector has no meaningful direction. Such a
  // point belongs to both surfaces: it is dropped altogether, so that its
  // neighbours on both sides share its cell evenly.
  const double merge = 1e-7 * spacing;
  std::vector<Vec2> sites;
  std::vector<std::size_t> owner;
  std::map<std::pair<long long, long long>, std::vector<std::size_t>> grid;
  std::vector<bool> shared;
  auto near_an_earlier = [&](Vec2 p) {
    const auto gx = static_cast<long long>(std::floor(p.x / merge)), gy = static_cast<long long>(std::floor(p.y / merge));
    for (long long dx = -1; dx <= 1; ++dx)
      for (long long dy = -1; dy <= 1; ++dy) {
        const auto it = grid.find({gx + dx, gy + dy});
        if (it == grid.end()) continue;
        for (std::size_t s : it->second)
          if (norm(sites[s] - p) <= merge) {
            shared[s] = true;
            return true;
          }
      }
    grid[{gx, gy}].push_back(sites.size());
    return false;
  };
  for (std::size_t i = 0; i < outlines.size(); ++i) {
    const auto& o = outlines[i];
    for (std::size_t k = 0; k < o.size(); ++k) {
      const Vec2 a = o[k], b = o[(k + 1) % o.size()];
      const int pieces = std::max(1, static_cast<int>(std::ceil(norm(b - a) / spacing)));
      for (int s = 0; s < pieces; ++s) {
        const Vec2 p = a + (static_cast<double>(s) / pieces) * (b - a);
        if (near_an_earlier(p)) continue;
        sites.push_back(p);
        owner.push_back(i);
        shared.push_back(false);
      }
    }
  }
  std::size_t kept = 0;
  for (std::size_t s = 0; s < sites.size(); ++s)
    if (!shared[s]) sites[kept] = sites[s], owner[kept++] = owner[s];
  sites.resize(kept);
  owner.resize(kept);
  const auto cells = voronoi_cells(sites, {out.low, out.high});
  for (std::size_t s = 0; s < sites.size(); ++s) out.cell_area[owner[s]] += std::abs(signed_area(cells[s]));
  for (std::size_t i = 0; i < outlines.size(); ++i)
    out.packing_fraction[i] = out.cell_area[i] > 0.0 ? area[i] / out.cell_area[i] : 0.0;
  return out;
}

}  // namespace sphero::analysis
