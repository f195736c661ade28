#include "engine/world.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "engine/thread_team.h"
#include "engine/wall_label.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

// The bytes of `count` points, as a hash key: identical bits match,
// nothing else does.
std::string bytes_of(const Vec2* points, std::size_t count) {
  std::string key(count * sizeof(Vec2), '\0');
  std::memcpy(key.data(), points, key.size());
  return key;
}

}  // namespace

BodyConstraint pressure_plate(double pressure, double length, Vec2 inward, double sliding_velocity) {
  const bool along_x = inward.y == 0.0 && std::abs(inward.x) == 1.0;
  const bool along_y = inward.x == 0.0 && std::abs(inward.y) == 1.0;
  if (!along_x && !along_y)
    throw std::invalid_argument("a pressure plate moves along x or y: its inward direction must be (±1, 0) or (0, ±1)");
  if (!(pressure >= 0.0) || !(length > 0.0))
    throw std::invalid_argument("a pressure plate needs a pressure >= 0 and a positive length");
  BodyConstraint plate;
  plate.held = {along_y, along_x, true};
  plate.imposed_velocity[along_x ? dof_y : dof_x] = sliding_velocity;
  plate.imposed_force = pressure * length * inward;
  plate.pressure = pressure;
  plate.inward = inward;
  return plate;
}

double plate_span(const World& w, const BodyConstraint& plate) {
  const auto [a, b] = plate.span_bodies;
  const Vec2 between = w.position[static_cast<std::size_t>(b)] - w.position[static_cast<std::size_t>(a)];
  const double across = plate.inward.x != 0.0 ? between.y : between.x;
  return std::max(
      0.0, std::abs(across) - w.radius[static_cast<std::size_t>(a)] - w.radius[static_cast<std::size_t>(b)]);
}

namespace {

void check_laws_and_cell(int material_count, const std::vector<ContactLaw>& laws, const PeriodicCell& cell) {
  if (material_count < 1) throw std::invalid_argument("the world needs at least one material");
  if (static_cast<int>(laws.size()) != material_count * material_count)
    throw std::invalid_argument("one contact law is needed for every pair of materials");
  for (int a = 0; a < material_count; ++a)
    for (int b = 0; b < material_count; ++b) {
      validate(laws[a * material_count + b]);
      const ContactLaw& ab = laws[a * material_count + b];
      const ContactLaw& ba = laws[b * material_count + a];
      if (ab.kn != ba.kn || ab.kt != ba.kt || ab.mu != ba.mu || ab.gamma_n != ba.gamma_n || ab.gamma_t != ba.gamma_t ||
          ab.cohesion != ba.cohesion || ab.normal != ba.normal)
        throw std::invalid_argument("the contact law between materials " + std::to_string(a) + " and " +
                                    std::to_string(b) + " must be the same both ways");
    }
  for (int axis = 0; axis < 2; ++axis)
    if (cell.periodic[axis] && !(axis == 0 ? cell.size.x > 0.0 : cell.size.y > 0.0))
      throw std::invalid_argument("a periodic direction needs a positive period");
}

// Mass properties per distinct shape (skeleton bytes, radius, kind): a
// non-convex shape's take exact arithmetic, and a packing holds few
// distinct shapes among many grains.
class MassPropertiesCache {
 public:
  const MassProperties& of(const Shape& shape) {
    std::string key = bytes_of(shape.vertices.data(), shape.vertices.size());
    key.append(reinterpret_cast<const char*>(&shape.radius), sizeof shape.radius);
    key.push_back(static_cast<char>(shape.kind));
    const auto found = known_.find(key);
    if (found != known_.end()) return found->second;
    return known_.emplace(std::move(key), mass_properties(shape)).first->second;
  }

