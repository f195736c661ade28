#include "triangulation/constrained_triangulation.h"

#include "geometry/segment.h"

#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace sphero {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using VertexBase = CGAL::Triangulation_vertex_base_with_info_2<int, Kernel>;
using FaceBase =
    CGAL::Triangulation_face_base_with_info_2<int, Kernel, CGAL::Constrained_triangulation_face_base_2<Kernel>>;
using Structure = CGAL::Triangulation_data_structure_2<VertexBase, FaceBase>;
// Crossing constraints are an error here (skeletons may not cross), not
// something to resolve by inserting intersection points.
using Cdt = CGAL::Constrained_Delaunay_triangulation_2<Kernel, Structure, CGAL::No_constraint_intersection_tag>;

std::string body_name(int owner) { return owner < 0 ? std::string("the frame") : "body " + std::to_string(owner); }

std::vector<Cdt::Vertex_handle> insert_points(Cdt& cdt, const std::vector<Vec2>& points,
                                              const std::vector<int>& owner) {
  std::vector<std::pair<Kernel::Point_2, int>> located;
  located.reserve(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    located.emplace_back(Kernel::Point_2(points[i].x, points[i].y), static_cast<int>(i));
  cdt.insert(located.begin(), located.end());
  std::vector<Cdt::Vertex_handle> handle(points.size());
  for (auto v = cdt.finite_vertices_begin(); v != cdt.finite_vertices_end(); ++v)
    handle[static_cast<std::size_t>(v->info())] = v;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (handle[i] != Cdt::Vertex_handle()) continue;
    // Merged with another point at the same place: find which.
    Cdt::Locate_type type;
    int index = 0;
    const Cdt::Face_handle face = cdt.locate(located[i].first, type, index);
    const int kept = type == Cdt::VERTEX ? face->vertex(index)->info() : static_cast<int>(i);
    throw TriangulationError(body_name(owner[i]) + " and " + body_name(owner[static_cast<std::size_t>(kept)]) +
                             " have skeleton points at the same place (" + std::to_string(points[i].x) + ", " +
                             std::to_string(points[i].y) + ")");
  }
  return handle;
}

// Whether two of one body's segments, sharing the point `shared` (or -1),
// meet elsewhere: apart, they must not touch; sharing an end, the far end
// of one must not lie on the other (a fold back along itself).
bool meet_elsewhere(const std::vector<Vec2>& points, std::array<int, 2> s, std::array<int, 2> t) {
  const auto at = [&](int k) { return points[static_cast<std::size_t>(k)]; };
  int shared = -1;
  for (int a : s)
    for (int b : t)
      if (a == b) shared = a;
  if (shared < 0) return segments_intersect(at(s[0]), at(s[1]), at(t[0]), at(t[1]));
  const Vec2 middle = at(shared), a = at(s[0] == shared ? s[1] : s[0]), b = at(t[0] == shared ? t[1] : t[0]);
  return cross(a - middle, b - middle) == 0.0 && dot(a - middle, b - middle) > 0.0;
}

// Two of the segments (pairs of indices into points) that meet other than
// end to end, numbered from 1 in their order.
std::optional<std::array<int, 2>> first_meeting(const std::vector<Vec2>& points,
                                                const std::vector<std::array<int, 2>>& segments) {
  for (std::size_t i = 0; i < segments.size(); ++i)
    for (std::size_t j = i + 1; j < segments.size(); ++j)
      if (meet_elsewhere(points, segments[i], segments[j]))
        return std::array<int, 2>{static_cast<int>(i) + 1, static_cast<int>(j) + 1};
  return std::nullopt;
}

// After a failed constraint of `body`: two of its own segments that meet
// other than end to end, if any.
std::optional<std::array<int, 2>> self_meeting(const std::vector<Vec2>& points,
                                               const std::vector<std::array<int, 2>>& constraints,
                                               const std::vector<int>& owner, int body) {
  std::vector<std::array<int, 2>> own;
  for (const auto& c : constraints)
    if (owner[static_cast<std::size_t>(c[0])] == body) own.push_back(c);
  return first_meeting(points, own);
}

}  // namespace

