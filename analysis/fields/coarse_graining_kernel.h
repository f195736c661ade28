// The coarse-graining function φ of Goldhirsch (2010) and Weinhart et al.
// (2012) in 2D: a radial weight of width w, the standard deviation of each
// coordinate under it, so that the same w smooths alike whichever kernel is
// chosen. Values are unnormalised: the grid normalises each kernel on its
// own nodes (analysis/fields/field_grid.h), so that sums are exact.
#pragma once

#include <string>

namespace sphero::analysis {

enum class KernelKind { gaussian, lucy };

// "gaussian" or "lucy"; throws std::invalid_argument naming the choices.
KernelKind kernel_kind_from_string(const std::string& name);
const char* to_string(KernelKind kind);

// Gaussian exp(−r²/2w²) cut at `gaussian_cutoff` widths c and lowered by
// its value there, so that it falls to 0 continuously (a grain crossing the
// cutoff changes no field by a jump; at 3w its standard deviation is 0.94 w);
// Lucy's polynomial (1 + 3s)(1 − s)³ with s = r/c and c = √(56/5) w ≈
// 3.35 w, which gives it the standard deviation w.
struct CoarseGrainingKernel {
  KernelKind kind = KernelKind::gaussian;
  double width = 1.0;
  double gaussian_cutoff = 3.0;  // in widths

  double cutoff() const;  // the radius beyond which φ is 0
  double operator()(double r_squared) const;
};

// Coarse-graining in time: frames weighted by a Gaussian of width T (s) in
// their time from the centre's, cut at kTimeReach widths (weight 0 beyond).
inline constexpr double kTimeReach = 3.0;
double time_weight(double from_centre, double width);

}  // namespace sphero::analysis
