#include "triangulation/free_flight.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sphero {
namespace {

Polynomial negated(Polynomial p) {
  for (int k = 0; k <= p.degree; ++k) p.c[static_cast<std::size_t>(k)] = -p.c[static_cast<std::size_t>(k)];
  return p;
}

Polynomial times(const Polynomial& p, double s) {
  Polynomial q = p;
  for (int k = 0; k <= q.degree; ++k) q.c[static_cast<std::size_t>(k)] *= s;
  return q;
}

double factorial(int n) {
  double f = 1.0;
  for (int k = 2; k <= n; ++k) f *= k;
  return f;
}

}  // namespace

Vec2 FreeFlight::point_at(Vec2 arm, double t) const {
  return position + t * velocity + (0.5 * t * t) * acceleration + rotated(arm, angular_velocity * t);
}

PointPath point_path(const FreeFlight& f, Vec2 arm, double horizon, int degree) {
  if (degree < 1 || degree > 6) throw std::invalid_argument("point_path: the rotation's degree must be 1 to 6");
  // cos(ωt) = Σ (−1)^k (ωt)^2k / (2k)!, sin(ωt) = Σ (−1)^k (ωt)^(2k+1) / (2k+1)!.
  Polynomial cosine, sine;
  cosine.degree = sine.degree = degree;
  double power = 1.0;
  for (int k = 0; k <= degree; ++k) {
    const double term = power / factorial(k);
    const double sign = (k / 2) % 2 == 0 ? 1.0 : -1.0;
    (k % 2 == 0 ? cosine : sine).c[static_cast<std::size_t>(k)] = sign * term;
    power *= f.angular_velocity;
  }
  PointPath path;
  path.x = times(cosine, arm.x) - times(sine, arm.y);
  path.y = times(sine, arm.x) + times(cosine, arm.y);
  const Polynomial centre_x{{f.position.x, f.velocity.x, 0.5 * f.acceleration.x}, 2};
  const Polynomial centre_y{{f.position.y, f.velocity.y, 0.5 * f.acceleration.y}, 2};
  path.x = path.x + centre_x;
  path.y = path.y + centre_y;
  path.x.trim(), path.y.trim();
  // Each of cos and sin is off by at most |ωh|^(n+1)/(n+1)!; the rotated
  // arm, a combination of both, by at most |a| times that (the error
  // vector is the arm rotated and scaled by the two remainders).
  path.error =
      norm(arm) * std::pow(std::abs(f.angular_velocity) * horizon, degree + 1) / factorial(degree + 1) * std::sqrt(2.0);
  return path;
}

Polynomial doubled_area(const PointPath& a, const PointPath& b, const PointPath& c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

std::optional<double> first_flattening(const PointPath& a, const PointPath& b, const PointPath& c, double horizon) {
  const Polynomial area = doubled_area(a, b, c);
  if (!(area(0.0) > 0.0)) return std::nullopt;
  return first_root(area, 0.0, horizon);
}

std::optional<double> first_touch_of_points(const PointPath& p, const PointPath& q, double reach, double horizon) {
  const Polynomial dx = p.x - q.x, dy = p.y - q.y;
  Polynomial gap = dx * dx + dy * dy;
  gap.c[0] -= reach * reach;
  if (!(gap(0.0) > 0.0)) return std::nullopt;
  return first_root(gap, 0.0, horizon);
}

// Along the segment's line, the point's signed distance times the
// segment's length is cross(b − a, p − a); its foot is on the segment
// while 0 ≤ (p − a)·(b − a) ≤ |b − a|².
std::optional<double> first_touch_of_point_and_edge(const PointPath& p, const PointPath& a, const PointPath& b,
                                                    double reach, double horizon) {
  const Polynomial ex = b.x - a.x, ey = b.y - a.y, px = p.x - a.x, py = p.y - a.y;
  const Polynomial side = ex * py - ey * px, along = ex * px + ey * py;
  const double length = norm(b.at(0.0) - a.at(0.0));
  const double s0 = side(0.0);
  if (!(std::abs(s0) > reach * length)) return std::nullopt;
  // Positive while the point is farther than `reach` on its own side.
  Polynomial apart = s0 > 0.0 ? side : negated(side);
  apart.c[0] -= reach * length;
  // Past a root the search starts a hair later: at the root itself the
  // polynomial is zero to rounding, either sign.
  const double hair = 1e-12 * horizon;
  double from = 0.0;
  for (int crossing = 0; crossing <= Polynomial::kMaxDegree; ++crossing) {
    const auto t = first_root(apart, from, horizon);
    if (!t) return std::nullopt;
    const double foot = along(*t);
    if (foot >= 0.0 && foot <= length * length) return t;
    // It came within reach of the line beyond an end. It touches the edge
    // when its foot comes onto the segment before it leaves the band; if
    // it leaves first, look for its next entry.
    Polynomial onto = foot < 0.0 ? negated(along) : along;  // positive until the foot reaches the segment
    if (foot > 0.0) onto.c[0] -= length * length;
    const auto enters = first_root(onto, *t, horizon);
    const auto leaves = first_root(negated(apart), *t + hair, horizon);
    if (enters && (!leaves || *enters <= *leaves)) return enters;
    if (!leaves) return std::nullopt;
    from = *leaves + hair;
  }
  return std::nullopt;
}

}  // namespace sphero
