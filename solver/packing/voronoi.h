// Voronoi tessellations of a rectangle, plain or periodic (CGAL's Delaunay
// triangulation underneath, in voronoi.cpp only), and Lloyd relaxation.
#pragma once

#include <vector>

#include "geometry/vec2.h"

namespace sphero {

struct Box {
  Vec2 low, high;
  Vec2 size() const { return high - low; }
  double area() const { return (high.x - low.x) * (high.y - low.y); }
};

// The Voronoi cell of each site clipped to the box: convex polygons,
// counter-clockwise, in the order of the sites. Sites must lie in the box
// and be distinct.
std::vector<std::vector<Vec2>> voronoi_cells(const std::vector<Vec2>& sites, const Box& box);

// The areas of the same cells, without building them where it can be
// helped: a cell whose Voronoi vertices (the circumcentres of its Delaunay
// triangles) all lie in the box is bounded by them, and only the cells at
// the box's edge are clipped. Sites may repeat; a repeated site's later
// copies get no area.
std::vector<double> voronoi_cell_areas(const std::vector<Vec2>& sites, const Box& box);

// The Voronoi cells of the sites repeated periodically with the box as the
// unit cell (a tessellation of the torus). Each cell is given in plain
// coordinates around its site, so a cell near the box's edge reaches past it;
// the cells tile the plane when repeated by the box's periods.
std::vector<std::vector<Vec2>> periodic_voronoi_cells(const std::vector<Vec2>& sites, const Box& box);

// Power (Laguerre) cells: the cell of site i holds the points x where
// |x − s_i|² − w_i is smallest. Bigger weights, bigger cells; equal weights
// give the Voronoi cells. A site whose cell is empty (outweighed by its
// neighbours) gets an empty polygon.
std::vector<std::vector<Vec2>> power_cells(const std::vector<Vec2>& sites, const std::vector<double>& weights,
                                           const Box& box, bool periodic);

// One Lloyd step: each site moves to the centroid of its cell (wrapped back
// into the box when periodic).
std::vector<Vec2> lloyd_step(const std::vector<Vec2>& sites, const Box& box, bool periodic);

}  // namespace sphero
