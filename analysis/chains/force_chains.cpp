#include "analysis/chains/force_chains.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <tuple>

namespace sphero::analysis {

std::string_view to_string(ChainLinks links) {
  return links == ChainLinks::ahead_and_behind ? "ahead-and-behind" : "two-best-aligned";
}

ChainLinks chain_links_from_string(std::string_view word) {
  if (word == "ahead-and-behind") return ChainLinks::ahead_and_behind;
  if (word == "two-best-aligned") return ChainLinks::two_best_aligned;
  throw std::invalid_argument("unknown chain links '" + std::string(word) +
                              "': use ahead-and-behind (Peters et al. 2005) or two-best-aligned");
}

namespace {

// A possible link, with how well it aligns at each end and on which side of
// each end's major direction it leaves (+1 ahead, −1 behind).
struct Link {
  int a, b;
  Vec2 branch;  // a to b
  double alignment_a, alignment_b;
  int side_a, side_b;
};

// Candidates in contact whose contact direction lies within the tolerance
// of both major directions.
std::vector<Link> possible_links(const std::vector<Stress>& stress, const std::vector<double>& major, double mean,
                                 const std::vector<ParticleContact>& contacts, double tolerance_degrees) {
  const double cos_tolerance = std::cos(tolerance_degrees * std::numbers::pi / 180.0);
  // "Exceeds the mean" beyond round-off: equal stresses computed in a
  // different order must not turn into candidates.
  const double threshold = mean + 1e-9 * std::abs(mean);
  std::vector<Link> links;
  for (const ParticleContact& c : contacts) {
    const auto ia = static_cast<std::size_t>(c.a), ib = static_cast<std::size_t>(c.b);
    if (!(major[ia] > threshold && major[ib] > threshold)) continue;
    const double length = norm(c.branch);
    if (length == 0.0) continue;
    const Vec2 u = c.branch / length;
    const double toward_a = dot(u, stress[ia].major_direction()), toward_b = dot(-u, stress[ib].major_direction());
    if (std::abs(toward_a) >= cos_tolerance && std::abs(toward_b) >= cos_tolerance)
      links.push_back({c.a, c.b, c.branch, std::abs(toward_a), std::abs(toward_b), toward_a > 0.0 ? 1 : -1,
                       toward_b > 0.0 ? 1 : -1});
  }
  return links;
}

// Per particle, the links it keeps; returns how many ends keep each link.
std::vector<int> kept_ends(const std::vector<Link>& links, int n, ChainLinks rule) {
  // Per particle: (side, −alignment, link), sorted: best first on each side.
  std::vector<std::vector<std::tuple<int, double, int>>> ranked(static_cast<std::size_t>(n));
  const bool by_side = rule == ChainLinks::ahead_and_behind;
  for (int k = 0; k < static_cast<int>(links.size()); ++k) {
    const Link& l = links[static_cast<std::size_t>(k)];
    ranked[static_cast<std::size_t>(l.a)].push_back({by_side ? l.side_a : 0, -l.alignment_a, k});
    ranked[static_cast<std::size_t>(l.b)].push_back({by_side ? l.side_b : 0, -l.alignment_b, k});
  }
  std::vector<int> kept_by(links.size(), 0);
  for (auto& r : ranked) {
    std::sort(r.begin(), r.end());
    for (std::size_t k = 0; k < r.size(); ++k) {
      // By side: the first of each side; otherwise the first two.
      const bool kept = by_side ? (k == 0 || std::get<0>(r[k]) != std::get<0>(r[k - 1])) : k < 2;
      if (kept) ++kept_by[static_cast<std::size_t>(std::get<2>(r[k]))];
    }
  }
  return kept_by;
}

// The chains as paths of the graph of kept links: each component walked
// from an end (degree 1), or from anywhere on a ring.
std::vector<ForceChain> walk_chains(const std::vector<Link>& links, const std::vector<int>& kept_by, int n) {
  std::vector<std::vector<std::pair<int, Vec2>>> next(static_cast<std::size_t>(n));  // neighbour, branch to it
  for (std::size_t k = 0; k < links.size(); ++k) {
    if (kept_by[k] != 2) continue;
    next[static_cast<std::size_t>(links[k].a)].push_back({links[k].b, links[k].branch});
    next[static_cast<std::size_t>(links[k].b)].push_back({links[k].a, -links[k].branch});
  }
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  const auto walk = [&](int start) {
    ForceChain chain;
    Vec2 end_to_end;
    int previous = -1, current = start;
    while (current >= 0 && !seen[static_cast<std::size_t>(current)]) {
      seen[static_cast<std::size_t>(current)] = true;
      chain.particles.push_back(current);
      int step = -1;
      for (auto [other, branch] : next[static_cast<std::size_t>(current)])
        if (other != previous && !seen[static_cast<std::size_t>(other)]) {
          step = other;
          chain.length += norm(branch);
          end_to_end += branch;
          break;
        }
      previous = current;
      current = step;
    }
    // An axis, not an arrow: x >= 0.
    if (end_to_end.x < 0.0 || (end_to_end.x == 0.0 && end_to_end.y < 0.0)) end_to_end = -end_to_end;
    chain.orientation = norm(end_to_end) > 0.0 ? end_to_end / norm(end_to_end) : Vec2{};
    return chain;
  };
  std::vector<ForceChain> found;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < n; ++i) {
      const std::size_t degree = next[static_cast<std::size_t>(i)].size();
      if (seen[static_cast<std::size_t>(i)] || degree == 0 || (pass == 0 && degree != 1)) continue;
      found.push_back(walk(i));
    }
  return found;
}

}  // namespace

