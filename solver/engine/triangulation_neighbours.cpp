#include "engine/triangulation_neighbours.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include "engine/stability.h"
#include "triangulation/constrained_triangulation.h"

namespace sphero {
namespace {

Vec2 period_shift(const World& w, std::array<int, 2> periods) {
  return {periods[0] * w.cell.size.x, periods[1] * w.cell.size.y};
}

}  // namespace

// Where body i is in the triangulation's coordinates: its position carried
// on through the wraps into the cell since the triangulation was built, so
// that a grain crossing the border moves on instead of jumping.
Vec2 TriangulationNeighbours::continuous_position(const World& w, const std::vector<std::array<int, 2>>& wraps,
                                                  int i) const {
  const auto& now = wraps[static_cast<std::size_t>(i)];
  const auto& then = wraps_at_build_[static_cast<std::size_t>(i)];
  return w.position[static_cast<std::size_t>(i)] + period_shift(w, {now[0] - then[0], now[1] - then[1]});
}

void TriangulationNeighbours::fill_points(const World& w, const std::vector<std::array<int, 2>>& wraps,
                                          std::vector<Vec2>& points) const {
  points.clear();
  for (std::size_t k = 0; k < copy_body_.size(); ++k) {
    const int b = copy_body_[k];
    const Vec2 shift =
        continuous_position(w, wraps, b) - w.position[static_cast<std::size_t>(b)] + period_shift(w, copy_image_[k]);
    const int first = w.vertex_begin[static_cast<std::size_t>(b)], count = w.vertex_count[static_cast<std::size_t>(b)];
    for (int v = first; v < first + count; ++v) points.push_back(w.world_vertex[static_cast<std::size_t>(v)] + shift);
  }
}

// Copies of each grain through every periodic image whose centre lies
// within `margin` of the cell: a grain that drifts at most drift_ from
// where it was copied, walking at most reach_, finds every image it can
// reach among them (docs/MODEL.md §8).
void TriangulationNeighbours::build(const World& w, const std::vector<std::array<int, 2>>& wraps, double reach) {
  if (triangulation_) {
    const TriangulationStats& s = triangulation_->stats();
    retired_.builds += s.builds, retired_.moves += s.moves, retired_.flips += s.flips, retired_.rebuilds += s.rebuilds;
  }
  wraps_at_build_ = wraps;
  position_at_build_ = w.position;
  reach_ = reach;
  drift_ = reach;
  double largest = 0.0;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!w.is_wall[i]) largest = std::max(largest, w.bounding_radius[i]);
  const double margin = 2.0 * drift_ + reach + largest;
  std::array<int, 2> most{0, 0};
  for (int axis = 0; axis < 2; ++axis)
    if (w.cell.periodic[static_cast<std::size_t>(axis)])
      most[static_cast<std::size_t>(axis)] =
          static_cast<int>(std::ceil(margin / (axis == 0 ? w.cell.size.x : w.cell.size.y)));
  copy_body_.clear();
  copy_image_.clear();
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!w.is_wall[i]) copy_body_.push_back(static_cast<int>(i)), copy_image_.push_back({0, 0});
  const Vec2 low = w.cell.low - Vec2{margin, margin}, high = w.cell.low + w.cell.size + Vec2{margin, margin};
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w.is_wall[i]) continue;
    for (int kx = -most[0]; kx <= most[0]; ++kx)
      for (int ky = -most[1]; ky <= most[1]; ++ky) {
        const Vec2 c = w.position[i] + period_shift(w, {kx, ky});
        if ((kx == 0 && ky == 0) || (kx != 0 && (c.x < low.x || c.x > high.x)) ||
            (ky != 0 && (c.y < low.y || c.y > high.y)))
          continue;
        copy_body_.push_back(static_cast<int>(i)), copy_image_.push_back({kx, ky});
      }
  }
  std::vector<Vec2> points;
  fill_points(w, wraps, points);
  Skeletons skeletons;
  first_point_.assign(w.size(), -1);
  std::size_t next = 0;
  for (std::size_t k = 0; k < copy_body_.size(); ++k) {
    const std::size_t b = static_cast<std::size_t>(copy_body_[k]);
    const auto count = static_cast<std::size_t>(w.vertex_count[b]);
    if (first_point_[b] < 0) first_point_[b] = static_cast<int>(next);
    skeletons.add(std::vector<Vec2>(points.begin() + static_cast<std::ptrdiff_t>(next),
                                    points.begin() + static_cast<std::ptrdiff_t>(next + count)),
                  w.closed[b] && count >= 3, copy_body_[k]);
    next += count;
  }
  triangulation_ = std::make_unique<VoidTriangulation>(skeletons);
  body_count_ = w.size();
}

bool TriangulationNeighbours::copies_still_cover(const World& w, const std::vector<std::array<int, 2>>& wraps,
                                                 double reach) const {
  if (reach > reach_) return false;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!w.is_wall[i] && norm(continuous_position(w, wraps, static_cast<int>(i)) - position_at_build_[i]) > drift_)
      return false;
  return true;
}

