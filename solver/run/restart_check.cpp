#include "run/restart_check.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <stdexcept>

namespace sphero {
namespace {

std::string_view stepping_key(const RigidSettings& r) {
  if (!r.events) return "steps";
  return r.whole_step_events ? "events_whole_steps" : "events";
}

std::string stepping_in_words(const RigidSettings& r) {
  if (!r.events) return "by one collision program a step";
  return fmt::format("from collision to collision (stepping = {})", stepping_key(r));
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

bool same_law(const ContactLaw& a, const ContactLaw& b) {
  return a.normal == b.normal && a.kn == b.kn && a.gamma_n == b.gamma_n && a.kt == b.kt && a.gamma_t == b.gamma_t &&
         a.mu == b.mu && a.cohesion == b.cohesion;
}

// How body i's shape differs, if it does: its sphero-radius, its number of
// vertices or the first vertex that moved, in the body's own frame (where
// the shape file puts it, about the centroid).
// Body i of a is body j of b (the same id).
std::string shape_difference(const World& a, const World& b, std::size_t i, std::size_t j) {
  const int id = a.id[i];
  const std::string which =
      a.shape_name[i] == b.shape_name[j]
          ? fmt::format("body {}'s shape '{}'", id, a.shape_name[i])
          : fmt::format("body {}'s shape, '{}' there and '{}' here,", id, a.shape_name[i], b.shape_name[j]);
  if (!close(a.radius[i], b.radius[j]))
    return fmt::format("{} has sphero-radius {} there, {} here", which, a.radius[i], b.radius[j]);
  const auto sa = local_skeleton(a, i), sb = local_skeleton(b, j);
  if (sa.size() != sb.size())
    return fmt::format("{} has {} skeleton vertices there, {} here", which, sa.size(), sb.size());
  for (std::size_t k = 0; k < sa.size(); ++k)
    if (norm(sa[k] - sb[k]) > 1e-9 * (a.bounding_radius[i] + 1e-300))
      return fmt::format(
          "{} has its vertex {} {:.3g} away from where the checkpoint has it, ({:.6g}, {:.6g}) about "
          "the centroid",
          which, k + 1, norm(sa[k] - sb[k]), sa[k].x, sa[k].y);
  return {};
}

// The first body of a whose kind, material, density or shape differs from
// b's body of its id, and how.
std::string body_difference(const World& a, const World& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    const int id = a.id[i], found = index_of_id(b, id);
    if (found < 0) return fmt::format("body {} is there, the scene has none of that id", id);
    const auto j = static_cast<std::size_t>(found);
    if (a.is_wall[i] != b.is_wall[j])
      return fmt::format(
          "body {} is a {} there, a {} here", id, a.is_wall[i] ? "wall" : "grain", b.is_wall[j] ? "wall" : "grain");
    if (a.material[i] != b.material[j])
      return fmt::format("body {} is of material {} there, {} here", id, a.material[i], b.material[j]);
    if (!close(a.density[i], b.density[j]))
      return fmt::format("body {} has density {} there, {} here (density)", id, a.density[i], b.density[j]);
    if (std::string d = shape_difference(a, b, i, j); !d.empty()) return d + " (shape file)";
  }
  return {};
}

// A plate's span as the ids of its ends.
std::array<int, 2> span_ids(const World& w, const BodyConstraint& c) {
  std::array<int, 2> ids{-1, -1};
  for (std::size_t k = 0; k < 2; ++k)
    if (c.span_bodies[k] >= 0) ids[k] = w.id[static_cast<std::size_t>(c.span_bodies[k])];
  return ids;
}

// The first wall whose imposed motion (held directions, velocity,
// pressure, span, vibration) differs. A vibrating wall's imposed velocity
// changes every step: its steady velocity is compared instead.
std::string motion_difference(const World& a, const World& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a.is_wall[i]) continue;
    const auto j = static_cast<std::size_t>(index_of_id(b, a.id[i]));  // body_difference found it
    const BodyConstraint &x = a.constraint[i], &y = b.constraint[j];
    const Vibration &u = x.vibration, &v = y.vibration;
    if (x.held != y.held || x.steady_imposed_velocity() != y.steady_imposed_velocity() || x.pressure != y.pressure ||
        !(x.inward == y.inward) || span_ids(a, x) != span_ids(b, y) || !(u.amplitude == v.amplitude) ||
        u.frequency != v.frequency || u.tap_interval != v.tap_interval)
      return fmt::format("the motion imposed on wall {} differs (wall, set_wall)", a.id[i]);
  }
  return {};
}

}  // namespace

