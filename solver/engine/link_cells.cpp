#include "engine/link_cells.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/thread_team.h"

namespace sphero {
namespace {

double period(const World& w, int axis) { return axis == 0 ? w.cell.size.x : w.cell.size.y; }

// The q-th quantile of v (reordered).
double percentile(std::vector<double>& v, double q) {
  const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[static_cast<std::size_t>(k)];
}

// The largest outline diameter and the box around the centres of `bodies`,
// each member taking a contiguous part (minima and maxima are the same
// whatever the parts).
struct Extent {
  double diameter = 0.0;
  Vec2 low{INFINITY, INFINITY}, high{-INFINITY, -INFINITY};
};
Extent extent_of(const World& w, const std::vector<int>& bodies, int threads) {
  Extent parts[ThreadTeam::kMaxMembers];
  int used = 1;
  ThreadTeam::run(std::max(1, threads), [&](int member, int members) {
    if (member == 0) used = members;
    Extent& e = parts[member];
    const auto [begin, end] = ThreadTeam::part(bodies.size(), member, members);
    for (std::size_t k = begin; k < end; ++k) {
      const auto i = static_cast<std::size_t>(bodies[k]);
      e.diameter = std::max(e.diameter, 2.0 * w.bounding_radius[i]);
      e.low = {std::min(e.low.x, w.position[i].x), std::min(e.low.y, w.position[i].y)};
      e.high = {std::max(e.high.x, w.position[i].x), std::max(e.high.y, w.position[i].y)};
    }
  });
  Extent all;
  for (int m = 0; m < used; ++m) {
    all.diameter = std::max(all.diameter, parts[m].diameter);
    all.low = {std::min(all.low.x, parts[m].low.x), std::min(all.low.y, parts[m].low.y)};
    all.high = {std::max(all.high.x, parts[m].high.x), std::max(all.high.y, parts[m].high.y)};
  }
  return all;
}

}  // namespace

LinkCells::LinkCells(const World& w, const std::vector<int>& bodies, double skin, int threads)
    : w_(w), grid_(choose_link_grid(w, bodies, skin, threads)) {
  const std::size_t n = w.size(), count = cell_count();
  start_.assign(count + 1, 0);
  members_.resize(bodies.size());
  cell_of_body_.assign(n, -1);
  for (int i : bodies) {
    cell_of_body_[static_cast<std::size_t>(i)] = cell_along(w, i, 0) + grid_.cells[0] * cell_along(w, i, 1);
    ++start_[static_cast<std::size_t>(cell_of_body_[static_cast<std::size_t>(i)]) + 1];
  }
  for (std::size_t c = 0; c < count; ++c) start_[c + 1] += start_[c];
  std::vector<int> fill(start_.begin(), start_.end() - 1);
  for (int i : bodies)
    members_[static_cast<std::size_t>(fill[static_cast<std::size_t>(cell_of_body_[static_cast<std::size_t>(i)])]++)] =
        i;
}

// The grid spans the bodies, but never more than a few cells per body: a
// grain that escaped far away (through a wall, in a run gone wrong) would
// otherwise make millions of empty cells and every rebuild slow. Cells
// beyond the grid are clamped to its edge, which keeps the search exact:
// two grains within one cell width of each other still land in the same
// or neighbouring cells, whatever the clamping.
LinkGrid choose_link_grid(const World& w, const std::vector<int>& bodies, double skin, int threads) {
  const Extent bounds = extent_of(w, bodies, threads);
  const double side = bounds.diameter + skin;
  LinkGrid grid;
  auto& [cells, origin, width] = grid;
  Vec2 low = bounds.low, high = bounds.high;
  const double cap = 4.0 * static_cast<double>(bodies.size()) + 64.0;
  double spanned = 1.0;
  for (int axis = 0; axis < 2; ++axis)
    spanned *= w.cell.periodic[axis] ? std::max(1.0, std::floor(period(w, axis) / side))
                                     : std::floor((axis == 0 ? high.x - low.x : high.y - low.y) / side) + 1.0;
  if (spanned > cap) {
    // Span the bulk: the 1st to the 99th percentile of the coordinates.
    std::vector<double> xs, ys;
    for (int i : bodies) xs.push_back(w.position[i].x), ys.push_back(w.position[i].y);
    low = {percentile(xs, 0.01), percentile(ys, 0.01)};
    high = {percentile(xs, 0.99), percentile(ys, 0.99)};
  }
  // Still too many (a sparse cloud): wider cells, which stay correct. The
  // counts are taken as doubles until they fit: grains far apart (1e95 m
  // in a damaged checkpoint) would count more cells than an int holds.
  for (double widen = 1.0;; widen *= 1.25) {
    std::array<double, 2> count{};
    for (int axis = 0; axis < 2; ++axis) {
      // An extent beyond a double (grains near ±1e308) is the largest one.
      const double extent = std::min(axis == 0 ? high.x - low.x : high.y - low.y, std::numeric_limits<double>::max());
      count[axis] = w.cell.periodic[axis] ? std::floor(period(w, axis) / (side * widen))
                                          : std::floor(extent / (side * widen)) + 1.0;
      if (!(count[axis] >= 1.0)) count[axis] = 1.0;  // NaN too: grains a failing step left at NaN
    }
    if (!(count[0] * count[1] <= cap)) continue;
    for (int axis = 0; axis < 2; ++axis) {
      cells[axis] = static_cast<int>(count[axis]);
      if (w.cell.periodic[axis]) {
        origin[axis] = axis == 0 ? w.cell.low.x : w.cell.low.y;
        width[axis] = period(w, axis) / cells[axis];
      } else {
        origin[axis] = axis == 0 ? low.x : low.y;
        width[axis] = side * widen;
      }
    }
    return grid;
  }
}

int LinkCells::cell_along(const World& w, int i, int axis) const {
  const double coordinate = axis == 0 ? w.position[i].x : w.position[i].y;
  // Clamped before it becomes an int: a grain far beyond the grid is
  // further than an int counts cells, and one a failing step left at NaN
  // (the stability check stops the run after the step) counts none.
  const double c = std::floor((coordinate - grid_.origin[axis]) / grid_.width[axis]);
  if (!(c > 0.0)) return 0;
  return static_cast<int>(std::min(c, static_cast<double>(grid_.cells[axis] - 1)));
}

// The 3 × 3 cells around body i, each once (a periodic axis of fewer than
// three cells wraps onto the same cell twice).
std::size_t LinkCells::cells_around(int i, std::array<int, 9>& neighbours) const {
  const int own = cell_of_body_[static_cast<std::size_t>(i)];
  const std::array<int, 2>& cells = grid_.cells;
  const int cx = own % cells[0], cy = own / cells[0];
  std::size_t count = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int nx = cx + dx, ny = cy + dy;
      if (w_.cell.periodic[0]) nx = (nx % cells[0] + cells[0]) % cells[0];
      if (w_.cell.periodic[1]) ny = (ny % cells[1] + cells[1]) % cells[1];
      if (nx < 0 || ny < 0 || nx >= cells[0] || ny >= cells[1]) continue;
      const int cell = nx + cells[0] * ny;
      if (std::find(neighbours.begin(), neighbours.begin() + static_cast<std::ptrdiff_t>(count), cell) ==
          neighbours.begin() + static_cast<std::ptrdiff_t>(count))
        neighbours[count++] = cell;
    }
  return count;
}

}  // namespace sphero
