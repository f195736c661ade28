#include "packing/touching_pairs.h"

#include <algorithm>

#include "engine/link_cells.h"
#include "packing/generators.h"

namespace sphero {

namespace {

// Each body's skeleton in world coordinates, as the world placed it. Not
// checked again: rotated, a valid skeleton's nearly touching edges may
// cross by a rounding error, which make_shape would refuse.
std::vector<Shape> placed_skeletons(const World& w, const std::vector<BodySpec>& bodies) {
  std::vector<Shape> placed;
  for (std::size_t i = 0; i < w.size(); ++i) {
    Shape s{w.shape_name[i], bodies[i].shape.kind, {}, w.radius[i]};
    for (int k = w.vertex_begin[i]; k < w.vertex_begin[i] + w.vertex_count[i]; ++k)
      s.vertices.push_back(vertex_position(w, static_cast<int>(i), k));
    placed.push_back(std::move(s));
  }
  return placed;
}

}  // namespace

std::optional<std::pair<int, int>> first_crossing_pair(const std::vector<BodySpec>& bodies) {
  if (bodies.size() < 2) return std::nullopt;
  const World w = geometry_world(bodies);
  const std::vector<Shape> placed = placed_skeletons(w, bodies);
  std::vector<int> all(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) all[i] = static_cast<int>(i);
  const LinkCells cells(w, all, 0.0);
  std::optional<std::pair<int, int>> first;
  for (int i : all)
    cells.for_each_body_near(i, [&](int j) {
      if (j <= i || (first && std::pair{i, j} >= *first)) return;
      const auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(j);
      // Skeletons reach no farther than R - r from their centres of mass.
      const double reach = w.bounding_radius[a] - w.radius[a] + w.bounding_radius[b] - w.radius[b];
      if (norm(w.position[b] - w.position[a]) > reach) return;
      if (skeleton_distance(placed[static_cast<std::size_t>(i)], placed[static_cast<std::size_t>(j)]) <= 0.0)
        first = std::pair{i, j};
    });
  return first;
}

std::vector<std::pair<int, int>> touching_pairs(const std::vector<BodySpec>& bodies, double gap) {
  std::vector<std::pair<int, int>> pairs;
  if (bodies.empty()) return pairs;
  const World w = geometry_world(bodies);
  const std::vector<Shape> placed = placed_skeletons(w, bodies);
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
