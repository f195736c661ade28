// Each Voronoi cell is the box cut by the bisectors between a site and its
// Delaunay neighbours (Voronoi neighbours are exactly the Delaunay ones).
// For the periodic tessellation the sites are triangulated together with
// their eight images around the box, which bounds every original cell by
// images; CGAL's Periodic_2_Delaunay_triangulation_2 would do the same with
// more machinery and a minimum-density precondition.
#include "packing/voronoi.h"

#include <CGAL/Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Regular_triangulation_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <algorithm>
#include <array>
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

// The cell of vertex `v`'s site: `start` cut by the bisectors with its
// Delaunay neighbours (`sites` indexed by the vertices' info).
std::vector<Vec2> clipped_cell(const Delaunay& triangulation, Delaunay::Vertex_handle v, const std::vector<Vec2>& sites,
                               std::vector<Vec2> start) {
  if (triangulation.number_of_vertices() < 2) return start;
  const Vec2 site = sites[static_cast<std::size_t>(v->info())];
  auto neighbour = triangulation.incident_vertices(v), done = neighbour;
  do {
    if (triangulation.is_infinite(neighbour)) continue;
    // Closer to `site` than to `other`: dot(x, d) <= dot(site, d) + |d|²/2
    // with d = other − site; written so, not as (|other|² − |site|²)/2,
    // it keeps its precision when the sites are close together.
    const Vec2 d = sites[static_cast<std::size_t>(neighbour->info())] - site;
    start = clip(start, d, dot(site, d) + 0.5 * norm2(d));
  } while (++neighbour != done);
  return start;
}

// Cells of the sites with index < `owned`, from a triangulation of all of
// `points` (which may include images), starting from `start` polygons.
std::vector<std::vector<Vec2>> cells_from(const std::vector<Vec2>& points, std::size_t owned,
                                          const std::vector<std::vector<Vec2>>& start) {
  std::vector<std::pair<Kernel::Point_2, int>> input;
  for (std::size_t i = 0; i < points.size(); ++i)
    input.emplace_back(Kernel::Point_2(points[i].x, points[i].y), static_cast<int>(i));
  Delaunay triangulation(input.begin(), input.end());
  if (triangulation.number_of_vertices() != points.size()) throw std::invalid_argument("Voronoi: two sites coincide");
  std::vector<Delaunay::Vertex_handle> handle(points.size());
  for (auto v = triangulation.finite_vertices_begin(); v != triangulation.finite_vertices_end(); ++v)
    handle[static_cast<std::size_t>(v->info())] = v;
  std::vector<std::vector<Vec2>> cells;
  for (std::size_t i = 0; i < owned; ++i) cells.push_back(clipped_cell(triangulation, handle[i], points, start[i]));
  return cells;
}

using RegularVertex =
    CGAL::Triangulation_vertex_base_with_info_2<int, Kernel, CGAL::Regular_triangulation_vertex_base_2<Kernel>>;
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

namespace {

bool inside(const Box& box, Vec2 p) {
  return p.x >= box.low.x && p.x <= box.high.x && p.y >= box.low.y && p.y <= box.high.y;
}

// The sites' indices in rows of about two sites per square cell, each row
// run the other way from the last: each site lands beside the one before,
// so that inserting them with the last as the hint finds its place at once.
// A counting sort; cheaper than CGAL's Hilbert sort for the samples of
// outlines, which already come in runs of neighbours.
std::vector<std::size_t> snake_order(const std::vector<Vec2>& sites, const Box& box) {
  const Vec2 size = box.size();
  const double cell =
      std::sqrt(std::max(size.x * size.y, 1e-300) / std::max(1.0, static_cast<double>(sites.size()) / 2.0));
  const auto cells_along = [&](double length) {
    return static_cast<std::size_t>(std::clamp(std::ceil(length / cell), 1.0, 1e6));
  };
  const std::size_t columns = cells_along(size.x), rows = cells_along(size.y);
  const auto key = [&](Vec2 p) {
    const auto column =
        std::min(columns - 1, static_cast<std::size_t>((p.x - box.low.x) / size.x * static_cast<double>(columns)));
    const auto row =
        std::min(rows - 1, static_cast<std::size_t>((p.y - box.low.y) / size.y * static_cast<double>(rows)));
    return row * columns + (row % 2 == 0 ? column : columns - 1 - column);
  };
  std::vector<std::size_t> start(rows * columns + 1, 0);
  for (Vec2 p : sites) ++start[key(p) + 1];
  for (std::size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
  std::vector<std::size_t> order(sites.size());
  for (std::size_t i = 0; i < sites.size(); ++i) order[start[key(sites[i])]++] = i;
  return order;
}

}  // namespace

// A cell is the union, over its site's Delaunay triangles, of the
// quadrilateral site → mid-edge → circumcentre → mid-edge; with signed
// areas that holds for obtuse triangles too. A cell with an unbounded side
// or a corner (circumcentre) out of the box is clipped instead.
std::vector<double> voronoi_cell_areas(const std::vector<Vec2>& sites, const Box& box) {
  for (Vec2 s : sites)
    if (!inside(box, s)) throw std::invalid_argument("Voronoi: a site lies outside the box");
  Delaunay triangulation;
  Delaunay::Face_handle hint;
  for (std::size_t i : snake_order(sites, box)) {
    const std::size_t before = triangulation.number_of_vertices();
    const auto v = triangulation.insert(Kernel::Point_2(sites[i].x, sites[i].y), hint);
    if (triangulation.number_of_vertices() > before)
      v->info() = static_cast<int>(i);  // a repeated site keeps the first
    hint = v->face();
  }
  std::vector<double> twice(sites.size(), 0.0);
  std::vector<char> clipped(sites.size(), triangulation.dimension() < 2);
  for (auto f = triangulation.all_faces_begin(); f != triangulation.all_faces_end(); ++f) {
    if (triangulation.dimension() < 2) break;
    std::array<std::size_t, 3> at{};
    for (int k = 0; k < 3; ++k)
      at[k] = triangulation.is_infinite(f->vertex(k)) ? sites.size() : static_cast<std::size_t>(f->vertex(k)->info());
    if (triangulation.is_infinite(f)) {
      for (std::size_t i : at)
        if (i < sites.size()) clipped[i] = 1;
      continue;
    }
    const auto c = triangulation.circumcenter(f);
    const Vec2 corner{c.x(), c.y()};
    const bool out = !inside(box, corner);
    for (int k = 0; k < 3; ++k) {
      const Vec2 v = sites[at[k]], next = sites[at[(k + 1) % 3]], previous = sites[at[(k + 2) % 3]];
      if (out) clipped[at[k]] = 1;
      twice[at[k]] += cross(0.5 * (next - v), corner - v) + cross(corner - v, 0.5 * (previous - v));
    }
  }
  std::vector<double> area(sites.size(), 0.0);
  for (auto v = triangulation.finite_vertices_begin(); v != triangulation.finite_vertices_end(); ++v) {
    const auto i = static_cast<std::size_t>(v->info());
    area[i] = clipped[i] ? std::abs(signed_area(clipped_cell(triangulation, v, sites, rectangle(box.low, box.high))))
                         : 0.5 * twice[i];
  }
  return area;
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
