#include "triangulation/polynomial.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace sphero {
namespace {

int sign_of(double v) { return (v > 0.0) - (v < 0.0); }

// The root of p in [a, b], where p is monotone and p(a), p(b) differ in
// sign (or p(b) is zero): Newton steps that stay in the bracket,
// bisection where they would leave it.
double refine(const Polynomial& p, double a, double b) {
  const Polynomial slope = p.derivative();
  const int sign_a = sign_of(p(a));
  const double tolerance =
      1e-12 * (b - a) + 4.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(a), std::abs(b));
  double t = 0.5 * (a + b);
  for (int iteration = 0; iteration < 200; ++iteration) {
    const double value = p(t);
    if (sign_of(value) == sign_a) a = t;
    else b = t;
    if (b - a <= tolerance) break;
    const double d = slope(t);
    double next = d != 0.0 ? t - value / d : 0.5 * (a + b);
    if (!(next > a && next < b)) next = 0.5 * (a + b);
    if (std::abs(next - t) <= tolerance) return next;
    t = next;
  }
  return b;
}

// The points in (a, b) where p changes sign, in increasing order, after
// Collins and Loos: p is monotone between consecutive sign changes of its
// derivative, found the same way, so each such piece holds at most one
// root and a sign test at its ends says whether it does. A root where p
// only touches zero shows as a change when rounding puts p(t) at or below
// zero there, and not otherwise.
void sign_changes(const Polynomial& p, double a, double b, std::vector<double>& out) {
  if (p.degree == 0) return;
  if (p.degree == 1) {
    const double root = -p.c[0] / p.c[1];
    if (root > a && root < b) out.push_back(root);
    return;
  }
  std::vector<double> ends{a};
  Polynomial slope = p.derivative();
  slope.trim();
  sign_changes(slope, a, b, ends);
  ends.push_back(b);
  for (std::size_t k = 0; k + 1 < ends.size(); ++k) {
    const double left = ends[k], right = ends[k + 1];
    const int at_left = sign_of(p(left)), at_right = sign_of(p(right));
    if (at_left == 0 && k > 0 && (out.empty() || out.back() < left))
      out.push_back(left);  // touches zero at an extremum
    if (at_left != 0 && at_right != 0 && at_left != at_right) out.push_back(refine(p, left, right));
  }
}

}  // namespace

Polynomial Polynomial::constant(double value) {
  Polynomial p;
  p.c[0] = value;
  return p;
}

Polynomial Polynomial::linear(double at_zero, double slope) {
  Polynomial p;
  p.c[0] = at_zero;
  p.c[1] = slope;
  p.degree = 1;
  return p;
}

double Polynomial::operator()(double t) const {
  double value = c[static_cast<std::size_t>(degree)];
  for (int k = degree - 1; k >= 0; --k) value = value * t + c[static_cast<std::size_t>(k)];
  return value;
}

Polynomial Polynomial::derivative() const {
  Polynomial d;
  d.degree = std::max(0, degree - 1);
  for (int k = 1; k <= degree; ++k) d.c[static_cast<std::size_t>(k - 1)] = k * c[static_cast<std::size_t>(k)];
  return d;
}

// Horner's scheme applied degree times (synthetic division by t − origin).
Polynomial Polynomial::shifted(double origin) const {
  Polynomial q = *this;
  for (int i = 0; i < degree; ++i)
    for (int k = degree - 1; k >= i; --k)
      q.c[static_cast<std::size_t>(k)] += origin * q.c[static_cast<std::size_t>(k + 1)];
  return q;
}

void Polynomial::trim() {
  while (degree > 0 && c[static_cast<std::size_t>(degree)] == 0.0) --degree;
}

Polynomial operator+(const Polynomial& a, const Polynomial& b) {
  Polynomial s;
  s.degree = std::max(a.degree, b.degree);
  for (int k = 0; k <= s.degree; ++k)
    s.c[static_cast<std::size_t>(k)] = a.c[static_cast<std::size_t>(k)] + b.c[static_cast<std::size_t>(k)];
  return s;
}

Polynomial operator-(const Polynomial& a, const Polynomial& b) {
  Polynomial s;
  s.degree = std::max(a.degree, b.degree);
  for (int k = 0; k <= s.degree; ++k)
    s.c[static_cast<std::size_t>(k)] = a.c[static_cast<std::size_t>(k)] - b.c[static_cast<std::size_t>(k)];
  return s;
}

Polynomial operator*(const Polynomial& a, const Polynomial& b) {
  if (a.degree + b.degree > Polynomial::kMaxDegree) throw std::length_error("polynomial degree above 12");
  Polynomial p;
  p.degree = a.degree + b.degree;
  for (int i = 0; i <= a.degree; ++i)
    for (int j = 0; j <= b.degree; ++j)
      p.c[static_cast<std::size_t>(i + j)] += a.c[static_cast<std::size_t>(i)] * b.c[static_cast<std::size_t>(j)];
  return p;
}

std::optional<double> first_root(const Polynomial& p, double low, double high) {
  Polynomial q = p;
  q.trim();
  if (q.degree == 0 || !(high > low)) return std::nullopt;
  // Most certificates are far from zero: a bound on how much p can fall
  // over the interval settles them without looking for roots.
  const Polynomial about_low = q.shifted(low);
  const double width = high - low;
  double fall = 0.0, power = 1.0;
  for (int k = 1; k <= q.degree; ++k) fall += std::abs(about_low.c[static_cast<std::size_t>(k)]) * (power *= width);
  if (about_low.c[0] - fall > 0.0) return std::nullopt;
  std::vector<double> roots;
  sign_changes(q, low, high, roots);
  if (!roots.empty()) return roots.front();
  if (q(high) <= 0.0) return high;
  return std::nullopt;
}

}  // namespace sphero
