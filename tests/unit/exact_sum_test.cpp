#include "engine/exact_sum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace sphero {
namespace {

double sum_of(const std::vector<double>& terms) {
  ExactSum s;
  for (double t : terms) s.add(t);
  return s.value();
}

// Terms of every sign over many decades, with cancellations, subnormals
// and the largest doubles' neighbours.
std::vector<double> awkward_terms(std::mt19937_64& random, std::size_t n) {
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-60, 60);
  std::vector<double> terms;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = std::ldexp(mantissa(random), exponent(random));
    terms.push_back(t);
    if (i % 7 == 0) terms.push_back(-t);  // exact cancellation
  }
  terms.push_back(4.9e-324), terms.push_back(-1e-310), terms.push_back(1e300);
  terms.push_back(-1e300);
  return terms;
}

TEST(ExactSum, TwoTermsRoundAsTheHardwareAdds) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-1070, 1000), gap(0, 70);
  for (int trial = 0; trial < 200000; ++trial) {
    const int e = exponent(random);
    const double a = std::ldexp(mantissa(random), e), b = std::ldexp(mantissa(random), e - gap(random));
    ASSERT_EQ(sum_of({a, b}), a + b) << a << " + " << b;
  }
  // A tie rounds to even: 0.1 + 0.2 is exactly halfway between two doubles.
  EXPECT_EQ(sum_of({0.1, 0.2}), 0.1 + 0.2);
  EXPECT_EQ(sum_of({1.0, std::ldexp(1.0, -53)}), 1.0);
  EXPECT_EQ(sum_of({1.0, std::ldexp(1.0, -53), std::ldexp(1.0, -160)}), std::nextafter(1.0, 2.0));
}

TEST(ExactSum, IsTheSameBitsInAnyOrderAndGrouping) {
  std::mt19937_64 random(11);
  std::vector<double> terms = awkward_terms(random, 20000);
  const double forward = sum_of(terms);
  double naive = 0.0;  // without ±1e300, which absorb everything between them in a plain sum
  for (double t : terms)
    if (std::abs(t) < 1e299) naive += t;
  for (int shuffle = 0; shuffle < 5; ++shuffle) {
    std::shuffle(terms.begin(), terms.end(), random);
    EXPECT_EQ(sum_of(terms), forward);
    // In parts of uneven sizes, added part by part.
    ExactSum whole;
    std::size_t at = 0;
    for (std::size_t size = 1; at < terms.size(); size = size * 3 + 1) {
      ExactSum part;
      for (std::size_t k = at; k < std::min(terms.size(), at + size); ++k) part.add(terms[k]);
      whole.add(part);
      at += size;
    }
    EXPECT_EQ(whole.value(), forward);
  }
  EXPECT_NEAR(forward, naive, 1e-12 * std::abs(forward) + 1e-9);
}

TEST(ExactSum, KeepsWhatRoundingEachAdditionWouldLose) {
  // 1e16 + 1 − 1e16, and ten thousand times 0.1 (exactly 0.1's double times 10^4).
  EXPECT_EQ(sum_of({1e16, 1.0, -1e16}), 1.0);
  std::vector<double> tenths(10000, 0.1);
  EXPECT_EQ(sum_of(tenths), 0.1 * 10000.0);  // 0.1·10^4 is exact in 67 bits, rounded once
  EXPECT_EQ(sum_of({-3.5, 1.25}), -2.25);
  EXPECT_EQ(sum_of({}), 0.0);
  EXPECT_EQ(sum_of({1e-320, 1e-320}), 2e-320);
}

TEST(ExactSum, PartsAndCarriedLimbsGiveTheSameSumBack) {
  std::mt19937_64 random(3);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> terms = awkward_terms(random, 200);
    if (trial % 2) terms.push_back(-1e30);  // negative totals too
    ExactSum s;
    for (double t : terms) s.add(t);
    const ExactSum again = ExactSum::of_parts(s.parts());
    EXPECT_EQ(again.value(), s.value());
    EXPECT_EQ(again.parts(), s.parts());
    for (double p : s.parts()) EXPECT_TRUE(std::isfinite(p));
    // Split in three "ranks", reduced by adding the carried integers.
    ExactSum rank[3];
    for (std::size_t k = 0; k < terms.size(); ++k) rank[k % 3].add(terms[k]);
    std::vector<std::int64_t> total(ExactSum::kCarried, 0);
    for (const ExactSum& r : rank) {
      const std::vector<std::int64_t> c = r.carried();
      for (int j = 0; j < ExactSum::kCarried; ++j) total[static_cast<std::size_t>(j)] += c[static_cast<std::size_t>(j)];
    }
    EXPECT_EQ(ExactSum::of_carried(total.data()).value(), s.value());
  }
}

TEST(ExactSum, CarriesBeforeALimbCouldOverflow) {
  // Limbs at the bound of 2^30 terms' digits, as a device's chunks could
  // hand them over: adding more carries first.
  std::vector<std::int64_t> limbs(ExactSum::kCarried, 0);
  limbs[40] = (std::int64_t{1} << 30) * 0xffffffffLL;
  ExactSum s = ExactSum::of_limbs(limbs.data(), std::int64_t{1} << 30);
  const double before = s.value();
  for (int k = 0; k < 1000; ++k) s.add(std::ldexp(1.0, 32 * 40 - 1074 + 31));
  EXPECT_EQ(s.value(), before + 1000.0 * std::ldexp(1.0, 32 * 40 - 1074 + 31));
  EXPECT_EQ(before, std::ldexp(static_cast<double>((std::int64_t{1} << 30) * 0xffffffffLL), 32 * 40 - 1074));
}

TEST(ExactSum, ATermNotFiniteMakesItNaNAndTooLargeAnInfinity) {
  EXPECT_TRUE(std::isnan(sum_of({1.0, std::numeric_limits<double>::infinity()})));
  EXPECT_TRUE(std::isnan(sum_of({std::numeric_limits<double>::quiet_NaN(), 2.0})));
  EXPECT_EQ(sum_of({1.7e308, 1.7e308}), HUGE_VAL);
  EXPECT_EQ(sum_of({-1.7e308, -1.7e308}), -HUGE_VAL);
  EXPECT_EQ(sum_of({1.7e308, 1.7e308, -1.7e308}), 1.7e308);  // the excess is kept, not lost
}

}  // namespace
}  // namespace sphero
