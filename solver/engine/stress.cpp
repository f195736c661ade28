#include "engine/stress.h"

#include <cmath>

namespace sphero {

double Stress::deviator() const {
  const auto s = principal();
  return 0.5 * (s[0] - s[1]);
}

std::array<double, 2> Stress::principal() const {
  const double mean = 0.5 * (xx + yy);
  const double shear = 0.5 * (xy + yx);
  const double radius = std::hypot(0.5 * (xx - yy), shear);
  return {mean + radius, mean - radius};
}

Vec2 Stress::major_direction() const {
  const double shear = 0.5 * (xy + yx);
  // Mohr: the major axis is at θ with tan 2θ = 2σ_xy / (σ_xx − σ_yy).
  const double theta = 0.5 * std::atan2(2.0 * shear, xx - yy);
  return {std::cos(theta), std::sin(theta)};
}

Stress love_weber(Vec2 centre, const std::vector<ContactOnParticle>& contacts, double area) {
  return love_weber(centre, contacts.data(), contacts.data() + contacts.size(), area);
}

Stress love_weber(Vec2 centre, const ContactOnParticle* begin, const ContactOnParticle* end, double area) {
  Stress s;
  for (const ContactOnParticle* c = begin; c != end; ++c) {
    const Vec2 arm = c->point - centre;
    s.xx -= arm.x * c->force.x;
    s.xy -= arm.x * c->force.y;
    s.yx -= arm.y * c->force.x;
    s.yy -= arm.y * c->force.y;
  }
  return s.scaled(1.0 / area);
}

std::vector<Stress> particle_stresses(const World& w, const std::vector<Contact>& contacts,
                                      const std::vector<double>& area, const std::vector<bool>& include) {
  // Each body's contacts in one array (counted, then placed in the
  // contacts' order, so that each sum adds in the same order as ever).
  const std::size_t n = w.size();
  const auto counted = [&](const Contact& c) {
    const auto v = static_cast<std::size_t>(c.vertex_body), e = static_cast<std::size_t>(c.edge_body);
    return c.active && (include.empty() || (include[v] && include[e]));
  };
  std::vector<std::size_t> first(n + 1, 0);
  for (const Contact& c : contacts)
    if (counted(c))
      ++first[static_cast<std::size_t>(c.vertex_body) + 1], ++first[static_cast<std::size_t>(c.edge_body) + 1];
  for (std::size_t i = 0; i < n; ++i) first[i + 1] += first[i];
  std::vector<ContactOnParticle> on(first[n]);
  std::vector<std::size_t> next(first.begin(), first.end() - 1);
  for (const Contact& c : contacts) {
    if (!counted(c)) continue;
    on[next[static_cast<std::size_t>(c.vertex_body)]++] = {c.point, c.force};
    // The edge body sees the contact at the same point in its own image.
    on[next[static_cast<std::size_t>(c.edge_body)]++] = {c.point - c.edge_offset, -c.force};
  }
  std::vector<Stress> stress(n);
  for (std::size_t i = 0; i < n; ++i)
    stress[i] = love_weber(w.position[i], on.data() + first[i], on.data() + first[i + 1], area[i]);
  return stress;
}

Stress average_stress(const std::vector<Stress>& particle_stress, const std::vector<double>& particle_area,
                      double region_area) {
  Stress total;
  for (std::size_t i = 0; i < particle_stress.size(); ++i) total += particle_stress[i].scaled(particle_area[i]);
  return total.scaled(1.0 / region_area);
}

}  // namespace sphero
