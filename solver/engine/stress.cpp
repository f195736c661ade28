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

namespace {

// One contact's term of a body's sum: its force on the body at its arm.
void add_moment(Stress& s, Vec2 arm, Vec2 force) {
  s.xx -= arm.x * force.x;
  s.xy -= arm.x * force.y;
  s.yx -= arm.y * force.x;
  s.yy -= arm.y * force.y;
}

std::vector<Stress> divided(const std::vector<Stress>& sums, const std::vector<double>& area) {
  std::vector<Stress> stress(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) stress[i] = sums[i].scaled(1.0 / area[i]);
  return stress;
}

}  // namespace

GrainStressSums::GrainStressSums(const World& world)
    : world_(world), all_(world.size()), between_grains_(world.size()) {}

void GrainStressSums::add(const Contact& c) {
  if (!c.active) return;
  const auto v = static_cast<std::size_t>(c.vertex_body), e = static_cast<std::size_t>(c.edge_body);
  const Vec2 arm_v = c.point - world_.position[v], arm_e = c.point - c.edge_offset - world_.position[e];
  add_moment(all_[v], arm_v, c.force);
  add_moment(all_[e], arm_e, -c.force);
  if (world_.is_wall[v] || world_.is_wall[e]) return;
  add_moment(between_grains_[v], arm_v, c.force);
  add_moment(between_grains_[e], arm_e, -c.force);
}

std::vector<Stress> GrainStressSums::all(const std::vector<double>& area) const { return divided(all_, area); }

std::vector<Stress> GrainStressSums::between_grains(const std::vector<double>& area) const {
  return divided(between_grains_, area);
}

std::vector<Stress> particle_stresses(const World& w, const std::vector<Contact>& contacts,
                                      const std::vector<double>& area, const std::vector<bool>& include) {
  std::vector<Stress> sums(w.size());
  for (const Contact& c : contacts) {
    const auto v = static_cast<std::size_t>(c.vertex_body), e = static_cast<std::size_t>(c.edge_body);
    if (!c.active || !(include.empty() || (include[v] && include[e]))) continue;
    // Each body's sum adds its contacts in the contacts' order, as
    // love_weber() would over them; the edge body sees the contact at the
    // same point in its own image.
    add_moment(sums[v], c.point - w.position[v], c.force);
    add_moment(sums[e], c.point - c.edge_offset - w.position[e], -c.force);
  }
  return divided(sums, area);
}

Stress average_stress(const std::vector<Stress>& particle_stress, const std::vector<double>& particle_area,
                      double region_area) {
  Stress total;
  for (std::size_t i = 0; i < particle_stress.size(); ++i) total += particle_stress[i].scaled(particle_area[i]);
  return total.scaled(1.0 / region_area);
}

}  // namespace sphero
