#include "analysis/fields/coarse_graining_kernel.h"

#include <cmath>
#include <stdexcept>

namespace sphero::analysis {
namespace {

// Lucy's c over the standard deviation: ⟨x²⟩ = 5c²/56 under (1 + 3s)(1 − s)³.
const double kLucyCutoffOverWidth = std::sqrt(56.0 / 5.0);

}  // namespace

KernelKind kernel_kind_from_string(const std::string& name) {
  if (name == "gaussian") return KernelKind::gaussian;
  if (name == "lucy") return KernelKind::lucy;
  throw std::invalid_argument("expected gaussian or lucy, found '" + name + "'");
}

const char* to_string(KernelKind kind) { return kind == KernelKind::gaussian ? "gaussian" : "lucy"; }

double CoarseGrainingKernel::cutoff() const {
  return kind == KernelKind::gaussian ? gaussian_cutoff * width : kLucyCutoffOverWidth * width;
}

double CoarseGrainingKernel::operator()(double r_squared) const {
  const double c = cutoff();
  if (r_squared >= c * c) return 0.0;
  if (kind == KernelKind::gaussian)
    return std::exp(-0.5 * r_squared / (width * width)) - std::exp(-0.5 * gaussian_cutoff * gaussian_cutoff);
  const double s = std::sqrt(r_squared) / c, rest = 1.0 - s;
  return (1.0 + 3.0 * s) * rest * rest * rest;
}

double time_weight(double from_centre, double width) {
  const double d = from_centre / width;
  return std::abs(d) <= kTimeReach ? std::exp(-0.5 * d * d) : 0.0;
}

}  // namespace sphero::analysis
