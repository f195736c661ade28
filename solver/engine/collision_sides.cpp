#include "engine/collision_sides.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "engine/wall_label.h"

namespace sphero {

Sides sides_of(const World& w, const GapContact& g) {
  Sides s;
  const bool vertex_wall = w.is_wall[static_cast<std::size_t>(g.vertex_body)] != 0;
  const bool edge_wall = w.is_wall[static_cast<std::size_t>(g.edge_body)] != 0;
  if (edge_wall) {
    s.body = g.vertex_body;
    s.normal = -1.0 * g.normal;
    s.wall = g.edge_body;
    s.wall_shift = g.edge_offset;
  } else {
    s.body = g.edge_body;
    s.body_shift = g.edge_offset;
    s.normal = g.normal;
    if (vertex_wall) s.wall = g.vertex_body;
    else s.other = g.vertex_body;
  }
  return s;
}

ContactInverseMass contact_inverse_mass(const World& w, const Sides& s, Vec2 point) {
  ContactInverseMass out;
  const Vec2 tangent = perp(s.normal);
  for (auto [b, shift] : {std::pair{s.body, s.body_shift}, std::pair{s.other, s.other_shift}}) {
    if (b < 0) continue;
    const auto i = static_cast<std::size_t>(b);
    const Vec2 r = point - (w.position[i] + shift);
    const double arm_n = cross(r, s.normal), arm_t = cross(r, tangent);
    out.nn += w.inverse_mass[i] + arm_n * arm_n * w.inverse_inertia[i];
    out.nt += arm_n * arm_t * w.inverse_inertia[i];
    out.tt += w.inverse_mass[i] + arm_t * arm_t * w.inverse_inertia[i];
  }
  return out;
}

double effective_mass(const World& w, const Sides& s, Vec2 point) { return 1.0 / contact_inverse_mass(w, s, point).nn; }

double normal_velocity_now(const World& w, const Sides& s, Vec2 point) {
  const auto at = [&](int b, Vec2 shift) {
    const auto i = static_cast<std::size_t>(b);
    return w.velocity[i] + w.angular_velocity[i] * perp(point - (w.position[i] + shift));
  };
  Vec2 relative = at(s.body, s.body_shift);
  if (s.other >= 0) relative -= at(s.other, s.other_shift);
  if (s.wall >= 0) relative -= WorldView(w).velocity_at(s.wall, point, s.wall_shift);
  return dot(relative, s.normal);
}

CollisionContact collision_contact_of(const World& w, const GapContact& g, const Sides& s) {
  CollisionContact c;
  c.body = s.body;
  c.other = s.other;
  c.body_shift = s.body_shift;
  c.other_shift = s.other_shift;
  c.point = g.point;
  c.normal = s.normal;
  if (s.wall >= 0) c.wall_velocity = WorldView(w).velocity_at(s.wall, g.point, s.wall_shift);
  return c;
}

void apply_law(const World& w, const GapContact& g, const Sides& s, CollisionContact& c) {
  const RigidLaw& law = w.rigid_law_between(g.vertex_body, g.edge_body);
  const ContactInverseMass inverse = contact_inverse_mass(w, s, g.point);
  c.elastic = law.elastic();
  c.tangential_dissipation = std::min(law.tangential_dissipation, 2.0 / inverse.tt);
  if (!c.elastic) {
    // With a lever arm ξ_t takes part in the normal percussion's effect: the
    // normal velocity answers P_n through W_nn − ½ξ_t W_nt² / (1 + ½ξ_t W_tt).
    const double half = 0.5 * c.tangential_dissipation;
    const double normal_inverse = inverse.nn - half * inverse.nt * inverse.nt / (1.0 + half * inverse.tt);
    c.normal_dissipation = law.normal_dissipation_at(1.0 / normal_inverse);
  }
  c.friction = law.friction;
}

Vec2 mean_force_on_vertex(const World& w, const GapContact& g, const CollisionContact& c, double normal_percussion,
                          double tangential_percussion, double seconds) {
  const Vec2 on_body = normal_percussion * c.normal + tangential_percussion * perp(c.normal);
  const bool vertex_is_body = sides_of(w, g).body == g.vertex_body;
  return (vertex_is_body ? 1.0 : -1.0) / seconds * on_body;
}

void add_mean_force(World& w, const GapContact& g, Vec2 on_vertex) {
  const auto add = [&](int b, Vec2 shift, Vec2 force) {
    const auto i = static_cast<std::size_t>(b);
    w.force[i] += force;
    w.torque[i] += cross(g.point - (w.position[i] + shift), force);
  };
  add(g.vertex_body, {}, on_vertex);
  add(g.edge_body, g.edge_offset, -1.0 * on_vertex);
}

namespace {

// "a", "a and b", "a, b and c"; past `most` items, "a, b, ... and N more".
std::string listed(const std::vector<std::string>& items, std::size_t most = 8) {
  std::string out;
  const std::size_t shown = std::min(items.size(), most);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) out += i + 1 == shown && shown == items.size() ? " and " : ", ";
    out += items[i];
  }
  if (shown < items.size()) out += fmt::format(" and {} more", items.size() - shown);
  return out;
}

}  // namespace

std::string jammed_bodies_in_words(const World& w, const std::vector<GapContact>& contacts,
                                   const std::vector<std::size_t>& jammed) {
  std::set<std::size_t> walls, grains;
  for (const std::size_t k : jammed)
    for (const int b : {contacts[k].vertex_body, contacts[k].edge_body}) {
      const auto i = static_cast<std::size_t>(b);
      (w.is_wall[i] ? walls : grains).insert(i);
    }
  std::vector<std::string> wall_names, grain_numbers;
  for (const std::size_t i : walls) wall_names.push_back(wall_label(w, i, static_cast<int>(i)));
  for (const std::size_t i : grains) grain_numbers.push_back(std::to_string(i));
  std::string words;
  if (!grain_numbers.empty()) words += (grain_numbers.size() == 1 ? "grain " : "grains ") + listed(grain_numbers);
  if (!wall_names.empty() && !grain_numbers.empty()) words += " against ";
  if (!wall_names.empty()) words += (wall_names.size() == 1 ? "wall " : "walls ") + listed(wall_names);
  return words;
}

}  // namespace sphero
