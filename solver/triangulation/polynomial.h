// Real polynomials of low degree in time, and the first instant one changes
// sign: the certificates of a moving triangulation (a triangle's signed
// area, docs/MODEL.md §8) are polynomials in t whose first sign change
// is the next event.
#pragma once

#include <array>
#include <optional>

namespace sphero {

// Σ c[k] t^k, k ≤ degree; degree ≤ kMaxDegree.
struct Polynomial {
  static constexpr int kMaxDegree = 12;
  std::array<double, kMaxDegree + 1> c{};
  int degree = 0;

  static Polynomial constant(double value);
  static Polynomial linear(double at_zero, double slope);
  double operator()(double t) const;  // Horner
  Polynomial derivative() const;
  // q(s) = p(origin + s): the same polynomial about another origin.
  Polynomial shifted(double origin) const;
  // Drops leading coefficients that are zero.
  void trim();
};

Polynomial operator+(const Polynomial& a, const Polynomial& b);
Polynomial operator-(const Polynomial& a, const Polynomial& b);
// Throws std::length_error when the product's degree exceeds kMaxDegree.
Polynomial operator*(const Polynomial& a, const Polynomial& b);

// The first root of p in (low, high], or nullopt; p(low) > 0 is assumed (a
// certificate that holds now). No root where p changes sign is passed
// over; one where p only touches zero and turns back (an even root) is
// reported or not as rounding decides — for a triangle that flattens for
// an instant and opens again, a flip then and none are both right. The
// roots are isolated between those of the derivatives (Collins and Loos:
// no Euclidean remainders, which in floating point lose roots of
// polynomials with repeated ones); a simple root is refined by
// Newton's method, safeguarded by bisection, to about 1e-12 of the
// interval; a root of multiplicity m is only as sharp as rounding allows,
// about (1e-13)^(1/m) for coefficients of order one.
std::optional<double> first_root(const Polynomial& p, double low, double high);

}  // namespace sphero