 private:
  std::unordered_map<std::string, MassProperties> known_;
};

void check_body(const BodySpec& spec, std::size_t i, int material_count, const MassProperties& props,
                const PeriodicCell& cell) {
  const std::string who = "body " + std::to_string(i) + " ('" + spec.shape.name + "')";
  if (spec.material < 0 || spec.material >= material_count)
    throw std::invalid_argument(who + ": material " + std::to_string(spec.material) + " is not defined");
  if (!(spec.density > 0.0) || !std::isfinite(spec.density))
    throw std::invalid_argument(who + ": the density must be positive");
  for (int axis = 0; axis < 2; ++axis) {
    const double period = axis == 0 ? cell.size.x : cell.size.y;
    if (cell.periodic[axis] && !spec.is_wall && 2.0 * props.bounding_radius > 0.5 * period)
      throw std::invalid_argument(who + ": its size " + std::to_string(2.0 * props.bounding_radius) +
                                  " is longer than half the period " + std::to_string(period) +
                                  "; enlarge the periodic cell or use smaller particles");
  }
}

// Appends one body; its body-frame vertices go to `per_body`.
void add_body(World& w, const BodySpec& spec, const MassProperties& props, std::vector<Vec2>& per_body) {
  w.position.push_back(spec.position);
  w.angle.push_back(spec.angle);
  w.velocity.push_back(spec.velocity);
  w.angular_velocity.push_back(spec.angular_velocity);
  w.force.push_back({});
  w.torque.push_back(0.0);
  w.mass.push_back(props.mass(spec.density));
  w.inertia.push_back(props.inertia(spec.density));
  w.density.push_back(spec.density);
  BodyConstraint constraint = spec.constraint;
  if (spec.is_wall && !constraint.held[0] && !constraint.held[1] && !constraint.held[2] &&
      constraint.imposed_force == Vec2{} && constraint.imposed_torque == 0.0)
    constraint.held = {true, true, true};  // a wall stays put unless told otherwise
  w.inverse_mass.push_back(1.0 / w.mass.back());
  w.inverse_inertia.push_back(1.0 / w.inertia.back());
  w.radius.push_back(spec.shape.radius);
  w.bounding_radius.push_back(props.bounding_radius);
  w.material.push_back(spec.material);
  w.is_wall.push_back(spec.is_wall);
  w.closed.push_back(spec.shape.is_closed());
  w.constraint.push_back(constraint);
  w.shape_name.push_back(spec.shape.name);
  w.id.push_back(w.next_id++);
  w.vertex_begin.push_back(static_cast<int>(per_body.size()));
  w.vertex_count.push_back(static_cast<int>(spec.shape.vertices.size()));
  // A lone point is its disk's centre of mass exactly (the integrals give
  // it to rounding; update_orientation relies on the exact zero).
  for (Vec2 v : spec.shape.vertices) per_body.push_back(spec.shape.vertices.size() == 1 ? Vec2{} : v - props.centroid);
}

std::string span_refusal(const World& w, std::size_t plate, std::size_t end) {
  return "body " + std::to_string(w.id[plate]) + " ('" + w.shape_name[plate] +
         "') keeps its pressure over its span to body " + std::to_string(w.id[end]) + " ('" + w.shape_name[end] +
         "'), which would be removed: fix the plate ('set_wall = " +
         (is_unnamed_wall(w.shape_name[plate]) ? std::to_string(w.id[plate]) : w.shape_name[plate]) +
         " fixed') or give it a motion of its own in the same stage";
}

void check_spans(const World& w) {
  const int n = static_cast<int>(w.size());
  for (int i = 0; i < n; ++i) {
    const auto [a, b] = w.constraint[static_cast<std::size_t>(i)].span_bodies;
    if (a == -1 && b == -1) continue;
    if (a < 0 || b < 0 || a >= n || b >= n || a == b || a == i || b == i)
      throw std::invalid_argument("body " + std::to_string(i) + ": its pressure span needs two other bodies, found " +
                                  std::to_string(a) + " and " + std::to_string(b));
  }
}

}  // namespace

World make_world(const std::vector<BodySpec>& bodies, int material_count, const std::vector<ContactLaw>& laws,
                 Vec2 gravity, const PeriodicCell& cell) {
  check_laws_and_cell(material_count, laws, cell);
  World w;
  w.material_count = material_count;
  w.law = laws;
  w.gravity = gravity;
  w.cell = cell;
  std::vector<Vec2> per_body;  // body-frame vertices, before sharing
  MassPropertiesCache properties;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const MassProperties& props = properties.of(bodies[i].shape);
    check_body(bodies[i], i, material_count, props, cell);
    add_body(w, bodies[i], props, per_body);
  }
  share_local_vertices(w, per_body);
  w.world_vertex.resize(per_body.size());
  check_spans(w);
  update_world_vertices(w);
  mark_seams(w);
  return w;
}

void add_bodies(World& w, const std::vector<BodySpec>& bodies) {
  std::vector<Vec2> per_body;  // every body's body-frame vertices, in global order
  const std::size_t before = w.size();
  for (std::size_t i = 0; i < before; ++i) {
    const std::vector<Vec2> skeleton = local_skeleton(w, i);
    per_body.insert(per_body.end(), skeleton.begin(), skeleton.end());
  }
  MassPropertiesCache properties;
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const MassProperties& props = properties.of(bodies[k].shape);
    check_body(bodies[k], before + k, w.material_count, props, w.cell);
    add_body(w, bodies[k], props, per_body);
  }
  share_local_vertices(w, per_body);
  w.world_vertex.resize(per_body.size());
  w.orientation.resize(w.size(), Vec2{1.0, 0.0});
  for (std::size_t i = before; i < w.size(); ++i) {
    update_orientation(w, i);
    update_body_vertices(w, i);
  }
  mark_seams(w);
}

