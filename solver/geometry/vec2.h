// Plain 2D vector arithmetic: the one numeric type the whole solver shares.
#pragma once

#include <cmath>

namespace sphero {

struct Vec2 {
  double x = 0.0;
  double y = 0.0;

  constexpr Vec2& operator+=(Vec2 o) {
    x += o.x;
    y += o.y;
    return *this;
  }
  constexpr Vec2& operator-=(Vec2 o) {
    x -= o.x;
    y -= o.y;
    return *this;
  }
  constexpr Vec2& operator*=(double s) {
    x *= s;
    y *= s;
    return *this;
  }
  friend constexpr bool operator==(Vec2, Vec2) = default;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
constexpr Vec2 operator*(double s, Vec2 a) { return {s * a.x, s * a.y}; }
constexpr Vec2 operator*(Vec2 a, double s) { return {s * a.x, s * a.y}; }
constexpr Vec2 operator/(Vec2 a, double s) { return {a.x / s, a.y / s}; }

constexpr double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
// z-component of the 3D cross product; positive when b turns left of a.
constexpr double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
constexpr double norm2(Vec2 a) { return dot(a, a); }
// sqrt rather than std::hypot: several times faster, and coordinates here
// are far from overflow.
inline double norm(Vec2 a) { return std::sqrt(a.x * a.x + a.y * a.y); }
// a rotated by +90 degrees.
constexpr Vec2 perp(Vec2 a) { return {-a.y, a.x}; }
inline Vec2 rotated(Vec2 a, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {c * a.x - s * a.y, s * a.x + c * a.y};
}
inline bool is_finite(Vec2 a) { return std::isfinite(a.x) && std::isfinite(a.y); }

}  // namespace sphero
