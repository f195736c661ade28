#include "packing/touching_pairs.h"

#include <algorithm>

#include "engine/link_cells.h"
#include "packing/generators.h"

namespace sphero {

std::vector<std::pair<int, int>> touching_pairs(const std::vector<BodySpec>& bodies, double gap) {
  std::vector<std::pair<int, int>> pairs;
  if (bodies.empty()) return pairs;
  const World w = geometry_world(bodies);
  // Each body's skeleton in world coordinates, as the world placed it.
  std::vector<Shape> placed;
  for (std::size_t i = 0; i < w.size(); ++i) {
    std::vector<Vec2> vertices;
    for (int k = w.vertex_begin[i]; k < w.vertex_begin[i] + w.vertex_count[i]; ++k)
      vertices.push_back(vertex_position(w, static_cast<int>(i), k));
    placed.push_back(make_shape(w.shape_name[i], bodies[i].shape.kind, std::move(vertices), w.radius[i]));
  }
  const auto touch = [&](int i, int j) {
    return skeleton_distance(placed[static_cast<std::size_t>(i)], placed[static_cast<std::size_t>(j)]) <=
           w.radius[static_cast<std::size_t>(i)] + w.radius[static_cast<std::size_t>(j)] + gap;
  };
  std::vector<int> grains, walls;
  for (std::size_t i = 0; i < w.size(); ++i) (w.is_wall[i] ? walls : grains).push_back(static_cast<int>(i));
  if (!grains.empty()) {
    const LinkCells cells(w, grains, gap);
    for (int i : grains)
      cells.for_each_body_near(i, [&](int j) {
        if (j > i && touch(i, j)) pairs.push_back({i, j});
      });
  }
  for (int wall : walls)
    for (int i : grains)
      if (touch(std::min(i, wall), std::max(i, wall))) pairs.push_back({std::min(i, wall), std::max(i, wall)});
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace sphero
