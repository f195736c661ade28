#include "triangulation/void_triangulation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <queue>
#include <span>

#include "geometry/hilbert_order.h"
#include "geometry/polygon.h"
#include "triangulation/constrained_triangulation.h"
#include "triangulation/polynomial.h"

namespace sphero {
namespace {

int next(int k) { return k == 2 ? 0 : k + 1; }
int previous(int k) { return k == 0 ? 2 : k - 1; }

}  // namespace

struct VoidTriangulation::Event {
  double s;  // the share of the move at which the triangle flattens
  int triangle;
  std::uint32_t version;
  // Earliest first; ties by triangle, so that the order of flips does not
  // depend on how the queue was filled.
  bool operator>(const Event& o) const { return s != o.s ? s > o.s : triangle > o.triangle; }
};

void Skeletons::add(const std::vector<Vec2>& outline, bool is_closed, int body_id) {
  points.insert(points.end(), outline.begin(), outline.end());
  first.push_back(static_cast<int>(points.size()));
  closed.push_back(is_closed);
  body.push_back(body_id);
}

VoidTriangulation::VoidTriangulation(const Skeletons& skeletons) : skeletons_(skeletons) {
  skeleton_of_.resize(skeletons_.points.size());
  for (std::size_t k = 0; k < skeletons_.count(); ++k)
    for (int p = skeletons_.first[k]; p < skeletons_.first[k + 1]; ++p)
      skeleton_of_[static_cast<std::size_t>(p)] = static_cast<int>(k);
  owner_.resize(skeletons_.points.size() + 4, kNone);
  for (std::size_t p = 0; p < skeletons_.points.size(); ++p)
    owner_[p] = skeletons_.body[static_cast<std::size_t>(skeleton_of_[p])];
  position_ = skeletons_.points;
  build();
}

// Half the points' extent beyond them on every side: vertices can move far
// before one leaves the frame and forces a build.
void VoidTriangulation::place_frame() {
  const std::size_t n = skeletons_.points.size();
  Vec2 low{INFINITY, INFINITY}, high{-INFINITY, -INFINITY};
  for (std::size_t p = 0; p < n; ++p) {
    low = {std::min(low.x, position_[p].x), std::min(low.y, position_[p].y)};
    high = {std::max(high.x, position_[p].x), std::max(high.y, position_[p].y)};
  }
  if (n == 0) low = high = {};
  const double margin = 0.5 * std::max(high.x - low.x, high.y - low.y) +
                        1e-3 * (1.0 + std::abs(low.x) + std::abs(low.y) + std::abs(high.x) + std::abs(high.y));
  frame_low_ = low - Vec2{margin, margin};
  frame_high_ = high + Vec2{margin, margin};
  position_.resize(n);
  position_.push_back(frame_low_);
  position_.push_back({frame_high_.x, frame_low_.y});
  position_.push_back(frame_high_);
  position_.push_back({frame_low_.x, frame_high_.y});
}

void VoidTriangulation::build() {
  place_frame();
  std::vector<std::array<int, 2>> constraints;
  for (std::size_t k = 0; k < skeletons_.count(); ++k) {
    const int first = skeletons_.first[k], last = skeletons_.first[k + 1] - 1;
    for (int p = first; p < last; ++p) constraints.push_back({p, p + 1});
    if (skeletons_.closed[k] && last - first >= 2) constraints.push_back({last, first});
  }
  triangles_ = constrained_triangulation(position_, constraints, owner_);
  order_along_curve();
  version_.assign(triangles_.size(), 0);
  incident_.assign(position_.size(), kNone);
  for (std::size_t t = 0; t < triangles_.size(); ++t)
    for (int v : triangles_[t].vertex) incident_[static_cast<std::size_t>(v)] = static_cast<int>(t);
  mark_inside();
  ++stats_.builds;
}

// Triangles near each other in the plane near each other in memory: a walk
// reads neighbours, not triangles spread over the whole array.
void VoidTriangulation::order_along_curve() {
  std::vector<Vec2> centroid(triangles_.size());
  for (std::size_t t = 0; t < triangles_.size(); ++t) {
    const auto& v = triangles_[t].vertex;
    centroid[t] = (position_[static_cast<std::size_t>(v[0])] + position_[static_cast<std::size_t>(v[1])] +
                   position_[static_cast<std::size_t>(v[2])]) /
                  3.0;
  }
  const std::vector<std::size_t> order = hilbert_order(centroid);
  std::vector<int> new_index(triangles_.size());
  for (std::size_t k = 0; k < order.size(); ++k) new_index[order[k]] = static_cast<int>(k);
  std::vector<Triangle> sorted(triangles_.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    sorted[k] = triangles_[order[k]];
    for (int& beyond : sorted[k].across)
      if (beyond != kNone) beyond = new_index[static_cast<std::size_t>(beyond)];
  }
  triangles_ = std::move(sorted);
}

// Inside a closed skeleton: all three corners on it, and the triangle,
// its corners taken in the skeleton's order, turning the skeleton's way.
// The triangulation keeps the skeleton's edges, so a triangle lies wholly
// inside or wholly outside it, and one across a concave notch turns the
// other way. The triangle's corners are counter-clockwise (by the
// triangulation's exact predicates), so the skeleton's order turns that
// way exactly when it is a rotation of theirs: no rounding decides it.
void VoidTriangulation::mark_inside() {
  std::vector<double> skeleton_area(skeletons_.count(), 0.0);  // its sign: the skeleton's own turn
  for (std::size_t k = 0; k < skeletons_.count(); ++k) {
    if (!skeletons_.closed[k]) continue;
    const int first = skeletons_.first[k], end = skeletons_.first[k + 1];
    skeleton_area[k] =
        signed_area(std::span<const Vec2>(position_.data() + first, static_cast<std::size_t>(end - first)));
  }
  for (Triangle& t : triangles_) {
    t.inside = false;
    const auto skeleton = [&](int v) {  // kNone for a corner of the frame
      return static_cast<std::size_t>(v) < skeleton_of_.size() ? skeleton_of_[static_cast<std::size_t>(v)] : kNone;
    };
    const int k = skeleton(t.vertex[0]);
    if (k == kNone || skeleton(t.vertex[1]) != k || skeleton(t.vertex[2]) != k) continue;
    if (!skeletons_.closed[static_cast<std::size_t>(k)]) continue;
    const auto [a, b, c] = t.vertex;
    // The corners in the skeleton's order are a rotation of the
    // counter-clockwise ones when the smallest index is followed by the
    // next larger.
    const bool skeleton_order_turns_left = (a < b && b < c) || (b < c && c < a) || (c < a && a < b);
    const double area = skeleton_area[static_cast<std::size_t>(k)];
    if (area != 0.0) {
      t.inside = skeleton_order_turns_left == (area > 0.0);
      continue;
    }
    const int first = skeletons_.first[static_cast<std::size_t>(k)],
              end = skeletons_.first[static_cast<std::size_t>(k) + 1];
    const Vec2 centroid = (position_[static_cast<std::size_t>(a)] + position_[static_cast<std::size_t>(b)] +
                           position_[static_cast<std::size_t>(c)]) /
                          3.0;
    t.inside = point_in_polygon(
        centroid, std::span<const Vec2>(position_.data() + first, static_cast<std::size_t>(end - first)));
  }
}

// How the vertices move during one call: straight from where they are to
// `target` over s in [0, 1], or along `paths` over s in [0, end]; the frame's
// corners stay.
struct VoidTriangulation::Motion {
  const VoidTriangulation& tri;
  const std::vector<Vec2>* target = nullptr;
  const std::vector<PointPath>* paths = nullptr;
  double end = 1.0;