namespace {

// A skeleton whose own segments meet other than end to end cannot be a set
// of triangulation edges: said once per shape, before the first build,
// rather than when rounding first shows it as the grain turns.
constexpr int kMostCheckedSegments = 2000;

// What the triangulation cannot take in body b's skeleton: for the check
// before the first build and for a failure during the run alike.
std::string self_meeting_words(const World& w, std::size_t b, std::array<int, 2> segments) {
  return fmt::format(
      "neighbours = triangulation cannot take body {}'s shape '{}': its skeleton's segments {} and {} meet other "
      "than end to end (they cross, touch, or fold back onto each other, which rounding may show only as the grain "
      "turns). The void space is triangulated with the skeletons' segments as edges, which may meet only at shared "
      "ends; list neighbours with cells, which take such shapes",
      b, w.shape_name[b], segments[0], segments[1]);
}

void refuse_self_meeting_skeletons(const World& w) {
  std::set<std::string> checked;
  for (std::size_t i = 0; i < w.size(); ++i) {
    // Pairwise, so up to kMostCheckedSegments; a larger skeleton meeting
    // itself is named when its constraint fails (the same message).
    if (w.is_wall[i] || w.vertex_count[i] > kMostCheckedSegments || !checked.insert(w.shape_name[i]).second) continue;
    const std::vector<Vec2> skeleton = local_skeleton(w, i);
    const auto pair = self_meeting_segments(skeleton, w.closed[i] && skeleton.size() >= 3);
    if (pair) throw std::invalid_argument(self_meeting_words(w, i, *pair));
  }
}

}  // namespace

void TriangulationNeighbours::follow(const World& w, const std::vector<std::array<int, 2>>& wraps, double skin,
                                     int threads, bool each_pair_once) {
  double largest_radius = 0.0, largest_bound = 0.0;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!w.is_wall[i])
      largest_radius = std::max(largest_radius, w.radius[i]),
      largest_bound = std::max(largest_bound, w.bounding_radius[i]);
  const double reach = largest_bound + largest_radius + skin;
  const bool periodic = w.cell.periodic[0] || w.cell.periodic[1];
  if (!triangulation_) refuse_self_meeting_skeletons(w);
  try {
    if (!triangulation_ || body_count_ != w.size() || (periodic && !copies_still_cover(w, wraps, reach))) {
      build(w, wraps, reach);
    } else {
      std::vector<Vec2> points;
      fill_points(w, wraps, points);
      triangulation_->move_to(points);
    }
  } catch (const SelfMeetingSkeletonError& e) {
    throw InstabilityError(self_meeting_words(w, static_cast<std::size_t>(e.body()), e.segments()));
  } catch (const TriangulationError& e) {
    throw InstabilityError("neighbours = triangulation: " + std::string(e.what()) +
                           ", an overlap deeper than the two sphero-radii. Lower dt or the velocities (or list "
                           "neighbours with cells, which do not need the skeletons apart)");
  }
  // A grain's skeleton lies within R − r of its centre, so a skeleton
  // within r_i + r_j + skin of it lies within R_i + r_j + skin of the
  // centre: R_i + r_i + skin when r_j ≤ r_i, R_i + r_max + skin for all j
  // (docs/MODEL.md §8). The relative margin keeps rounding in the walk's
  // favour.
  walk_centre_.assign(w.size(), {});
  walk_radius_.assign(w.size(), 0.0);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w.is_wall[i]) continue;
    walk_centre_[i] = continuous_position(w, wraps, static_cast<int>(i));
    walk_radius_[i] = (w.bounding_radius[i] + (each_pair_once ? w.radius[i] : largest_radius) + skin) * (1.0 + 1e-9);
  }
  walkers_.resize(static_cast<std::size_t>(std::max(1, threads)));
  for (Walker& walker : walkers_)
    if (walker.seen.size() != w.size()) walker.seen.assign(w.size(), 0), walker.round = 0;
}

TriangulationStats TriangulationNeighbours::stats() const {
  TriangulationStats s = retired_;
  if (triangulation_) {
    const TriangulationStats& now = triangulation_->stats();
    s.builds += now.builds, s.moves += now.moves, s.flips += now.flips, s.rebuilds += now.rebuilds;
  }
  return s;
}

std::size_t TriangulationNeighbours::memory_bytes() const {
  std::size_t bytes = triangulation_ ? triangulation_->memory_bytes() : 0;
  bytes += (copy_body_.capacity() + first_point_.capacity()) * sizeof(int) +
           copy_image_.capacity() * sizeof(std::array<int, 2>);
  bytes += walk_centre_.capacity() * sizeof(Vec2) + walk_radius_.capacity() * sizeof(double);
  for (const Walker& walker : walkers_) bytes += walker.seen.capacity() * sizeof(std::uint32_t);
  return bytes;
}

}  // namespace sphero
