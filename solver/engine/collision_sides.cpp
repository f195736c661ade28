#include "engine/collision_sides.h"

#include <fmt/format.h>

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

double effective_mass(const World& w, const Sides& s, Vec2 point) {
  double compliance = 0.0;
  for (auto [b, shift] : {std::pair{s.body, s.body_shift}, std::pair{s.other, s.other_shift}}) {
    if (b < 0) continue;
    const auto i = static_cast<std::size_t>(b);
    const double arm = cross(point - (w.position[i] + shift), s.normal);
    compliance += w.inverse_mass[i] + arm * arm * w.inverse_inertia[i];
  }
  return 1.0 / compliance;
}

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
  c.elastic = law.elastic();
  if (!c.elastic) c.normal_dissipation = law.normal_dissipation_at(effective_mass(w, s, g.point));
  c.tangential_dissipation = law.tangential_dissipation;
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