  Vec2 at(int v, double s) const {
    const auto i = static_cast<std::size_t>(v);
    if (target) return tri.position_[i] + s * ((*target)[i] - tri.position_[i]);
    return i < paths->size() ? (*paths)[i].at(s) : tri.position_[i];
  }
  PointPath path_of(int v) const {
    const auto i = static_cast<std::size_t>(v);
    if (i < paths->size()) return (*paths)[i];
    PointPath still;
    still.x = Polynomial::constant(tri.position_[i].x), still.y = Polynomial::constant(tri.position_[i].y);
    return still;
  }
  // The signed doubled area of triangle t along the motion. Straight lines:
  // with edges e + s f from the first corner, cross(e1, e2) +
  // s (cross(e1, f2) + cross(f1, e2)) + s² cross(f1, f2).
  Polynomial area(const Triangle& t) const {
    const auto v = [&](int k) { return t.vertex[static_cast<std::size_t>(k)]; };
    if (!target) return doubled_area(path_of(v(0)), path_of(v(1)), path_of(v(2)));
    const auto from = [&](int k) { return tri.position_[static_cast<std::size_t>(v(k))]; };
    const auto moved = [&](int k) { return (*target)[static_cast<std::size_t>(v(k))] - from(k); };
    const Vec2 e1 = from(1) - from(0), e2 = from(2) - from(0), f1 = moved(1) - moved(0), f2 = moved(2) - moved(0);
    Polynomial area;
    area.degree = 2;
    area.c[0] = cross(e1, e2);
    area.c[1] = cross(e1, f2) + cross(f1, e2);
    area.c[2] = cross(f1, f2);
    return area;
  }
  std::vector<Vec2> final_positions() const {
    if (target) return *target;  // exactly: p + (q − p) need not round to q
    std::vector<Vec2> out(tri.position_.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = at(static_cast<int>(i), end);
    return out;
  }
};

bool VoidTriangulation::within_frame(const std::vector<Vec2>& points) const {
  return std::all_of(points.begin(), points.end(), [&](Vec2 p) {
    return p.x > frame_low_.x && p.y > frame_low_.y && p.x < frame_high_.x && p.y < frame_high_.y;
  });
}

std::vector<Vec2> VoidTriangulation::with_corners(std::vector<Vec2> points) const {
  for (std::size_t corner = 0; corner < 4; ++corner) points.push_back(position_[skeletons_.points.size() + corner]);
  return points;
}

bool VoidTriangulation::move_to(const std::vector<Vec2>& points) {
  if (points.size() != skeletons_.points.size())
    throw std::invalid_argument("VoidTriangulation::move_to: " + std::to_string(points.size()) + " points for " +
                                std::to_string(skeletons_.points.size()));
  ++stats_.moves;
  const std::vector<Vec2> target = with_corners(points);
  skeletons_.points = points;
  if (within_frame(points) && flip_through_motion(Motion{*this, &target, nullptr, 1.0})) return true;
  position_ = target;
  build();
  ++stats_.rebuilds;
  return false;
}

bool VoidTriangulation::move_along(const std::vector<PointPath>& paths, double horizon,
                                   const std::vector<Vec2>& points) {
  if (paths.size() != skeletons_.points.size() || points.size() != skeletons_.points.size())
    throw std::invalid_argument("VoidTriangulation::move_along: " + std::to_string(paths.size()) + " paths and " +
                                std::to_string(points.size()) + " points for " +
                                std::to_string(skeletons_.points.size()));
  ++stats_.moves;
  const std::vector<Vec2> target = with_corners(points);
  skeletons_.points = points;
  const Motion flight{*this, nullptr, &paths, horizon};
  if (within_frame(points) && flip_through_motion(flight)) {
    const Motion settle{*this, &target, nullptr, 1.0};  // by the paths' error: a hair
    if (flip_through_motion(settle)) return true;
  }
  position_ = target;
  build();
  ++stats_.rebuilds;
  return false;
}

// Its corners on one skeleton: inside it, or across a concave notch of it.
bool VoidTriangulation::on_one_skeleton(const Triangle& t) const {
  const std::size_t n = skeleton_of_.size();
  const auto a = static_cast<std::size_t>(t.vertex[0]), b = static_cast<std::size_t>(t.vertex[1]),
             c = static_cast<std::size_t>(t.vertex[2]);
  return a < n && b < n && c < n && skeleton_of_[a] == skeleton_of_[b] && skeleton_of_[a] == skeleton_of_[c];
}

bool VoidTriangulation::flip_through_motion(const Motion& motion) {
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  const auto schedule = [&](int t, double from) {
    const Triangle& tri = triangles_[static_cast<std::size_t>(t)];
    if (on_one_skeleton(tri)) return;  // it moves rigidly and keeps its orientation (docs/MODEL.md §8)
    // first_root settles most triangles at once by bounding how far the area can fall.
    if (const auto s = first_root(motion.area(tri), from, motion.end))
      events.push({*s, t, version_[static_cast<std::size_t>(t)]});
  };
  for (std::size_t t = 0; t < triangles_.size(); ++t) schedule(static_cast<int>(t), 0.0);
  // Rounding can make two triangles hand a flip back and forth; past this
  // many flips the move gives up and builds anew.
  const long most_flips = 4 * static_cast<long>(triangles_.size()) + 1000;
  long flips = 0;
  while (!events.empty()) {
    const Event e = events.top();
    events.pop();
    if (e.version != version_[static_cast<std::size_t>(e.triangle)]) continue;
    const Triangle& tri = triangles_[static_cast<std::size_t>(e.triangle)];
    // The longest edge is the one the flattening vertex lies on.
    int longest = 0;
    double length = -1.0;
    for (int k = 0; k < 3; ++k) {
      const double l = norm2(motion.at(tri.vertex[static_cast<std::size_t>(next(k))], e.s) -
                             motion.at(tri.vertex[static_cast<std::size_t>(previous(k))], e.s));
      if (l > length) length = l, longest = k;
    }
    const int beyond = tri.across[static_cast<std::size_t>(longest)];
    if (tri.is_constrained(longest) || beyond == kNone || ++flips > most_flips) return false;
    flip(e.triangle, longest);
    schedule(e.triangle, e.s);
    schedule(beyond, e.s);
  }
  stats_.flips += flips;
  position_ = motion.final_positions();
  return all_positively_oriented();
}

// Triangles t = (c, a, b) and n = (d, b, a) across edge ab become
// t = (c, a, d) and n = (d, b, c) across edge cd.
void VoidTriangulation::flip(int t, int k) {
  Triangle& T = triangles_[static_cast<std::size_t>(t)];
  const int n = T.across[static_cast<std::size_t>(k)];
  Triangle& N = triangles_[static_cast<std::size_t>(n)];
  int m = 0;
  while (N.across[static_cast<std::size_t>(m)] != t) ++m;
  const int c = T.vertex[static_cast<std::size_t>(k)], a = T.vertex[static_cast<std::size_t>(next(k))],
            b = T.vertex[static_cast<std::size_t>(previous(k))], d = N.vertex[static_cast<std::size_t>(m)];
  const int beyond_ca = T.across[static_cast<std::size_t>(previous(k))],
            beyond_bc = T.across[static_cast<std::size_t>(next(k))];
  const int beyond_ad = N.across[static_cast<std::size_t>(next(m))],
            beyond_db = N.across[static_cast<std::size_t>(previous(m))];
  const bool fixed_ca = T.is_constrained(previous(k)), fixed_bc = T.is_constrained(next(k));
  const bool fixed_ad = N.is_constrained(next(m)), fixed_db = N.is_constrained(previous(m));
  const auto bits = [](bool opposite_0, bool opposite_1, bool opposite_2) {
    return static_cast<std::uint8_t>(opposite_0 | opposite_1 << 1 | opposite_2 << 2);
  };
  T.vertex = {c, a, d};
  T.across = {beyond_ad, n, beyond_ca};
  T.constrained = bits(fixed_ad, false, fixed_ca);
  N.vertex = {d, b, c};
  N.across = {beyond_bc, t, beyond_db};
  N.constrained = bits(fixed_bc, false, fixed_db);
  const auto repoint = [&](int outer, int from, int to) {
    if (outer == kNone) return;
    for (int& x : triangles_[static_cast<std::size_t>(outer)].across)
      if (x == from) x = to;
  };
  repoint(beyond_ad, n, t);
  repoint(beyond_bc, t, n);
  incident_[static_cast<std::size_t>(a)] = t;
  incident_[static_cast<std::size_t>(c)] = t;
  incident_[static_cast<std::size_t>(d)] = t;
  incident_[static_cast<std::size_t>(b)] = n;
  ++version_[static_cast<std::size_t>(t)];
  ++version_[static_cast<std::size_t>(n)];
}

// Turning about v from triangle to triangle across the edges at v.
int VoidTriangulation::outside_triangle_at_vertex(int v) const {
  const int first = incident_[static_cast<std::size_t>(v)];
  int t = first;
  do {
    const Triangle& tri = triangles_[static_cast<std::size_t>(t)];
    if (!tri.inside) return t;
    int k = 0;
    while (tri.vertex[static_cast<std::size_t>(k)] != v) ++k;
    t = tri.across[static_cast<std::size_t>(next(k))];
  } while (t != kNone && t != first);
  return first;  // only a corner of the frame could get here, and it has no inside
}

bool VoidTriangulation::all_positively_oriented() const {
  return std::all_of(triangles_.begin(), triangles_.end(), [&](const Triangle& t) {
    return counter_clockwise(position_[static_cast<std::size_t>(t.vertex[0])],
                             position_[static_cast<std::size_t>(t.vertex[1])],
                             position_[static_cast<std::size_t>(t.vertex[2])]);
  });
}

std::size_t VoidTriangulation::memory_bytes() const {
  return skeletons_.points.capacity() * sizeof(Vec2) + position_.capacity() * sizeof(Vec2) +
         (owner_.capacity() + skeleton_of_.capacity() + incident_.capacity()) * sizeof(int) +
         triangles_.capacity() * sizeof(Triangle) + version_.capacity() * sizeof(std::uint32_t);
}

}  // namespace sphero
