// Bodies in free flight between collisions, and the instant two of their
// features first come within reach (docs/MODEL.md §8, "Contact times"):
// the centre on a parabola under a constant acceleration, the angle
// turning at a constant rate. A point fixed in the body moves as
// c(t) + R(ωt) a, a its lever arm at t = 0; with the rotation expanded in
// Maclaurin polynomials, distances between such points become polynomials
// in t, whose first roots are the contact times.
#pragma once

#include <optional>

#include "geometry/vec2.h"
#include "triangulation/polynomial.h"

namespace sphero {

struct FreeFlight {
  Vec2 position, velocity, acceleration;  // of the centre at t = 0
  double angular_velocity = 0.0;
  // Where the point with lever arm `arm` (at t = 0) is at time t, exactly.
  Vec2 point_at(Vec2 arm, double t) const;
};

// A point's path as polynomials in t, and a bound on how far it may be
// from the exact path over [0, horizon].
struct PointPath {
  Polynomial x, y;
  double error = 0.0;
  Vec2 at(double t) const { return {x(t), y(t)}; }
};

// cos and sin of ωt expanded to degree `degree` (at most 6): the path is
// off by at most |arm| |ω h|^(degree+1) / (degree+1)! over [0, h]
// (Lagrange's remainder).
PointPath point_path(const FreeFlight& flight, Vec2 arm, double horizon, int degree = 6);

// Twice the signed area of the triangle a, b, c as it moves:
// (b − a) × (c − a), of degree up to 12.
Polynomial doubled_area(const PointPath& a, const PointPath& b, const PointPath& c);

// The first t in (0, horizon] at which the triangle a, b, c, counter-
// clockwise at t = 0, flattens (its signed area reaches zero); nullopt if
// it stays open.
std::optional<double> first_flattening(const PointPath& a, const PointPath& b, const PointPath& c, double horizon);

// The first t in (0, horizon] at which points p and q come within `reach`
// of each other, given they are farther apart at t = 0; nullopt if they
// do not.
std::optional<double> first_touch_of_points(const PointPath& p, const PointPath& q, double reach, double horizon);

// The first t in (0, horizon] at which point p comes within `reach` of the
// segment from a to b (of constant length: both ends on one rigid body),
// its foot on the segment; nullopt if it does not. Beyond the ends the
// segment's end points are the features (first_touch_of_points). The
// point starts farther than `reach` from the segment's line.
std::optional<double> first_touch_of_point_and_edge(const PointPath& p, const PointPath& a, const PointPath& b,
                                                    double reach, double horizon);

}  // namespace sphero
