// The link-cell grid of a list rebuild (docs/MODEL.md §4): square cells of
// side at least D + 2δ (D the largest outline diameter), so that two bodies
// whose skins overlap sit in the same or neighbouring cells. Bodies tested
// against all (walls) stay out of it.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "engine/world.h"

namespace sphero {

// The grid: cells per axis, where cell 0 starts and how wide a cell is.
struct LinkGrid {
  std::array<int, 2> cells{};
  std::array<double, 2> origin{}, width{};
};

// The grid for `bodies` (their centres as they now lie) and a skin of
// `skin`: cells of side at least D + skin, D the largest outline diameter.
// The same grid for any number of threads.
LinkGrid choose_link_grid(const World& world, const std::vector<int>& bodies, double skin, int threads = 1);

class LinkCells {
 public:
  // Bins `bodies` (their centres as they now lie) for a skin of `skin` (2δ),
  // the grid chosen with `threads` threads.
  LinkCells(const World& world, const std::vector<int>& bodies, double skin, int threads = 1);

  std::size_t cell_count() const {
    return static_cast<std::size_t>(grid_.cells[0]) * static_cast<std::size_t>(grid_.cells[1]);
  }

  // Calls visit(j) for every binned body j in the 3 × 3 cells around body i
  // (i included), cell by cell, each cell once, bodies in index order.
  template <class Visit>
  void for_each_body_near(int i, Visit&& visit) const {
    std::array<int, 9> neighbours;
    const std::size_t count = cells_around(i, neighbours);
    for (std::size_t m = 0; m < count; ++m)
      for (int k = start_[static_cast<std::size_t>(neighbours[m])];
           k < start_[static_cast<std::size_t>(neighbours[m]) + 1]; ++k)
        visit(members_[static_cast<std::size_t>(k)]);
  }

 private:
  int cell_along(const World& w, int i, int axis) const;
  std::size_t cells_around(int i, std::array<int, 9>& neighbours) const;

  const World& w_;
  LinkGrid grid_;
  std::vector<int> start_, members_;  // members of cell c: members_[start_[c] .. start_[c + 1])
  std::vector<int> cell_of_body_;     // -1 for a body not binned
};

}  // namespace sphero
