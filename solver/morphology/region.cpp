#include "morphology/region.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace sphero {
namespace {

constexpr double kPi = std::numbers::pi;

// Green's theorem with  area = ½∮(x dy − y dx),  ∫x dA = ∮ x²/2 dy,
// ∫y dA = −∮ y²/2 dx,  ∫|x|² dA = ∮ (x³/3 dy − y³/3 dx), evaluated in closed
// form along a straight segment.
AreaMoments segment_integral(Vec2 p0, Vec2 p1) {
  const double dx = p1.x - p0.x, dy = p1.y - p0.y;
  const double x0 = p0.x, x1 = p1.x, y0 = p0.y, y1 = p1.y;
  AreaMoments m;
  m.area = 0.5 * cross(p0, p1);
  m.first.x = dy / 6.0 * (x0 * x0 + x0 * x1 + x1 * x1);
  m.first.y = -dx / 6.0 * (y0 * y0 + y0 * y1 + y1 * y1);
  m.second = dy / 12.0 * (x0 * x0 * x0 + x0 * x0 * x1 + x0 * x1 * x1 + x1 * x1 * x1) -
             dx / 12.0 * (y0 * y0 * y0 + y0 * y0 * y1 + y0 * y1 * y1 + y1 * y1 * y1);
  return m;
}

// The same line integrals along x = cx + R cos u, y = cy + R sin u for u from
// u0 to u1 (u1 < u0 for a clockwise arc): antiderivatives of powers of
// cos and sin, evaluated at both ends.
AreaMoments arc_integral(Vec2 c, double R, double u0, double u1) {
  auto primitive = [&](double u) {
    const double cu = std::cos(u), su = std::sin(u);
    const double s2 = std::sin(2.0 * u), s4 = std::sin(4.0 * u);
    const double int_c = su, int_s = -cu;
    const double int_c2 = u / 2.0 + s2 / 4.0, int_s2 = u / 2.0 - s2 / 4.0;
    const double int_c3 = su - su * su * su / 3.0, int_s3 = -cu + cu * cu * cu / 3.0;
    const double int_c4 = 3.0 * u / 8.0 + s2 / 4.0 + s4 / 32.0;
    const double int_s4 = 3.0 * u / 8.0 - s2 / 4.0 + s4 / 32.0;
    AreaMoments m;
    // x dy − y dx = (R cx cos u + R cy sin u + R²) du
    m.area = 0.5 * (R * c.x * int_c + R * c.y * int_s + R * R * u);
    // x²/2 dy = ½ R (cx² cos u + 2 cx R cos²u + R² cos³u) du
    m.first.x = 0.5 * R * (c.x * c.x * int_c + 2.0 * c.x * R * int_c2 + R * R * int_c3);
    // −y²/2 dx = ½ R (cy² sin u + 2 cy R sin²u + R² sin³u) du
    m.first.y = 0.5 * R * (c.y * c.y * int_s + 2.0 * c.y * R * int_s2 + R * R * int_s3);
    // x³/3 dy − y³/3 dx = (R/3)[(cx + R cos u)³ cos u + (cy + R sin u)³ sin u] du
    m.second =
        R / 3.0 *
        (c.x * c.x * c.x * int_c + 3.0 * c.x * c.x * R * int_c2 + 3.0 * c.x * R * R * int_c3 + R * R * R * int_c4 +
         c.y * c.y * c.y * int_s + 3.0 * c.y * c.y * R * int_s2 + 3.0 * c.y * R * R * int_s3 + R * R * R * int_s4);
    return m;
  };
  const AreaMoments a = primitive(u0), b = primitive(u1);
  return {b.area - a.area, b.first - a.first, b.second - a.second};
}

double angle_of(Vec2 p, Vec2 centre) { return std::atan2(p.y - centre.y, p.x - centre.x); }

}  // namespace

