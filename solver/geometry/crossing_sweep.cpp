#include "geometry/crossing_sweep.h"

#include <algorithm>
#include <set>
#include <vector>

#include "geometry/segment.h"

namespace sphero {
namespace {

bool before(Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

struct Edge {
  Vec2 left, right;  // endpoints in sweep order
  int index;
};

// The pair of edges i < j (of n) crosses: properly or touching for edges
// apart; by folding back onto each other for neighbours sharing a vertex.
bool edges_cross(std::span<const Vec2> loop, int i, int j) {
  const int n = static_cast<int>(loop.size());
  if (i > j) std::swap(i, j);
  const Vec2 a1 = loop[static_cast<std::size_t>(i)], a2 = loop[static_cast<std::size_t>((i + 1) % n)];
  const Vec2 b1 = loop[static_cast<std::size_t>(j)], b2 = loop[static_cast<std::size_t>((j + 1) % n)];
  if (j == i + 1 || (i == 0 && j == n - 1)) {
    const Vec2 shared = j == i + 1 ? a2 : a1;
    const Vec2 u = (j == i + 1 ? a1 : a2) - shared, v = (j == i + 1 ? b2 : b1) - shared;
    return cross(u, v) == 0.0 && dot(u, v) > 0.0;
  }
  return segments_intersect(a1, a2, b1, b2);
}

// The order of the edges along the sweep line at the current event point:
// by height at the line, then (leaving a common point) by direction.
struct BelowAtSweep {
  const std::vector<Edge>* edges;
  const Vec2* at;
  double height(const Edge& e) const {
    if (e.left.x == e.right.x) return std::clamp(at->y, e.left.y, e.right.y);  // vertical: where the event is
    const double t = (at->x - e.left.x) / (e.right.x - e.left.x);
    return e.left.y + std::clamp(t, 0.0, 1.0) * (e.right.y - e.left.y);
  }
  bool operator()(int a, int b) const {
    if (a == b) return false;
    const Edge &ea = (*edges)[static_cast<std::size_t>(a)], &eb = (*edges)[static_cast<std::size_t>(b)];
    const double ha = height(ea), hb = height(eb);
    if (ha != hb) return ha < hb;
    const double turn = cross(ea.right - ea.left, eb.right - eb.left);
    if (turn != 0.0) return turn > 0.0;  // b turns left of a: a stays below
    return a < b;
  }
};

}  // namespace

EdgePair sweep_self_intersection(std::span<const Vec2> loop) {
  const int n = static_cast<int>(loop.size());
  if (n < 3) return {};
  std::vector<Edge> edges;
  struct Event {
    Vec2 at;
    bool insert;
    int edge;
  };
  std::vector<Event> events;
  for (int i = 0; i < n; ++i) {
    Vec2 a = loop[static_cast<std::size_t>(i)], b = loop[static_cast<std::size_t>((i + 1) % n)];
    if (before(b, a)) std::swap(a, b);
    edges.push_back({a, b, i});
    events.push_back({a, true, i});
    events.push_back({b, false, i});
  }
  // Sweep order; at one point, insertions first, so that edges meeting there are compared.
  std::sort(events.begin(), events.end(), [](const Event& p, const Event& q) {
    if (p.at.x != q.at.x || p.at.y != q.at.y) return before(p.at, q.at);
    if (p.insert != q.insert) return p.insert;
    return p.edge < q.edge;
  });
  Vec2 at = events.front().at;
  std::set<int, BelowAtSweep> status(BelowAtSweep{&edges, &at});
  std::vector<std::set<int, BelowAtSweep>::iterator> where(static_cast<std::size_t>(n), status.end());
  const auto test = [&](int i, int j) {
    return edges_cross(loop, i, j) ? EdgePair{std::min(i, j), std::max(i, j)} : EdgePair{};
  };
  for (const Event& e : events) {
    at = e.at;
    if (e.insert) {
      const auto it = status.insert(e.edge).first;
      where[static_cast<std::size_t>(e.edge)] = it;
      if (it != status.begin())
        if (const EdgePair p = test(*std::prev(it), e.edge); p.first >= 0) return p;
      if (std::next(it) != status.end())
        if (const EdgePair p = test(e.edge, *std::next(it)); p.first >= 0) return p;
    } else {
      const auto it = where[static_cast<std::size_t>(e.edge)];
      if (it != status.begin() && std::next(it) != status.end())
        if (const EdgePair p = test(*std::prev(it), *std::next(it)); p.first >= 0) return p;
      status.erase(it);
    }
  }
  return {};
}

}  // namespace sphero
