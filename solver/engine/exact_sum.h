// A sum of doubles kept exactly, so that its rounded value is the same bits
// in whatever order, grouping or number of parts (threads, MPI ranks, a
// device's chunks) the terms were added: what makes the energy ledger
// independent of how a run is shared out (docs/MODEL.md §2, "Energy").
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace sphero {

class ExactSum {
 public:
  // Digits of 32 bits held in 64-bit limbs: limb k weighs 2^(32k − 1074),
  // so that every finite double, subnormals included, lands in three
  // neighbouring limbs, and a limb takes 2^30 terms before it must carry.
  static constexpr int kLimbs = 68;

  ExactSum() = default;
  explicit ExactSum(double x) { add(x); }

  void add(double x) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    int exponent = static_cast<int>((bits >> 52) & 0x7ff);
    std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
    if (exponent == 0x7ff) {
      ++not_finite_;  // a NaN or an infinity makes the value NaN
      return;
    }
    if (exponent == 0) {
      if (mantissa == 0) return;
      exponent = 1;
    } else {
      mantissa |= std::uint64_t{1} << 52;
    }
    const int position = exponent - 1, k = position >> 5, shift = position & 31;
    const std::uint64_t low = mantissa << shift, high = shift ? mantissa >> (64 - shift) : 0;
    const auto digit0 = static_cast<std::int64_t>(low & 0xffffffffu), digit1 = static_cast<std::int64_t>(low >> 32),
               digit2 = static_cast<std::int64_t>(high);
    if (bits >> 63) {
      limb_[k] -= digit0, limb_[k + 1] -= digit1, limb_[k + 2] -= digit2;
    } else {
      limb_[k] += digit0, limb_[k + 1] += digit1, limb_[k + 2] += digit2;
    }
    if (++terms_ == kTermsBeforeCarry) carry();
  }
  void add(const ExactSum& other);
  // The exact sum rounded to the nearest double (ties to even; an infinity
  // where it overflows, NaN where a term was not finite).
  double value() const;

  // The sum as doubles whose exact total it is (none for zero), for files:
  // adding them back gives the same sum.
  std::vector<double> parts() const;
  static ExactSum of_parts(const std::vector<double>& parts);
  // The limbs carried, then the count of terms not finite (kCarried
  // integers), for a reduction across MPI ranks: add such vectors element
  // by element (up to 2^30 of them) and read the sum back.
  std::vector<std::int64_t> carried() const;
  static ExactSum of_carried(const std::int64_t* carried) { return of_limbs(carried, kTermsBeforeCarry / 2); }
  // Limbs filled as add() fills them (kCarried integers, data/opencl/
  // exact_sum.cl does it on a device) with at most `terms` terms (below
  // 2^31), or that many carried sums added.
  static ExactSum of_limbs(const std::int64_t* limbs, std::int64_t terms);
  static constexpr int kCarried = kLimbs + 1;  // the limbs, then the count of terms not finite

 private:
  static constexpr std::int64_t kTermsBeforeCarry = std::int64_t{1} << 30;
  void carry();  // every limb into [0, 2^32) but the last, which keeps the sign
  ExactSum magnitude(bool& negative) const;

  std::array<std::int64_t, kLimbs> limb_{};
  std::int64_t terms_ = 0;  // terms (or their bound) since the limbs last carried
  std::int64_t not_finite_ = 0;
};

}  // namespace sphero
