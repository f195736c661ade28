#include "triangulation/polynomial.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace sphero {
namespace {

Polynomial from_roots(const std::vector<double>& roots, double scale) {
  Polynomial p = Polynomial::constant(scale);
  for (double r : roots) p = p * Polynomial::linear(-r, 1.0);
  return p;
}

// Σ |c_k| |t|^k: what rounding in evaluating p(t) is relative to.
double rounding_scale(const Polynomial& p, double t) {
  double scale = 0.0;
  for (int k = p.degree; k >= 0; --k) scale = scale * std::abs(t) + std::abs(p.c[static_cast<std::size_t>(k)]);
  return scale;
}

TEST(Polynomial, ShiftingTheOriginKeepsTheValues) {
  const Polynomial p = from_roots({0.3, -1.2, 2.5, 0.9}, 1.7);
  const Polynomial q = p.shifted(0.4);
  for (double s : {-1.0, 0.0, 0.25, 1.3}) EXPECT_NEAR(q(s), p(0.4 + s), 1e-12);
}

TEST(Polynomial, TheFirstOfTwoSimpleRootsIsTheEvent) {
  const auto t = first_root(from_roots({0.3, 0.7}, 1.0), 0.0, 1.0);
  ASSERT_TRUE(t);
  EXPECT_NEAR(*t, 0.3, 1e-12);
}

// A triangle that flattens for an instant and opens again is an event
// too: flipping it then leaves the triangulation valid either way.
TEST(Polynomial, ARootThatOnlyTouchesZeroIsAnEventToo) {
  const Polynomial p = from_roots({0.5, 0.5, 0.8}, -1.0);  // (t − 0.5)² (0.8 − t)
  ASSERT_GT(p(0.0), 0.0);
  const auto t = first_root(p, 0.0, 1.0);
  ASSERT_TRUE(t);
  EXPECT_NEAR(*t, 0.5, 1e-7);
  EXPECT_NEAR(*first_root(p, 0.6, 1.0), 0.8, 1e-12);
}

TEST(Polynomial, NoRootInTheIntervalNoEvent) {
  Polynomial p = Polynomial::linear(1.0, 0.0) * Polynomial::linear(1.0, 0.0);  // 1
  p.c[2] = 1.0;                                                                // t² + 1
  EXPECT_FALSE(first_root(p, 0.0, 1.0));
  EXPECT_FALSE(first_root(from_roots({1.5, 2.0}, 1.0), 0.0, 1.0));
  EXPECT_FALSE(first_root(from_roots({-0.5}, 1.0), 0.0, 1.0));
}

// Degree-8 polynomials with random real roots, some repeated: the event is
// the smallest root in the interval, as sharp as its multiplicity and the
// rounding of p allow (one that only touches zero may be passed over).
TEST(Polynomial, EventsMatchTheRootsOfRandomPolynomials) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> where(-0.5, 1.5);
  int checked = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<double> roots;
    for (int k = 0; k < 8; ++k) roots.push_back(k > 0 && random() % 5 == 0 ? roots.back() : where(random));
    std::sort(roots.begin(), roots.end());
    // Distinct roots closer than 1e-3 are a cluster that rounding blurs.
    bool separated = true;
    for (std::size_t k = 1; k < roots.size(); ++k)
      if (roots[k] != roots[k - 1] && roots[k] - roots[k - 1] < 1e-3) separated = false;
    if (!separated) continue;
    Polynomial p = from_roots(roots, 1.0);
    if (p(0.0) < 0.0) p = from_roots(roots, -1.0);
    if (std::abs(p(0.0)) < 1e-9) continue;
    // Where p changes sign it must be found; where it only touches zero
    // (an even root) rounding decides, and either answer is allowed.
    const auto t = first_root(p, 0.0, 1.0);
    bool explained = false;
    for (std::size_t k = 0; k < roots.size() && !explained;) {
      std::size_t same = k;
      while (same < roots.size() && roots[same] == roots[k]) ++same;
      const long multiplicity = static_cast<long>(same - k);
      const double r = roots[k];
      k = same;
      if (r <= 0.0 || r > 1.0) continue;
      // As close as rounding allows: p(t) ≈ a (t − r)^m near a root of
      // multiplicity m, a the product of the distances to the other roots,
      // so noise ε in p(t) moves it by (ε / |a|)^(1/m).
      double a = std::abs(p.c[static_cast<std::size_t>(p.degree)]);
      for (double other : roots)
        if (other != r) a *= std::abs(r - other);
      const double noise = 1e-14 * rounding_scale(p, r);
      const double tolerance = std::max(1e-9, std::pow(noise / a, 1.0 / static_cast<double>(multiplicity)));
      if (t && std::abs(*t - r) < tolerance) explained = true;
      if (multiplicity % 2 == 1) break;  // a sign change: the search may not pass it
    }
    const bool any_sign_change = std::any_of(roots.begin(), roots.end(), [&](double r) {
      return r > 0.0 && r <= 1.0 && std::count(roots.begin(), roots.end(), r) % 2 == 1;
    });
    if (!t) explained = !any_sign_change;
    EXPECT_TRUE(explained) << "trial " << trial << (t ? " found " + std::to_string(*t) : std::string(" found none"));
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace sphero
