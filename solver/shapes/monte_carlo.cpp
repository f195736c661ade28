#include "shapes/monte_carlo.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "geometry/polygon.h"
#include "geometry/segment.h"
#include "geometry/uniform.h"

namespace sphero {
namespace {

double radical_inverse(std::uint64_t index, std::uint64_t base) {
  double inverse = 0.0, digit_weight = 1.0 / static_cast<double>(base);
  for (; index > 0; index /= base, digit_weight /= static_cast<double>(base))
    inverse += static_cast<double>(index % base) * digit_weight;
  return inverse;
}

// Uniform in [0, 1) from the raw generator output, identical on every
// platform (std::uniform_real_distribution is not specified bit for bit).

double standard_error(const std::vector<double>& samples) {
  const double n = static_cast<double>(samples.size());
  if (samples.size() < 2) return 0.0;
  double mean = 0.0;
  for (double s : samples) mean += s;
  mean /= n;
  double variance = 0.0;
  for (double s : samples) variance += (s - mean) * (s - mean);
  return std::sqrt(variance / (n - 1.0) / n);
}

double mean_of(const std::vector<double>& samples) {
  double sum = 0.0;
  for (double s : samples) sum += s;
  return sum / static_cast<double>(samples.size());
}

}  // namespace

bool contains(const Shape& shape, Vec2 p) {
  const double r2 = shape.radius * shape.radius;
  if (shape.vertices.size() == 1) return norm2(p - shape.vertices[0]) <= r2;
  for (int i = 0; i < shape.edge_count(); ++i) {
    const Vec2 q = closest_point_on_segment(p, shape.edge_start(i), shape.edge_end(i));
    if (norm2(p - q) <= r2) return true;
  }
  return shape.is_closed() && point_in_polygon(p, shape.vertices);
}

MonteCarloEstimate monte_carlo_mass_properties(const Shape& shape, int points_per_replica, int replicas,
                                               std::uint64_t seed) {
  Vec2 low = shape.vertices[0], high = shape.vertices[0];
  for (Vec2 v : shape.vertices) {
    low = {std::min(low.x, v.x), std::min(low.y, v.y)};
    high = {std::max(high.x, v.x), std::max(high.y, v.y)};
  }
  low -= Vec2{shape.radius, shape.radius};
  high += Vec2{shape.radius, shape.radius};
  const Vec2 size = high - low;
  const double box_area = size.x * size.y;

  std::mt19937_64 generator(seed);
  std::vector<double> areas, cxs, cys, polar_moments;
  for (int replica = 0; replica < replicas; ++replica) {
    const double shift_x = unit_uniform(generator), shift_y = unit_uniform(generator);
    double hits = 0.0, sum_x = 0.0, sum_y = 0.0, sum_r2 = 0.0;
    for (int k = 0; k < points_per_replica; ++k) {
      const double u = std::fmod(radical_inverse(k + 1, 2) + shift_x, 1.0);
      const double v = std::fmod(radical_inverse(k + 1, 3) + shift_y, 1.0);
      const Vec2 p{low.x + u * size.x, low.y + v * size.y};
      if (!contains(shape, p)) continue;
      hits += 1.0;
      sum_x += p.x;
      sum_y += p.y;
      sum_r2 += norm2(p);
    }
    const double weight = box_area / points_per_replica;
    const double area = hits * weight;
    const Vec2 centroid{sum_x / hits, sum_y / hits};
    areas.push_back(area);
    cxs.push_back(centroid.x);
    cys.push_back(centroid.y);
    polar_moments.push_back(sum_r2 * weight - area * norm2(centroid));
  }
  MonteCarloEstimate estimate;
  estimate.value.area = mean_of(areas);
  estimate.value.centroid = {mean_of(cxs), mean_of(cys)};
  estimate.value.polar_moment = mean_of(polar_moments);
  estimate.value.bounding_radius = bounding_radius(shape, estimate.value.centroid);
  estimate.area_error = standard_error(areas);
  estimate.centroid_error = std::max(standard_error(cxs), standard_error(cys));
  estimate.polar_moment_error = standard_error(polar_moments);
  return estimate;
}

}  // namespace sphero
