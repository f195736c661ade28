// Long skeletons cut into chunks of consecutive vertices, each with a
// circle around it, so that the feature-pair search scans only the parts
// of a skeleton within reach of its neighbour.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/world.h"

namespace sphero {

// Skeletons of at least kChunkedVertices vertices are cut into chunks of
// kChunkEdges consecutive vertices, each with a circle (world coordinates,
// worked out at each rebuild) around them and the end of the chunk's last
// edge. A pair's preselection of the vertices and edges within reach of
// the other body scans only the chunks whose circles come within reach,
// not the whole skeleton (docs/PERFORMANCE.md, "Design notes").
constexpr int kChunkEdges = 8;
constexpr int kChunkedVertices = 24;

// Each chunk's circle, per body: chunks first[b] .. first[b + 1] − 1.
struct SkeletonChunks {
  std::vector<int> first;
  std::vector<Vec2> centre;
  std::vector<double> radius;
  int count(int body) const {
    return first[static_cast<std::size_t>(body) + 1] - first[static_cast<std::size_t>(body)];
  }
};

// The chunks' circles, with the world vertices as they now lie: of every
// body, or only of those `only` marks (the others' are left unset).
SkeletonChunks chunk_circles(const World& w, const std::vector<std::uint8_t>* only = nullptr);

}  // namespace sphero
