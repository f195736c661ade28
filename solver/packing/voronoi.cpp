// Each Voronoi cell is the box cut by the bisectors between a site and its
// Delaunay neighbours (Voronoi neighbours are exactly the Delaunay ones).
// For the periodic tessellation the sites are triangulated together with
// their eight images around the box, which bounds every original cell by
// images; CGAL's Periodic_2_Delaunay_triangulation_2 would do the same with
// more machinery and a minimum-density precondition.
#include "packing/voronoi.h"

#include <CGAL/Delaunay_triangulation_2.h>
#include <CGAL/Regular_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <cmath>
#include <stdexcept>

#include "geometry/polygon.h"

namespace sphero {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using VertexBase = CGAL::Triangulation_vertex_base_with_info_2<int, Kernel>;
using Data = CGAL::Triangulation_data_structure_2<VertexBase>;
using Delaunay = CGAL::Delaunay_triangulation_2<Kernel, Data>;

// Keeps the part of a convex polygon where dot(x, normal) <= offset.
std::vector<Vec2> clip(const std::vector<Vec2>& polygon, Vec2 normal, double offset) {
  std::vector<Vec2> out;
  const std::size_t n = polygon.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = polygon[i], b = polygon[(i + 1) % n];
    const double da = dot(a, normal) - offset, db = dot(b, normal) - offset;
    if (da <= 0.0) out.push_back(a);
    if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) out.push_back(a + (da / (da - db)) * (b - a));
  }
  return out;
}

// Cells of the sites with index < `owned`, from a triangulation of all of
// `points` (which may include images), starting from `start` polygons.
std::vector<std::vector<Vec2>> cells_from(const std::vector<Vec2>& points, std::size_t owned,
                                          const std::vector<std::vector<Vec2>>& start) {
  std::vector<std::pair<Kernel::Point_2, int>> input;
  for (std::size_t i = 0; i < points.size(); ++i) input.emplace_back(Kernel::Point_2(points[i].x, points[i].y), static_cast<int>(i));
  Delaunay triangulation(input.begin(), input.end());
  if (triangulation.number_of_vertices() != points.size())
    throw std::invalid_argument("Voronoi: two sites coincide");
  std::vector<Delaunay::Vertex_handle> handle(points.size());
  for (auto v = triangulation.finite_vertices_begin(); v != triangulation.finite_vertices_end(); ++v)
    handle[static_cast<std::size_t>(v->info())] = v;
  std::vector<std::vector<Vec2>> cells;
  for (std::size_t i = 0; i < owned; ++i) {
    std::vector<Vec2> cell = start[i];
    const Vec2 site = points[i];
    auto circulator = triangulation.incident_vertices(handle[i]), done = circulator;
    do {
      if (triangulation.is_infinite(circulator)) continue;
      const Vec2 other = points[static_cast<std::size_t>(circulator->info())];
      // Closer to `site` than to `other`: dot(x, d) <= dot(site, d) + |d|²/2
      // with d = other − site; written so, not as (|other|² − |site|²)/2,
      // it keeps its precision when the sites are close together.
      const Vec2 d = other - site;
      cell = clip(cell, d, dot(site, d) + 0.5 * norm2(d));
    } while (++circulator != done);
    cells.push_back(cell);
  }
  return cells;
}

using RegularVertex = CGAL::Triangulation_vertex_base_with_info_2<int, Kernel, CGAL::Regular_triangulation_vertex_base_2<Kernel>>;
using RegularFace = CGAL::Regular_triangulation_face_base_2<Kernel>;
using RegularData = CGAL::Triangulation_data_structure_2<RegularVertex, RegularFace>;
using Regular = CGAL::Regular_triangulation_2<Kernel, RegularData>;

std::vector<Vec2> rectangle(Vec2 low, Vec2 high) { return {low, {high.x, low.y}, high, {low.x, high.y}}; }

Vec2 polygon_centroid(const std::vector<Vec2>& p) {
  double area = 0.0;
  Vec2 c;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec2 a = p[i], b = p[(i + 1) % p.size()];
    const double w = cross(a, b);
    area += w;
    c += w * (a + b);
  }
  return c / (3.0 * area);
}

}  // namespace

