// Small builders for the physics tests: bodies, walls and laws in one line.
#pragma once

#include <cmath>
#include <numbers>
#include <vector>

#include "engine/engine.h"
#include "shapes/mass_properties.h"
#include "shapes/shape.h"

namespace sphero::test {

inline BodySpec disk(Vec2 centre, double r, Vec2 velocity = {}, double density = 1.0) {
  BodySpec b;
  b.shape = make_shape("disk", SkeletonKind::point, {{0, 0}}, r);
  b.position = centre;
  b.velocity = velocity;
  b.density = density;
  return b;
}

inline BodySpec polygon_body(std::vector<Vec2> skeleton, double r, Vec2 centre, double angle = 0.0) {
  BodySpec b;
  b.shape = make_shape("polygon", SkeletonKind::polygon, std::move(skeleton), r);
  b.position = centre;
  b.angle = angle;
  return b;
}

inline BodySpec square_body(double side, double r, Vec2 centre, double angle = 0.0) {
  const double h = side / 2;
  return polygon_body({{-h, -h}, {h, -h}, {h, h}, {-h, h}}, r, centre, angle);
}

inline BodySpec regular_polygon_body(int n, double circumradius, double r, Vec2 centre, double angle = 0.0) {
  std::vector<Vec2> v;
  for (int k = 0; k < n; ++k) {
    const double a = 2.0 * std::numbers::pi * k / n;
    v.push_back({circumradius * std::cos(a), circumradius * std::sin(a)});
  }
  return polygon_body(std::move(v), r, centre, angle);
}

inline BodySpec segment_body(Vec2 a, Vec2 b, double r) {
  BodySpec body;
  const Vec2 mid = 0.5 * (a + b);
  body.shape = make_shape("segment", SkeletonKind::segment, {a - mid, b - mid}, r);
  body.position = mid;
  return body;
}

// A fixed wall: a polyline in world coordinates.
inline BodySpec wall(std::vector<Vec2> path, double r) {
  BodySpec b;
  b.shape = make_shape("wall", path.size() == 2 ? SkeletonKind::segment : SkeletonKind::polyline, path, r);
  // The world re-centres skeletons on their centre of mass; put the wall
  // where that centre is, so its vertices stay where they were given.
  b.position = mass_properties(b.shape).centroid;
  b.is_wall = true;
  return b;
}

inline ContactLaw linear_law(double kn, double gamma_n = 0.0, double kt = 0.0, double mu = 0.0, double gamma_t = 0.0) {
  ContactLaw law;
  law.kn = kn;
  law.gamma_n = gamma_n;
  law.kt = kt;
  law.mu = mu;
  law.gamma_t = gamma_t;
  return law;
}

inline World world_of(std::vector<BodySpec> bodies, ContactLaw law, Vec2 gravity = {}, PeriodicCell cell = {}) {
  return make_world(bodies, 1, {law}, gravity, cell);
}

}  // namespace sphero::test