void check_restart(const EngineSnapshot& checkpoint, const World& scene_world, const EngineSettings& scene_settings,
                   const std::string& checkpoint_name, const std::string& scene_name, bool may_lack_bodies) {
  const World& w = checkpoint.world;
  const auto refuse = [&](const std::string& what) {
    throw std::runtime_error(
        fmt::format("{}: cannot continue under {}: {}. A restart changes only duration, output, "
                    "intervals and threads; to change the rest, continue the run as a new stage "
                    "(sphero run NEXT.ini --from CHECKPOINT, docs/SCENES.md)",
                    checkpoint_name, scene_name, what));
  };
  if (w.size() > scene_world.size() || (w.size() < scene_world.size() && !may_lack_bodies))
    refuse(fmt::format("it holds {} bodies, the scene makes {}", w.size(), scene_world.size()));
  if (const std::string d = body_difference(w, scene_world); !d.empty()) refuse(d);
  if (const std::string d = motion_difference(w, scene_world); !d.empty()) refuse(d);
  if (w.gravity.x != scene_world.gravity.x || w.gravity.y != scene_world.gravity.y)
    refuse(fmt::format("gravity is {:g},{:g} there, {:g},{:g} here (gravity)", w.gravity.x, w.gravity.y,
                       scene_world.gravity.x, scene_world.gravity.y));
  if (w.material_count != scene_world.material_count) refuse("the materials differ (law)");
  for (std::size_t k = 0; k < w.law.size(); ++k)
    if (!same_law(w.law[k], scene_world.law[k]))
      refuse(fmt::format("the law between materials {} and {} differs (law)",
                         k / static_cast<std::size_t>(w.material_count),
                         k % static_cast<std::size_t>(w.material_count)));
  if (w.cell.periodic != scene_world.cell.periodic || !(w.cell.low == scene_world.cell.low) ||
      !(w.cell.size == scene_world.cell.size))
    refuse("the periodic cell differs (periodic, cell)");
  const EngineSettings& s = checkpoint.settings;
  if (s.dt != scene_settings.dt) refuse(fmt::format("dt is {:g} s there, {:g} s here (dt)", s.dt, scene_settings.dt));
  if (s.integrator != scene_settings.integrator) refuse("the integrator differs (integrator)");
  if (s.model != scene_settings.model)
    refuse(fmt::format("it is a {} run, the scene asks for the {} model (model)", to_string(s.model),
                       to_string(scene_settings.model)));
  for (std::size_t k = 0; k < w.rigid_law.size() && k < scene_world.rigid_law.size(); ++k) {
    const RigidLaw &a = w.rigid_law[k], &b = scene_world.rigid_law[k];
    if (a.restitution != b.restitution || a.normal_dissipation != b.normal_dissipation ||
        a.tangential_dissipation != b.tangential_dissipation || a.friction != b.friction)
      refuse(fmt::format("the rigid law between materials {} and {} differs (law)",
                         k / static_cast<std::size_t>(w.material_count),
                         k % static_cast<std::size_t>(w.material_count)));
  }
  if (s.rigid.events != scene_settings.rigid.events ||
      s.rigid.whole_step_events != scene_settings.rigid.whole_step_events)
    refuse(fmt::format("it was stepped {}, the scene asks for stepping = {} (stepping)", stepping_in_words(s.rigid),
                       stepping_key(scene_settings.rigid)));
  if (s.rigid.gap != scene_settings.rigid.gap)
    refuse(
        fmt::format("the contact gap is {:g} m there, {:g} m here (rigid_gap)", s.rigid.gap, scene_settings.rigid.gap));
  if (s.rigid.solver != scene_settings.rigid.solver)
    refuse(fmt::format("its collision programs were solved by {}, the scene asks for {} (rigid_solver)",
                       to_string(s.rigid.solver), to_string(scene_settings.rigid.solver)));
  if (s.rigid.qp_tolerance != scene_settings.rigid.qp_tolerance)
    refuse(fmt::format("the collision programs' tolerance is {:g} there, {:g} here (rigid_tolerance)",
                       s.rigid.qp_tolerance, scene_settings.rigid.qp_tolerance));
  if (!(w.attractor.centre == scene_world.attractor.centre) || w.attractor.strength != scene_world.attractor.strength)
    refuse("the attractor differs (attractor)");
}

}  // namespace sphero