std::vector<std::vector<Vec2>> voronoi_cells(const std::vector<Vec2>& sites, const Box& box) {
  for (Vec2 s : sites)
    if (s.x < box.low.x || s.x > box.high.x || s.y < box.low.y || s.y > box.high.y)
      throw std::invalid_argument("Voronoi: a site lies outside the box");
  return cells_from(sites, sites.size(), std::vector<std::vector<Vec2>>(sites.size(), rectangle(box.low, box.high)));
}

std::vector<std::vector<Vec2>> periodic_voronoi_cells(const std::vector<Vec2>& sites, const Box& box) {
  const Vec2 L = box.size();
  std::vector<Vec2> points = sites;
  for (int ix = -1; ix <= 1; ++ix)
    for (int iy = -1; iy <= 1; ++iy)
      if (ix != 0 || iy != 0)
        for (Vec2 s : sites) points.push_back(s + Vec2{ix * L.x, iy * L.y});
  // Start each cell from a generous square around its site: images bound it.
  std::vector<std::vector<Vec2>> start;
  for (Vec2 s : sites) start.push_back(rectangle(s - L, s + L));
  return cells_from(points, sites.size(), start);
}

std::vector<std::vector<Vec2>> power_cells(const std::vector<Vec2>& sites, const std::vector<double>& weights,
                                           const Box& box, bool periodic) {
  if (weights.size() != sites.size()) throw std::invalid_argument("power cells: one weight per site");
  const Vec2 L = box.size();
  std::vector<Vec2> points = sites;
  std::vector<double> w = weights;
  if (periodic)
    for (int ix = -1; ix <= 1; ++ix)
      for (int iy = -1; iy <= 1; ++iy)
        if (ix != 0 || iy != 0)
          for (std::size_t i = 0; i < sites.size(); ++i) {
            points.push_back(sites[i] + Vec2{ix * L.x, iy * L.y});
            w.push_back(weights[i]);
          }
  std::vector<std::pair<Regular::Weighted_point, int>> input;
  for (std::size_t i = 0; i < points.size(); ++i)
    input.emplace_back(Regular::Weighted_point(Kernel::Point_2(points[i].x, points[i].y), w[i]), static_cast<int>(i));
  Regular triangulation(input.begin(), input.end());
  std::vector<Regular::Vertex_handle> handle(points.size());
  for (auto v = triangulation.finite_vertices_begin(); v != triangulation.finite_vertices_end(); ++v)
    handle[static_cast<std::size_t>(v->info())] = v;
  std::vector<std::vector<Vec2>> cells;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    if (handle[i] == Regular::Vertex_handle()) {  // hidden: no cell
      cells.emplace_back();
      continue;
    }
    std::vector<Vec2> cell = periodic ? rectangle(sites[i] - L, sites[i] + L) : rectangle(box.low, box.high);
    auto circulator = triangulation.incident_vertices(handle[i]), done = circulator;
    do {
      if (triangulation.is_infinite(circulator)) continue;
      const std::size_t j = static_cast<std::size_t>(circulator->info());
      const Vec2 other = points[j];
      // |x − s_i|² − w_i <= |x − s_j|² − w_j
      cell = clip(cell, other - sites[i], 0.5 * (norm2(other) - norm2(sites[i]) - w[j] + w[i]));
    } while (++circulator != done);
    cells.push_back(cell);
  }
  return cells;
}

std::vector<Vec2> lloyd_step(const std::vector<Vec2>& sites, const Box& box, bool periodic) {
  const auto cells = periodic ? periodic_voronoi_cells(sites, box) : voronoi_cells(sites, box);
  std::vector<Vec2> moved;
  for (const auto& cell : cells) {
    Vec2 c = polygon_centroid(cell);
    if (periodic) {
      c.x = box.low.x + std::fmod(std::fmod(c.x - box.low.x, box.size().x) + box.size().x, box.size().x);
      c.y = box.low.y + std::fmod(std::fmod(c.y - box.low.y, box.size().y) + box.size().y, box.size().y);
    }
    moved.push_back(c);
  }
  return moved;
}

}  // namespace sphero
