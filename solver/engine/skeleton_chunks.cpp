#include "engine/skeleton_chunks.h"

#include <algorithm>
#include <cmath>

#include "engine/skeleton_walk.h"

namespace sphero {

SkeletonChunks chunk_circles(const World& w, const std::vector<std::uint8_t>* only) {
  const std::size_t n = w.size();
  SkeletonChunks chunks;
  chunks.first.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i)
    chunks.first[i + 1] = chunks.first[i] + (!w.is_wall[i] && w.vertex_count[i] >= kChunkedVertices
                                                 ? (w.vertex_count[i] + kChunkEdges - 1) / kChunkEdges
                                                 : 0);
  chunks.centre.resize(static_cast<std::size_t>(chunks.first[n]));
  chunks.radius.resize(static_cast<std::size_t>(chunks.first[n]));
  for (std::size_t i = 0; i < n; ++i) {
    if (only && !(*only)[i]) continue;
    const int body = static_cast<int>(i), begin = w.vertex_begin[i], count = w.vertex_count[i];
    for (int c = 0; c < chunks.count(body); ++c) {
      // Its vertices, and the end of its last edge (the next chunk's first
      // vertex, or a closed skeleton's first).
      const int from = begin + c * kChunkEdges, to = std::min(from + kChunkEdges, begin + count);
      const int last_end = after(w, body, to - 1).k;
      const auto cover = [&](auto&& visit) {
        for (int v = from; v < to; ++v) visit(w.world_vertex[static_cast<std::size_t>(v)]);
        if (last_end >= 0) visit(w.world_vertex[static_cast<std::size_t>(last_end)]);
      };
      Vec2 low = w.world_vertex[static_cast<std::size_t>(from)], high = low;
      cover([&](Vec2 x) {
        low = {std::min(low.x, x.x), std::min(low.y, x.y)};
        high = {std::max(high.x, x.x), std::max(high.y, x.y)};
      });
      const Vec2 centre = 0.5 * (low + high);
      double farthest = 0.0;
      cover([&](Vec2 x) { farthest = std::max(farthest, norm2(x - centre)); });
      const auto k = static_cast<std::size_t>(chunks.first[i] + c);
      chunks.centre[k] = centre;
      // Widened by rounding's worth: a chunk within reach is scanned, never
      // skipped.
      chunks.radius[k] = std::sqrt(farthest) * (1.0 + 1e-9) + 1e-12 * w.bounding_radius[i];
    }
  }
  return chunks;
}

}  // namespace sphero