std::vector<int> remove_bodies(World& w, const std::vector<std::uint8_t>& removed) {
  if (removed.size() != w.size()) throw std::logic_error("remove_bodies: one flag per body");
  std::vector<int> new_index(w.size(), -1);
  int kept = 0;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!removed[i]) new_index[i] = kept++;
  for (std::size_t i = 0; i < w.size(); ++i)
    for (const int end : w.constraint[i].span_bodies)
      if (!removed[i] && end >= 0 && removed[static_cast<std::size_t>(end)])
        throw std::invalid_argument(span_refusal(w, i, static_cast<std::size_t>(end)));
  std::vector<Vec2> per_body, world_vertex;
  std::vector<int> vertex_begin;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (removed[i]) continue;
    vertex_begin.push_back(static_cast<int>(per_body.size()));
    const std::vector<Vec2> skeleton = local_skeleton(w, i);
    per_body.insert(per_body.end(), skeleton.begin(), skeleton.end());
    const auto first = w.world_vertex.begin() + w.vertex_begin[i];
    world_vertex.insert(world_vertex.end(), first, first + w.vertex_count[i]);
  }
  keep_bodies(w.position, new_index), keep_bodies(w.angle, new_index), keep_bodies(w.velocity, new_index);
  keep_bodies(w.angular_velocity, new_index), keep_bodies(w.force, new_index), keep_bodies(w.torque, new_index);
  keep_bodies(w.mass, new_index), keep_bodies(w.inertia, new_index), keep_bodies(w.density, new_index);
  keep_bodies(w.inverse_mass, new_index), keep_bodies(w.inverse_inertia, new_index);
  keep_bodies(w.radius, new_index), keep_bodies(w.bounding_radius, new_index), keep_bodies(w.material, new_index);
  keep_bodies(w.is_wall, new_index), keep_bodies(w.closed, new_index), keep_bodies(w.constraint, new_index);
  keep_bodies(w.shape_name, new_index), keep_bodies(w.id, new_index), keep_bodies(w.vertex_count, new_index);
  keep_bodies(w.orientation, new_index), keep_bodies(w.seam, new_index);
  for (BodyConstraint& c : w.constraint)
    for (int& end : c.span_bodies)
      if (end >= 0) end = new_index[static_cast<std::size_t>(end)];
  w.vertex_begin = std::move(vertex_begin);
  share_local_vertices(w, per_body);
  w.world_vertex = std::move(world_vertex);
  return new_index;
}

int index_of_id(const World& w, int id) {
  const auto found = std::lower_bound(w.id.begin(), w.id.end(), id);
  return found != w.id.end() && *found == id ? static_cast<int>(found - w.id.begin()) : -1;
}

ContactLaw placeholder_law() {
  ContactLaw placeholder;
  placeholder.kn = 1.0;
  return placeholder;
}

World geometry_world(const std::vector<BodySpec>& bodies) {
  int materials = 1;
  for (const BodySpec& b : bodies) materials = std::max(materials, b.material + 1);
  return make_world(bodies, materials,
                    std::vector<ContactLaw>(static_cast<std::size_t>(materials * materials), placeholder_law()), {});
}

std::vector<Vec2> local_skeleton(const World& w, std::size_t body) {
  const int b = static_cast<int>(body), begin = w.vertex_begin[body];
  std::vector<Vec2> out;
  out.reserve(static_cast<std::size_t>(w.vertex_count[body]));
  for (int k = begin; k < begin + w.vertex_count[body]; ++k) out.push_back(local_vertex_of(w, b, k));
  return out;
}

Shape body_shape(const World& w, std::size_t i) {
  std::vector<Vec2> local = local_skeleton(w, i);
  const SkeletonKind kind = local.size() == 1   ? SkeletonKind::point
                            : w.closed[i]       ? SkeletonKind::polygon
                            : local.size() == 2 ? SkeletonKind::segment
                                                : SkeletonKind::polyline;
  return make_shape(w.shape_name[i], kind, std::move(local), w.radius[i]);
}

