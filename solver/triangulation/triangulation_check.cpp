#include "triangulation/triangulation_check.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <span>
#include <utility>

#include "geometry/polygon.h"
#include "triangulation/constrained_triangulation.h"

namespace sphero {
namespace {

using Edge = std::pair<int, int>;  // lower vertex first
Edge edge_of(int a, int b) { return {std::min(a, b), std::max(a, b)}; }

double doubled_area(const VoidTriangulation& tri, const VoidTriangulation::Triangle& t) {
  const auto& p = tri.vertices();
  const Vec2 a = p[static_cast<std::size_t>(t.vertex[0])], b = p[static_cast<std::size_t>(t.vertex[1])],
             c = p[static_cast<std::size_t>(t.vertex[2])];
  return cross(b - a, c - a);
}

std::string adjacency_problem(const VoidTriangulation& tri) {
  const auto& triangles = tri.triangles();
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const auto& T = triangles[t];
      const int a = T.vertex[static_cast<std::size_t>((k + 1) % 3)],
                b = T.vertex[static_cast<std::size_t>((k + 2) % 3)];
      const int n = T.across[static_cast<std::size_t>(k)];
      if (n == VoidTriangulation::kNone) continue;
      const auto& N = triangles[static_cast<std::size_t>(n)];
      int m = 0;
      while (m < 3 && N.across[static_cast<std::size_t>(m)] != static_cast<int>(t)) ++m;
      if (m == 3) return "triangle " + std::to_string(n) + " does not point back at " + std::to_string(t);
      const int c = N.vertex[static_cast<std::size_t>((m + 1) % 3)],
                d = N.vertex[static_cast<std::size_t>((m + 2) % 3)];
      if (edge_of(a, b) != edge_of(c, d))
        return "triangles " + std::to_string(t) + " and " + std::to_string(n) + " disagree on their edge";
      if (T.is_constrained(k) != N.is_constrained(m))
        return "triangles " + std::to_string(t) + " and " + std::to_string(n) + " disagree on a constraint";
    }
  return {};
}

std::string constraint_problem(const VoidTriangulation& tri) {
  std::set<Edge> skeleton_edges, constrained;
  const Skeletons& s = tri.skeletons();
  for (std::size_t k = 0; k < s.count(); ++k) {
    const int first = s.first[k], last = s.first[k + 1] - 1;
    for (int p = first; p < last; ++p) skeleton_edges.insert(edge_of(p, p + 1));
    if (s.closed[k] && last - first >= 2) skeleton_edges.insert(edge_of(last, first));
  }
  for (const auto& T : tri.triangles())
    for (int k = 0; k < 3; ++k)
      if (T.is_constrained(k))
        constrained.insert(
            edge_of(T.vertex[static_cast<std::size_t>((k + 1) % 3)], T.vertex[static_cast<std::size_t>((k + 2) % 3)]));
  if (constrained != skeleton_edges)
    return "the constrained edges (" + std::to_string(constrained.size()) + ") are not the skeleton edges (" +
           std::to_string(skeleton_edges.size()) + ")";
  return {};
}

std::string counting_problem(const VoidTriangulation& tri) {
  std::set<Edge> edges;
  for (const auto& T : tri.triangles())
    for (int k = 0; k < 3; ++k)
      edges.insert(edge_of(T.vertex[static_cast<std::size_t>(k)], T.vertex[static_cast<std::size_t>((k + 1) % 3)]));
  const long v = static_cast<long>(tri.vertices().size()), e = static_cast<long>(edges.size()),
             f = static_cast<long>(tri.triangles().size());
  if (v - e + f != 1)
    return "Euler's formula fails: V − E + F = " + std::to_string(v) + " − " + std::to_string(e) + " + " +
           std::to_string(f) + " = " + std::to_string(v - e + f);
  return {};
}

std::string area_problem(const VoidTriangulation& tri) {
  const auto [low, high] = tri.frame();
  const double frame = (high.x - low.x) * (high.y - low.y);
  double total = 0.0, inside = 0.0, skeletons = 0.0;
  for (const auto& T : tri.triangles()) {
    total += 0.5 * doubled_area(tri, T);
    if (T.inside) inside += 0.5 * doubled_area(tri, T);
  }
  const Skeletons& s = tri.skeletons();
  for (std::size_t k = 0; k < s.count(); ++k)
    if (s.closed[k])
      skeletons += std::abs(signed_area(std::span<const Vec2>(
          tri.vertices().data() + s.first[k], static_cast<std::size_t>(s.first[k + 1] - s.first[k]))));
  const double tolerance = 1e-9 * frame;
  if (std::abs(total - frame) > tolerance)
    return "the triangles cover " + std::to_string(total) + " of a frame of " + std::to_string(frame);
  if (std::abs(inside - skeletons) > tolerance)
    return "the triangles inside skeletons cover " + std::to_string(inside) + ", the skeletons " +
           std::to_string(skeletons);
  return {};
}

}  // namespace

std::string triangulation_problem(const VoidTriangulation& tri) {
  const auto& p = tri.vertices();
  for (std::size_t t = 0; t < tri.triangles().size(); ++t) {
    const auto& T = tri.triangles()[t];
    if (!counter_clockwise(p[static_cast<std::size_t>(T.vertex[0])], p[static_cast<std::size_t>(T.vertex[1])],
                           p[static_cast<std::size_t>(T.vertex[2])]))
      return "triangle " + std::to_string(t) + " is not counter-clockwise";
  }
  for (auto check : {adjacency_problem, constraint_problem, counting_problem, area_problem})
    if (std::string problem = check(tri); !problem.empty()) return problem;
  return {};
}

double void_area(const VoidTriangulation& tri) {
  double area = 0.0;
  for (const auto& T : tri.triangles())
    if (!T.inside) area += 0.5 * doubled_area(tri, T);
  return area;
}

}  // namespace sphero
