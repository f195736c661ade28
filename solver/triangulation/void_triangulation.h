// The triangulated void space (docs/MODEL.md §8, after Müller & Liebling):
// a triangulation of every skeleton vertex inside a fixed rectangular
// frame, in which every skeleton edge is an edge (a constraint). The
// triangles inside closed skeletons are kept, marked, so that the
// triangles meeting any disc form one connected patch (the neighbour walk
// relies on it). As the vertices move, an edge is flipped at the instant a
// triangle beside it flattens, which keeps every triangle positively
// oriented without building anew.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "geometry/vec2.h"
#include "triangulation/free_flight.h"

namespace sphero {

// The skeletons to triangulate, one after another: skeleton k has the
// points [first[k], first[k + 1]), in order along its outline.
struct Skeletons {
  std::vector<Vec2> points;
  std::vector<int> first{0};
  std::vector<std::uint8_t> closed;  // the last point joins the first
  std::vector<int> body;             // the caller's name for skeleton k

  std::size_t count() const { return closed.size(); }
  void add(const std::vector<Vec2>& outline, bool is_closed, int body_id);
};

// Skeletons that cross or touch, or share a point: they cannot be
// triangulated with their edges as constraints.
class TriangulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A skeleton whose own segments meet other than end to end (crossing,
// touching, or folding back onto each other): the triangulation takes
// skeleton segments as edges, which may meet only at shared ends.
class SelfMeetingSkeletonError : public TriangulationError {
 public:
  SelfMeetingSkeletonError(int body, int first, int second, const std::string& message)
      : TriangulationError(message), body_(body), segments_{first, second} {}
  int body() const { return body_; }                         // the world's body
  std::array<int, 2> segments() const { return segments_; }  // in skeleton order, from 1

 private:
  int body_;
  std::array<int, 2> segments_;
};

struct TriangulationStats {
  long builds = 0;    // from scratch, the first included
  long moves = 0;     // calls to move_to
  long flips = 0;     // over all moves
  long rebuilds = 0;  // moves that ended in a build (see move_to)
};

class VoidTriangulation {
 public:
  static constexpr int kNone = -1;
  struct Triangle {
    std::array<int, 3> vertex{};   // counter-clockwise
    std::array<int, 3> across{};   // the triangle beyond the edge opposite vertex k; kNone on the frame
    std::uint8_t constrained = 0;  // bit k: the edge opposite vertex k is a skeleton edge
    bool inside = false;           // inside a closed skeleton
    bool is_constrained(int k) const { return (constrained >> k) & 1; }
  };

  // Throws TriangulationError (naming the skeletons' bodies) when two
  // skeletons cross, touch or share a point.
  explicit VoidTriangulation(const Skeletons& skeletons);

  // Moves every vertex along a straight line from where it is to
  // `points` (laid out as the skeletons' points), flipping an edge at each
  // instant a triangle flattens, in the order the instants come. When that
  // cannot go on — a vertex would leave the frame, a vertex would cross a
  // skeleton edge on the way, or rounding left a triangle inverted at the
  // end — it builds anew at the new positions (and throws as the
  // constructor does if those cross). Returns false when it rebuilt.
  bool move_to(const std::vector<Vec2>& points);

  // The same along each vertex's own path over [0, horizon] (`paths` laid
  // out as the skeletons' points: a body's free flight, say), then on in a
  // straight line to `points` — where the exact motion puts them, which
  // the paths, being expansions, miss by their error bound.
  bool move_along(const std::vector<PointPath>& paths, double horizon, const std::vector<Vec2>& points);

  const std::vector<Triangle>& triangles() const { return triangles_; }
  // The skeleton points, then the frame's four corners.
  const std::vector<Vec2>& vertices() const { return position_; }
  int body_of_vertex(int v) const { return owner_[static_cast<std::size_t>(v)]; }  // kNone: the frame
  int triangle_at_vertex(int v) const { return incident_[static_cast<std::size_t>(v)]; }
  // A triangle at vertex v that is not inside a skeleton (every skeleton
  // vertex has one: the outside of its corner).
  int outside_triangle_at_vertex(int v) const;
  const Skeletons& skeletons() const { return skeletons_; }
  std::array<Vec2, 2> frame() const { return {frame_low_, frame_high_}; }
  const TriangulationStats& stats() const { return stats_; }
  std::size_t memory_bytes() const;

 private:
  struct Event;
  struct Motion;
  void build();
  void place_frame();
  void mark_inside();
  void order_along_curve();
  bool flip_through_motion(const Motion& motion);
  void flip(int t, int k);
  bool all_positively_oriented() const;
  bool on_one_skeleton(const Triangle& t) const;
  bool within_frame(const std::vector<Vec2>& points) const;
  std::vector<Vec2> with_corners(std::vector<Vec2> points) const;

  Skeletons skeletons_;
  std::vector<Vec2> position_;
  std::vector<int> owner_;
  std::vector<int> skeleton_of_;  // per skeleton point
  std::vector<int> incident_;
  std::vector<Triangle> triangles_;
  std::vector<std::uint32_t> version_;  // per triangle: bumped when a flip replaces it
  Vec2 frame_low_, frame_high_;
  TriangulationStats stats_;
};

}  // namespace sphero