void share_local_vertices(World& w, const std::vector<Vec2>& per_body) {
  w.local_vertex.clear();
  w.local_bend.clear();
  w.local_shift.assign(w.size(), 0);
  // Keyed by the bytes of the skeleton: identical bits share, nothing else.
  std::unordered_map<std::string, int> stored;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const auto begin = static_cast<std::size_t>(w.vertex_begin[i]), count = static_cast<std::size_t>(w.vertex_count[i]);
    std::string key = bytes_of(per_body.data() + begin, count);
    const auto [where, fresh] = stored.try_emplace(std::move(key), static_cast<int>(w.local_vertex.size()));
    if (fresh) {
      w.local_vertex.insert(w.local_vertex.end(), per_body.begin() + begin, per_body.begin() + begin + count);
      // Its bends, read as a cycle.
      for (std::size_t k = 0; k < count; ++k) {
        std::int8_t bend = 0;
        if (count >= 3) {
          const Vec2 before = per_body[begin + (k + count - 1) % count], at = per_body[begin + k],
                     after = per_body[begin + (k + 1) % count];
          const double turn = cross(at - before, after - at), scale = norm(at - before) * norm(after - at);
          bend = turn < -1e-6 * scale ? 1 : (turn > 1e-6 * scale ? -1 : 0);
        }
        w.local_bend.push_back(bend);
      }
    }
    w.local_shift[i] = where->second - static_cast<int>(begin);
  }
}

void update_body_vertices(World& w, std::size_t i) {
  update_orientation(w, i);
  const int begin = w.vertex_begin[i], end = begin + w.vertex_count[i];
  for (int k = begin; k < end; ++k)
    w.world_vertex[static_cast<std::size_t>(k)] = vertex_position(w, static_cast<int>(i), k);
}

void update_world_vertices(World& w, int threads) {
  w.orientation.resize(w.size(), Vec2{1.0, 0.0});
  w.world_vertex.resize(w.size() == 0 ? 0 : static_cast<std::size_t>(w.vertex_begin.back() + w.vertex_count.back()));
  ThreadTeam::for_each(threads, w.size(), [&w](std::size_t i) { update_body_vertices(w, i); });
}

void derive_orientations_and_seams(World& w) {
  w.orientation.resize(w.size(), Vec2{1.0, 0.0});
  for (std::size_t i = 0; i < w.size(); ++i) update_orientation(w, i);
  mark_seams(w);
}

void mark_seams(World& w) {
  w.seam.assign(w.size(), Vec2{});
  for (std::size_t i = 0; i < w.size(); ++i) {
    const BodyConstraint& tag = w.constraint[i];
    if (!w.is_wall[i] || w.closed[i] || w.vertex_count[i] < 2 || !tag.held[dof_rotation] ||
        tag.imposed_velocity[dof_rotation] != 0.0)
      continue;
    const auto first = static_cast<std::size_t>(w.vertex_begin[i]);
    const Vec2 span = w.world_vertex[first + static_cast<std::size_t>(w.vertex_count[i]) - 1] - w.world_vertex[first];
    for (int axis = 0; axis < 2; ++axis) {
      if (!w.cell.periodic[axis]) continue;
      const double period = axis == 0 ? w.cell.size.x : w.cell.size.y;
      const double along = axis == 0 ? span.x : span.y, across = axis == 0 ? span.y : span.x;
      // Exactly a period, to rounding: the wall was drawn across the cell.
      const double tolerance = 1e-9 * period;
      if (std::abs(std::abs(along) - period) > tolerance || std::abs(across) > tolerance) continue;
      const double shift = along > 0.0 ? period : -period;
      w.seam[i] = axis == 0 ? Vec2{shift, 0.0} : Vec2{0.0, shift};
    }
  }
}

std::array<int, 2> periods_into_cell(const World& w, std::size_t i) {
  // Counted as a double and bounded before it becomes an int (the
  // stability check stops a failing run only after the step).
  const auto periods_back = [](double from_low, double period) {
    const double n = std::floor(from_low / period), most = kMostPeriods;
    return std::isnan(n) ? 0 : -static_cast<int>(std::clamp(n, -most, most));
  };
  std::array<int, 2> periods{0, 0};
  if (w.cell.periodic[0]) periods[0] = periods_back(w.position[i].x - w.cell.low.x, w.cell.size.x);
  if (w.cell.periodic[1]) periods[1] = periods_back(w.position[i].y - w.cell.low.y, w.cell.size.y);
  return periods;
}

void wrap_into_cell(World& w) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w.is_wall[i]) continue;  // walls span the cell; their images are found per pair
    for (int axis = 0; axis < 2; ++axis) {
      if (!w.cell.periodic[axis]) continue;
      const double low = axis == 0 ? w.cell.low.x : w.cell.low.y;
      const double period = axis == 0 ? w.cell.size.x : w.cell.size.y;
      double& coordinate = axis == 0 ? w.position[i].x : w.position[i].y;
      coordinate -= period * std::floor((coordinate - low) / period);
    }
  }
}

}  // namespace sphero
