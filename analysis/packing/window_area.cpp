#include "analysis/packing/window_area.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace sphero::analysis {
namespace {

constexpr double kPi = std::numbers::pi;

// A boundary piece in coordinates about the window's middle: the segment
// a → b, or the arc about c of radius r from angle u0 through du.
struct Curve {
  bool is_arc = false;
  Vec2 a, b;
  Vec2 c;
  double r = 0.0, u0 = 0.0, du = 0.0;

  Vec2 at(double s) const {
    if (!is_arc) return a + s * (b - a);
    const double u = u0 + s * du;
    return c + r * Vec2{std::cos(u), std::sin(u)};
  }
  Curve part(double s0, double s1) const {
    Curve p = *this;
    if (is_arc) {
      p.u0 = u0 + s0 * du, p.du = (s1 - s0) * du;
    } else {
      p.a = at(s0), p.b = at(s1);
    }
    return p;
  }
  // ½ ∫ x × dx along the piece: its share of the enclosed area.
  double green() const {
    if (!is_arc) return 0.5 * cross(a, b);
    return 0.5 * (r * r * du + cross(c, at(1.0) - at(0.0)));
  }
  // The angle the piece turns through as seen from the window's middle,
  // which it does not pass through. Arcs in eighths of a circle: a chord's
  // angle is the arc's unless the middle lies between them.
  double turn() const {
    const int chords = is_arc ? std::max(1, static_cast<int>(std::ceil(std::abs(du) / (kPi / 4.0)))) : 1;
    double total = 0.0;
    for (int k = 0; k < chords; ++k) {
      const Vec2 p = at(static_cast<double>(k) / chords), q = at(static_cast<double>(k + 1) / chords);
      total += std::atan2(cross(p, q), dot(p, q));
    }
    return total;
  }
};

Curve curve_of(const BoundaryPiece& piece, Vec2 middle) {
  Curve c;
  c.a = piece.start - middle;
  c.b = piece.end - middle;
  if (!piece.is_arc) return c;
  c.is_arc = true;
  c.c = piece.centre - middle;
  c.r = piece.radius;
  c.u0 = std::atan2(piece.start.y - piece.centre.y, piece.start.x - piece.centre.x);
  c.du = arc_sweep(piece);
  return c;
}

// The window's shape about its middle, and what clipping needs of it.
class Clip {
 public:
  explicit Clip(const Window& w)
      : circle_(w.kind == Window::Kind::circle), half_{0.5 * (w.x1 - w.x0), 0.5 * (w.y1 - w.y0)}, radius_(w.radius) {}

  bool contains(Vec2 p) const {
    return circle_ ? norm2(p) <= radius_ * radius_ : std::abs(p.x) <= half_.x && std::abs(p.y) <= half_.y;
  }
  double area() const { return circle_ ? kPi * radius_ * radius_ : 4.0 * half_.x * half_.y; }

  // Where the piece may cross the window's edge, as fractions of it in (0, 1).
  std::vector<double> crossings(const Curve& c) const {
    std::vector<double> s;
    if (circle_) {
      circle_crossings(c, s);
    } else {
      for (double x : {-half_.x, half_.x}) line_crossings(c, 0, x, s);
      for (double y : {-half_.y, half_.y}) line_crossings(c, 1, y, s);
    }
    std::erase_if(s, [](double t) { return !(t > 0.0 && t < 1.0); });
    std::sort(s.begin(), s.end());
    return s;
  }

  // ½ ∫ x × dx along the window's edge from e to s, turning through `turn`
  // about the middle (negative: clockwise; beyond a full turn: round again).
  double along_edge(Vec2 e, Vec2 s, double turn) const {
    if (circle_) return 0.5 * radius_ * radius_ * turn;
    const std::vector<Vec2> path = counterclockwise_path(e, s);
    double green = 0.0, ccw_turn = 0.0;
    for (std::size_t k = 0; k + 1 < path.size(); ++k) {
      green += 0.5 * cross(path[k], path[k + 1]);
      ccw_turn += std::atan2(cross(path[k], path[k + 1]), dot(path[k], path[k + 1]));
    }
    return green + std::round((turn - ccw_turn) / (2.0 * kPi)) * area();
  }

 private:
  // Points of the arc's circle (or the segment) where coordinate `axis`
  // equals `value`.
  static void line_crossings(const Curve& c, int axis, double value, std::vector<double>& s) {
    const auto coordinate = [axis](Vec2 p) { return axis == 0 ? p.x : p.y; };
    if (!c.is_arc) {
      const double from = coordinate(c.a), to = coordinate(c.b);
      if (from != to) s.push_back((value - from) / (to - from));
      return;
    }
    const double q = (value - coordinate(c.c)) / c.r;
    if (!(std::abs(q) <= 1.0)) return;
    // cos u = q for x, sin u = q for y.
    const double base = axis == 0 ? std::acos(q) : std::asin(q);
    for (double u : axis == 0 ? std::array<double, 2>{base, -base} : std::array<double, 2>{base, kPi - base})
      s.push_back(arc_fraction(c, u));
  }