ChainStatistics find_force_chains(const std::vector<Stress>& stress, const std::vector<ParticleContact>& contacts,
                                  double tolerance_degrees, ChainLinks rule) {
  const int n = static_cast<int>(stress.size());
  ChainStatistics out;
  out.chain_of.assign(static_cast<std::size_t>(n), -1);
  if (n == 0) return out;
  std::vector<double> major(static_cast<std::size_t>(n));
  double mean = 0.0;
  for (int i = 0; i < n; ++i)
    mean += major[static_cast<std::size_t>(i)] = stress[static_cast<std::size_t>(i)].principal()[0];
  mean /= n;
  const std::vector<Link> links = possible_links(stress, major, mean, contacts, tolerance_degrees);
  std::vector<ForceChain> found = walk_chains(links, kept_ends(links, n, rule), n);
  double sum_cos = 0.0, sum_sin = 0.0;
  int in_chains = 0;
  for (ForceChain& chain : found) {
    if (chain.particles.size() < 3) continue;
    for (int p : chain.particles) chain.mean_stress += major[static_cast<std::size_t>(p)];
    chain.mean_stress /= static_cast<double>(chain.particles.size());
    const int index = static_cast<int>(out.chains.size());
    for (int p : chain.particles) out.chain_of[static_cast<std::size_t>(p)] = index;
    in_chains += static_cast<int>(chain.particles.size());
    // Axes average by their doubled angle.
    const double angle = std::atan2(chain.orientation.y, chain.orientation.x);
    sum_cos += std::cos(2.0 * angle);
    sum_sin += std::sin(2.0 * angle);
    out.chains.push_back(std::move(chain));
  }
  out.fraction_in_chains = static_cast<double>(in_chains) / n;
  if (!out.chains.empty()) {
    const double degrees = 0.5 * std::atan2(sum_sin, sum_cos) * 180.0 / std::numbers::pi;
    out.mean_orientation_degrees = degrees < 0.0 ? degrees + 180.0 : degrees;
  }
  return out;
}

double axis_degrees(Vec2 axis) {
  const double degrees = std::atan2(axis.y, axis.x) * 180.0 / std::numbers::pi;
  if (degrees < 0.0) return degrees + 180.0;
  return degrees >= 180.0 ? degrees - 180.0 : degrees;
}

}  // namespace sphero::analysis