std::optional<std::array<int, 2>> self_meeting_segments(const std::vector<Vec2>& skeleton, bool closed) {
  const int n = static_cast<int>(skeleton.size());
  std::vector<std::array<int, 2>> segments;
  for (int k = 0; k + 1 < n; ++k) segments.push_back({k, k + 1});
  if (closed && n >= 3) segments.push_back({n - 1, 0});
  return first_meeting(skeleton, segments);
}

std::vector<VoidTriangulation::Triangle> constrained_triangulation(const std::vector<Vec2>& points,
                                                                   const std::vector<std::array<int, 2>>& constraints,
                                                                   const std::vector<int>& owner) {
  Cdt cdt;
  const std::vector<Cdt::Vertex_handle> handle = insert_points(cdt, points, owner);
  for (const auto& [a, b] : constraints) {
    try {
      cdt.insert_constraint(handle[static_cast<std::size_t>(a)], handle[static_cast<std::size_t>(b)]);
    } catch (const Cdt::Intersection_of_constraints_exception&) {
      const int body = owner[static_cast<std::size_t>(a)];
      if (const auto pair = body >= 0 ? self_meeting(points, constraints, owner, body) : std::nullopt)
        throw SelfMeetingSkeletonError(body, (*pair)[0], (*pair)[1],
                                       "the skeleton of " + body_name(body) + " meets itself: its segments " +
                                           std::to_string((*pair)[0]) + " and " + std::to_string((*pair)[1]) +
                                           " cross, touch or fold back onto each other");
      throw TriangulationError("the skeleton of " + body_name(owner[static_cast<std::size_t>(a)]) +
                               " crosses or touches another skeleton near (" +
                               std::to_string(points[static_cast<std::size_t>(a)].x) + ", " +
                               std::to_string(points[static_cast<std::size_t>(a)].y) + ")");
    }
  }
  int count = 0;
  for (auto f = cdt.finite_faces_begin(); f != cdt.finite_faces_end(); ++f) f->info() = count++;
  std::vector<VoidTriangulation::Triangle> triangles(static_cast<std::size_t>(count));
  for (auto f = cdt.finite_faces_begin(); f != cdt.finite_faces_end(); ++f) {
    VoidTriangulation::Triangle& t = triangles[static_cast<std::size_t>(f->info())];
    for (int k = 0; k < 3; ++k) {
      t.vertex[static_cast<std::size_t>(k)] = f->vertex(k)->info();
      const auto beyond = f->neighbor(k);
      t.across[static_cast<std::size_t>(k)] = cdt.is_infinite(beyond) ? VoidTriangulation::kNone : beyond->info();
      if (f->is_constrained(k)) t.constrained |= static_cast<std::uint8_t>(1u << k);
    }
  }
  return triangles;
}

}  // namespace sphero

namespace sphero {

// Shewchuk's static filter first: a determinant beyond its rounding bound
// has the sign it shows; only near-flat triangles go to CGAL.
bool counter_clockwise(Vec2 a, Vec2 b, Vec2 c) {
  const double left = (b.x - a.x) * (c.y - a.y), right = (b.y - a.y) * (c.x - a.x);
  const double determinant = left - right;
  constexpr double kBound =
      (3.0 + 16.0 * std::numeric_limits<double>::epsilon()) * std::numeric_limits<double>::epsilon();
  const double bound = kBound * (std::abs(left) + std::abs(right));
  if (determinant > bound) return true;
  if (determinant < -bound) return false;
  return CGAL::orientation(Kernel::Point_2(a.x, a.y), Kernel::Point_2(b.x, b.y), Kernel::Point_2(c.x, c.y)) ==
         CGAL::LEFT_TURN;
}

}  // namespace sphero