  void circle_crossings(const Curve& c, std::vector<double>& s) const {
    const double R2 = radius_ * radius_;
    if (!c.is_arc) {  // |a + t (b − a)|² = R²
      const Vec2 d = c.b - c.a;
      const double qa = norm2(d), qb = 2.0 * dot(c.a, d), qc = norm2(c.a) - R2;
      const double disc = qb * qb - 4.0 * qa * qc;
      if (qa == 0.0 || disc < 0.0) return;
      const double root = std::sqrt(disc);
      s.push_back((-qb - root) / (2.0 * qa));
      s.push_back((-qb + root) / (2.0 * qa));
      return;
    }
    // |c + r e(u)|² = R²: c · e(u) = (R² − |c|² − r²) / 2r.
    const double distance = norm(c.c);
    if (distance == 0.0) return;
    const double q = (R2 - norm2(c.c) - c.r * c.r) / (2.0 * c.r * distance);
    if (!(std::abs(q) <= 1.0)) return;
    const double towards = std::atan2(c.c.y, c.c.x), spread = std::acos(q);
    for (double u : {towards + spread, towards - spread}) s.push_back(arc_fraction(c, u));
  }

  // The fraction of the arc at which it reaches angle u (mod 2π); outside
  // [0, 1) when it does not.
  static double arc_fraction(const Curve& c, double u) {
    double t = std::fmod(c.du > 0.0 ? u - c.u0 : c.u0 - u, 2.0 * kPi);
    if (t < 0.0) t += 2.0 * kPi;
    return t / std::abs(c.du);
  }

  // Position along the rectangle's edge, counter-clockwise from its lower
  // left corner, of a point on (or next to) it.
  double perimeter_position(Vec2 p) const {
    const double w = 2.0 * half_.x, h = 2.0 * half_.y;
    const double to_bottom = std::abs(p.y + half_.y), to_right = std::abs(p.x - half_.x),
                 to_top = std::abs(p.y - half_.y), to_left = std::abs(p.x + half_.x);
    const double nearest = std::min({to_bottom, to_right, to_top, to_left});
    if (nearest == to_bottom) return std::clamp(p.x + half_.x, 0.0, w);
    if (nearest == to_right) return w + std::clamp(p.y + half_.y, 0.0, h);
    if (nearest == to_top) return w + h + std::clamp(half_.x - p.x, 0.0, w);
    return 2.0 * w + h + std::clamp(half_.y - p.y, 0.0, h);
  }

  // e, the corners met going counter-clockwise from e to s, and s.
  std::vector<Vec2> counterclockwise_path(Vec2 e, Vec2 s) const {
    const double w = 2.0 * half_.x, h = 2.0 * half_.y, length = 2.0 * (w + h);
    const std::array<Vec2, 4> corners{Vec2{half_.x, -half_.y}, half_, Vec2{-half_.x, half_.y}, -half_};
    const std::array<double, 4> corner_at{w, w + h, 2.0 * w + h, length};
    const double from = perimeter_position(e);
    double to = perimeter_position(s);
    if (to < from) to += length;
    std::vector<Vec2> path{e};
    for (int lap = 0; lap < 2; ++lap)
      for (std::size_t k = 0; k < 4; ++k) {
        const double at = corner_at[k] + lap * length;
        if (at > from && at < to) path.push_back(corners[k]);
      }
    path.push_back(s);
    return path;
  }

  bool circle_;
  Vec2 half_;
  double radius_;
};

// One loop's share of the area inside the window.
double loop_area_inside(const BoundaryLoop& loop, const Clip& clip, Vec2 middle) {
  std::vector<Curve> parts;
  std::vector<char> inside;
  for (const BoundaryPiece& piece : loop) {
    const Curve c = curve_of(piece, middle);
    double from = 0.0;
    std::vector<double> cuts = clip.crossings(c);
    cuts.push_back(1.0);
    for (double to : cuts) {
      if (to <= from) continue;
      parts.push_back(c.part(from, to));
      inside.push_back(clip.contains(c.at(0.5 * (from + to))));
      from = to;
    }
  }
  const std::size_t n = parts.size();
  if (n == 0) return 0.0;
  // Start where the loop enters the window, so that every stretch outside
  // is walked whole; a loop wholly outside is one stretch round to itself.
  std::size_t start = 0;
  while (start < n && !(inside[start] && !inside[(start + n - 1) % n])) ++start;
  if (start == n) {
    if (inside[0]) {
      double total = 0.0;
      for (const Curve& c : parts) total += c.green();
      return total;
    }
    double turn = 0.0;
    for (const Curve& c : parts) turn += c.turn();
    return clip.along_edge(parts[0].at(0.0), parts[0].at(0.0), turn);
  }
  double total = 0.0;
  for (std::size_t k = 0; k < n;) {
    const std::size_t i = (start + k) % n;
    if (inside[i]) {
      total += parts[i].green();
      ++k;
      continue;
    }
    const Vec2 exit = parts[i].at(0.0);
    double turn = 0.0;
    for (; k < n && !inside[(start + k) % n]; ++k) turn += parts[(start + k) % n].turn();
    total += clip.along_edge(exit, parts[(start + k + n - 1) % n].at(1.0), turn);
  }
  return total;
}

}  // namespace

double area_inside(const std::vector<BoundaryLoop>& loops, const Window& window) {
  const Clip clip(window);
  const Vec2 middle = window.middle();
  double total = 0.0;
  for (const BoundaryLoop& loop : loops) total += loop_area_inside(loop, clip, middle);
  return std::max(0.0, total);
}

}  // namespace sphero::analysis
