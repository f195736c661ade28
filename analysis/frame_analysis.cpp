#include "analysis/frame_analysis.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <stdexcept>

namespace sphero::analysis {

bool Window::contains(Vec2 p) const {
  if (kind == Kind::circle) return norm(p - centre) <= radius;
  return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
}

double Window::area() const {
  return kind == Kind::circle ? std::numbers::pi * radius * radius : (x1 - x0) * (y1 - y0);
}

FrameSummary analyze_frame(const FrameData& frame, Window window, bool exclude_rattlers) {
  if (window.kind == Window::Kind::bounding_box) {
    window.kind = Window::Kind::rectangle;
    window.x0 = window.y0 = INFINITY;
    window.x1 = window.y1 = -INFINITY;
    for (const auto& outline : frame.outlines)
      for (Vec2 p : outline) {
        window.x0 = std::min(window.x0, p.x), window.y0 = std::min(window.y0, p.y);
        window.x1 = std::max(window.x1, p.x), window.y1 = std::max(window.y1, p.y);
      }
  }
  if (!(window.area() > 0.0)) throw std::invalid_argument("the analysis window has no area");
  FrameSummary s;
  s.time = frame.time;
  std::vector<Stress> stress;
  std::vector<double> area;
  std::map<int, int> index_of_body;  // run body index → particle index in this frame
  double solid = 0.0, contacts = 0.0;
  for (std::size_t i = 0; i < frame.particles.size(); ++i) {
    const ParticleRecord& p = frame.particles[i];
    const Stress sigma{p.stress[0], p.stress[1], p.stress[2], p.stress[3]};
    index_of_body[p.id] = static_cast<int>(stress.size());
    stress.push_back(sigma);
    area.push_back(p.area);
    if (!window.contains(p.centre)) continue;
    s.stress += sigma.scaled(p.area);
    solid += p.area;
    ++s.particles;
    if (p.coordination < 2) ++s.rattlers;
    if (!(exclude_rattlers && p.coordination < 2)) contacts += p.coordination;
  }
  s.stress = s.stress.scaled(1.0 / window.area());
  s.pressure = s.stress.pressure();
  s.deviator = s.stress.deviator();
  s.packing_fraction = solid / window.area();
  s.void_ratio = solid > 0.0 ? (window.area() - solid) / solid : INFINITY;
  const int counted = exclude_rattlers ? s.particles - s.rattlers : s.particles;
  s.coordination = counted > 0 ? contacts / counted : 0.0;
  // Chains and fabric: between particles only (walls have no stress of
  // their own, and their "normals" would say more about the box).
  std::vector<ParticleContact> links;
  int fabric_count = 0;
  for (const PairRecord& pair : frame.pairs) {
    const auto a = index_of_body.find(pair.body_a), b = index_of_body.find(pair.body_b);
    if (a == index_of_body.end() || b == index_of_body.end()) continue;
    links.push_back({a->second, b->second, pair.branch});
    const bool inside = window.contains(frame.particles[static_cast<std::size_t>(a->second)].centre) ||
                        window.contains(frame.particles[static_cast<std::size_t>(b->second)].centre);
    if (!inside || norm(pair.normal) == 0.0) continue;
    s.fabric_xx += pair.normal.x * pair.normal.x;
    s.fabric_yy += pair.normal.y * pair.normal.y;
    s.fabric_xy += pair.normal.x * pair.normal.y;
    ++fabric_count;
  }
  if (fabric_count > 0) {
    s.fabric_xx /= fabric_count, s.fabric_yy /= fabric_count, s.fabric_xy /= fabric_count;
    s.anisotropy = 2.0 * std::hypot(s.fabric_xx - s.fabric_yy, 2.0 * s.fabric_xy);  // 2 (F1 − F2)
  }
  s.chains = find_force_chains(stress, links);
  return s;
}

}  // namespace sphero::analysis
