#include "analysis/fields/field_grid.h"

#include <algorithm>
#include <cmath>

namespace sphero::analysis {
namespace {

constexpr double kMostPiecesAlongALine = 4096.0;

// A lattice index's node along an axis of n nodes, or −1 off a bounded axis.
long long wrapped(long long k, int n, bool periodic) {
  if (periodic) return ((k % n) + n) % n;
  return k >= 0 && k < n ? k : -1;
}

// A coordinate brought into the period [origin, origin + n h) of a periodic
// axis, so that lattice indices stay small whatever the coordinate.
double into_period(double x, double origin, double h, int n, bool periodic) {
  if (!periodic) return x;
  const double period = h * n;
  return origin + (x - origin) - period * std::floor((x - origin) / period);
}

}  // namespace

const std::vector<std::pair<std::size_t, double>>& KernelStencil::at(Vec2 source) {
  weights_.clear();
  const Vec2 period = grid_.image_period;
  for (int kx = period.x > 0.0 ? -1 : 0; kx <= (period.x > 0.0 ? 1 : 0); ++kx)
    for (int ky = period.y > 0.0 ? -1 : 0; ky <= (period.y > 0.0 ? 1 : 0); ++ky)
      add_image(source + Vec2{kx * period.x, ky * period.y});
  return weights_;
}

// Appends one image's normalised weights.
void KernelStencil::add_image(Vec2 source) {
  const FieldGrid& g = grid_;
  const double c = kernel_.cutoff();
  const Vec2 s{into_period(source.x, g.origin.x, g.hx, g.nx, g.periodic[0]),
               into_period(source.y, g.origin.y, g.hy, g.ny, g.periodic[1])};
  const double i_low = std::ceil((s.x - c - g.origin.x) / g.hx), i_high = std::floor((s.x + c - g.origin.x) / g.hx);
  const double j_low = std::ceil((s.y - c - g.origin.y) / g.hy), j_high = std::floor((s.y + c - g.origin.y) / g.hy);
  // A source whose kernel misses a bounded axis entirely gives nothing.
  if ((!g.periodic[0] && (i_high < 0.0 || i_low >= g.nx)) || (!g.periodic[1] && (j_high < 0.0 || j_low >= g.ny)))
    return;
  const auto i0 = static_cast<long long>(i_low), i1 = static_cast<long long>(i_high);
  const auto j0 = static_cast<long long>(j_low), j1 = static_cast<long long>(j_high);
  const bool gaussian = kernel_.kind == KernelKind::gaussian;
  const double two_w2 = 2.0 * kernel_.width * kernel_.width;
  const double floor = gaussian ? std::exp(-c * c / two_w2) : 0.0;  // the Gaussian's value at the cutoff
  // The Gaussian is a product of one factor per column and one per row
  // (less its value at the cutoff).
  column_factor_.resize(static_cast<std::size_t>(std::max(0LL, i1 - i0 + 1)));
  for (long long i = i0; gaussian && i <= i1; ++i) {
    const double dx = g.origin.x + static_cast<double>(i) * g.hx - s.x;
    column_factor_[static_cast<std::size_t>(i - i0)] = std::exp(-dx * dx / two_w2);
  }
  const std::size_t first = weights_.size();
  double total = 0.0;
  for (long long j = j0; j <= j1; ++j) {
    const double dy = g.origin.y + static_cast<double>(j) * g.hy - s.y;
    const long long row = wrapped(j, g.ny, g.periodic[1]);
    const double row_factor = gaussian ? std::exp(-dy * dy / two_w2) : 0.0;
    for (long long i = i0; i <= i1; ++i) {
      const double dx = g.origin.x + static_cast<double>(i) * g.hx - s.x;
      const double r2 = dx * dx + dy * dy;
      if (r2 >= c * c) continue;
      const double v = gaussian ? column_factor_[static_cast<std::size_t>(i - i0)] * row_factor - floor : kernel_(r2);
      total += v;
      const long long column = wrapped(i, g.nx, g.periodic[0]);
      if (row >= 0 && column >= 0) weights_.push_back({g.index(static_cast<int>(column), static_cast<int>(row)), v});
    }
  }
  if (total <= 0.0) {
    weights_.resize(first);
    return;
  }
  const double scale = 1.0 / (total * g.cell_area());
  for (std::size_t k = first; k < weights_.size(); ++k) weights_[k].second *= scale;
}

const std::vector<std::pair<std::size_t, double>>& KernelStencil::along(Vec2 a, Vec2 b) {
  line_.clear();
  const double step = std::min(0.25 * kernel_.width, 0.5 * std::min(grid_.hx, grid_.hy));
  // A contact line is a grain or two long; a longer one (a damaged frame)
  // is sampled more coarsely rather than at unbounded cost.
  const int pieces = static_cast<int>(std::clamp(std::ceil(norm(b - a) / step), 1.0, kMostPiecesAlongALine));
  if (line_sum_.size() != grid_.nodes()) line_sum_.assign(grid_.nodes(), 0.0);
  for (int k = 0; k < pieces; ++k) {
    const Vec2 middle = a + ((k + 0.5) / pieces) * (b - a);
    for (const auto& [node, w] : at(middle)) {
      if (line_sum_[node] == 0.0) line_.push_back({node, 0.0});
      line_sum_[node] += w / pieces;
    }
  }
  for (auto& [node, w] : line_) {
    w = line_sum_[node];
    line_sum_[node] = 0.0;
  }
  return line_;
}

}  // namespace sphero::analysis