double arc_sweep(const BoundaryPiece& arc) {
  double sweep = angle_of(arc.end, arc.centre) - angle_of(arc.start, arc.centre);
  if (arc.counterclockwise) {
    if (sweep <= 0.0) sweep += 2.0 * kPi;
  } else {
    if (sweep >= 0.0) sweep -= 2.0 * kPi;
  }
  return sweep;
}

AreaMoments boundary_integral(const BoundaryPiece& piece) {
  if (!piece.is_arc) return segment_integral(piece.start, piece.end);
  const double u0 = angle_of(piece.start, piece.centre);
  AreaMoments m = arc_integral(piece.centre, piece.radius, u0, u0 + arc_sweep(piece));
  // The arc's end points are stored rounded; close the tiny gap between the
  // exact circle and the stored end so that consecutive pieces chain exactly.
  const Vec2 on_circle_start = piece.centre + piece.radius * Vec2{std::cos(u0), std::sin(u0)};
  const double u1 = u0 + arc_sweep(piece);
  const Vec2 on_circle_end = piece.centre + piece.radius * Vec2{std::cos(u1), std::sin(u1)};
  m += segment_integral(piece.start, on_circle_start);
  m += segment_integral(on_circle_end, piece.end);
  return m;
}

BoundaryLoop reversed(const BoundaryLoop& loop) {
  BoundaryLoop back;
  for (auto piece = loop.rbegin(); piece != loop.rend(); ++piece) {
    BoundaryPiece flipped = *piece;
    std::swap(flipped.start, flipped.end);
    flipped.counterclockwise = !piece->counterclockwise;
    back.push_back(flipped);
  }
  return back;
}

BoundaryLoop placed(const BoundaryLoop& loop, double angle, Vec2 offset) {
  BoundaryLoop out = loop;
  for (BoundaryPiece& p : out) {
    p.start = offset + rotated(p.start, angle);
    p.end = offset + rotated(p.end, angle);
    p.centre = offset + rotated(p.centre, angle);
  }
  return out;
}

void orient(Region& region) {
  if (integrate(region.outer).area < 0.0) region.outer = reversed(region.outer);
  for (BoundaryLoop& hole : region.holes)
    if (integrate(hole).area > 0.0) hole = reversed(hole);
}

AreaMoments integrate(const BoundaryLoop& loop) {
  AreaMoments m;
  for (const BoundaryPiece& piece : loop) m += boundary_integral(piece);
  return m;
}

AreaMoments integrate(const Region& region) {
  AreaMoments m = integrate(region.outer);
  for (const BoundaryLoop& hole : region.holes) m += integrate(hole);
  return m;
}

AreaMoments integrate(const std::vector<Region>& regions) {
  AreaMoments m;
  for (const Region& region : regions) m += integrate(region);
  return m;
}

std::vector<Vec2> discretise(const BoundaryLoop& loop, int segments_per_circle) {
  // CGAL splits arcs into x-monotone pieces and may leave pieces far shorter
  // than a chord; their end points would be near-duplicates, which break
  // polygon triangulation when the outline is drawn. Keep points at least a
  // millionth of the loop's size apart.
  double size = 0.0;
  for (const BoundaryPiece& piece : loop) size = std::max(size, norm(piece.end - loop.front().start));
  const double too_close = 1e-6 * size;
  std::vector<Vec2> points;
  const auto add = [&](Vec2 p) {
    if (points.empty() || norm(p - points.back()) > too_close) points.push_back(p);
  };
  for (const BoundaryPiece& piece : loop) {
    add(piece.start);
    if (!piece.is_arc) continue;
    const double sweep = arc_sweep(piece);
    const int chords = std::max(1, static_cast<int>(std::ceil(std::abs(sweep) / (2.0 * kPi) * segments_per_circle)));
    const double u0 = angle_of(piece.start, piece.centre);
    for (int k = 1; k < chords; ++k) {
      const double u = u0 + sweep * k / chords;
      add(piece.centre + piece.radius * Vec2{std::cos(u), std::sin(u)});
    }
  }
  while (points.size() > 1 && norm(points.back() - points.front()) <= too_close) points.pop_back();
  return points;
}

}  // namespace sphero
