#include "engine/exact_sum.h"

#include <bit>
#include <cmath>
#include <limits>

namespace sphero {

void ExactSum::carry() {
  std::int64_t in = 0;
  for (int k = 0; k < kLimbs; ++k) {
    const std::int64_t v = limb_[k] + in;
    in = v >> 32;  // arithmetic: the floor of v / 2^32
    limb_[k] = v - in * (std::int64_t{1} << 32);
  }
  limb_[kLimbs - 1] += in * (std::int64_t{1} << 32);  // the last limb keeps the sign
  terms_ = 1;
}

void ExactSum::add(const ExactSum& other) {
  // A limb holds at most terms_ digits' worth; both bounds add.
  if (terms_ + other.terms_ >= kTermsBeforeCarry) carry();
  ExactSum o = other;
  if (terms_ + o.terms_ >= kTermsBeforeCarry) o.carry();
  for (int k = 0; k < kLimbs; ++k) limb_[k] += o.limb_[k];
  terms_ += o.terms_;
  not_finite_ += o.not_finite_;
}

// The magnitude of a sum, carried, and whether it is negative.
ExactSum ExactSum::magnitude(bool& negative) const {
  ExactSum s = *this;
  s.carry();
  negative = s.limb_[kLimbs - 1] < 0;
  if (negative) {
    for (std::int64_t& l : s.limb_) l = -l;
    s.carry();
  }
  return s;
}

double ExactSum::value() const {
  if (not_finite_) return std::numeric_limits<double>::quiet_NaN();
  bool negative = false;
  const ExactSum s = magnitude(negative);
  int top = kLimbs - 1;
  while (top >= 0 && s.limb_[top] == 0) --top;
  if (top < 0) return 0.0;
  if (top == kLimbs - 1 && s.limb_[top] >> 32) return negative ? -HUGE_VAL : HUGE_VAL;  // far beyond a double
  // The top three limbs (96 bits, the first of them not zero), shifted up
  // so that the leading one is bit 63 of `upper`, and a sticky bit for
  // all below: converting `upper` then rounds as the exact sum would (the
  // sticky bit lies under the rounding bit).
  const auto limb = [&](int k) { return k >= 0 ? static_cast<std::uint64_t>(s.limb_[k]) : std::uint64_t{0}; };
  const std::uint64_t high = (limb(top) << 32) | limb(top - 1), low = limb(top - 2);
  const int lead = std::countl_zero(high);  // below 32: the top limb is not zero
  std::uint64_t upper = (high << lead) | (lead ? low >> (32 - lead) : 0);
  bool sticky = ((low << lead) & 0xffffffffu) != 0;
  for (int k = top - 3; k >= 0 && !sticky; --k) sticky = s.limb_[k] != 0;
  if (sticky) upper |= 1;
  // `low`'s bit 0 weighs 2^(32(top − 2) − 1074); upper's is 32 − lead bits above it.
  const double magnitude = std::ldexp(static_cast<double>(upper), 32 * (top - 2) - 1074 + 32 - lead);
  return negative ? -magnitude : magnitude;
}

std::vector<double> ExactSum::parts() const {
  if (not_finite_) return {std::numeric_limits<double>::quiet_NaN()};
  bool negative = false;
  const ExactSum s = magnitude(negative);
  std::vector<double> out;
  for (int k = kLimbs - 1; k >= 0; --k)
    if (s.limb_[k]) out.push_back((negative ? -1.0 : 1.0) * std::ldexp(static_cast<double>(s.limb_[k]), 32 * k - 1074));
  return out;
}

ExactSum ExactSum::of_parts(const std::vector<double>& parts) {
  ExactSum s;
  for (double p : parts) s.add(p);
  return s;
}

std::vector<std::int64_t> ExactSum::carried() const {
  ExactSum s = *this;
  s.carry();
  std::vector<std::int64_t> out(s.limb_.begin(), s.limb_.end());
  out.push_back(s.not_finite_);
  return out;
}

ExactSum ExactSum::of_limbs(const std::int64_t* limbs, std::int64_t terms) {
  ExactSum s;
  for (int k = 0; k < kLimbs; ++k) s.limb_[k] = limbs[k];
  s.not_finite_ = limbs[kLimbs];
  s.terms_ = terms;
  if (s.terms_ >= kTermsBeforeCarry) s.carry();
  return s;
}

}  // namespace sphero
