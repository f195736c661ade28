#include "engine/world_subset.h"

#include <stdexcept>

namespace sphero {

World world_subset(const World& whole, const std::vector<int>& bodies) {
  std::vector<int> local_of(whole.size(), -1);
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const int b = bodies[k];
    if (b < 0 || static_cast<std::size_t>(b) >= whole.size() || (k > 0 && b <= bodies[k - 1]))
      throw std::invalid_argument("world_subset: the bodies must be increasing indices of the world");
    local_of[static_cast<std::size_t>(b)] = static_cast<int>(k);
  }
  World w;
  w.position = values_of(whole.position, bodies);
  w.angle = values_of(whole.angle, bodies);
  w.velocity = values_of(whole.velocity, bodies);
  w.angular_velocity = values_of(whole.angular_velocity, bodies);
  w.force = values_of(whole.force, bodies);
  w.torque = values_of(whole.torque, bodies);
  w.mass = values_of(whole.mass, bodies);
  w.inertia = values_of(whole.inertia, bodies);
  w.density = values_of(whole.density, bodies);
  w.inverse_mass = values_of(whole.inverse_mass, bodies);
  w.inverse_inertia = values_of(whole.inverse_inertia, bodies);
  w.radius = values_of(whole.radius, bodies);
  w.bounding_radius = values_of(whole.bounding_radius, bodies);
  w.material = values_of(whole.material, bodies);
  w.is_wall = values_of(whole.is_wall, bodies);
  w.closed = values_of(whole.closed, bodies);
  w.constraint = values_of(whole.constraint, bodies);
  w.shape_name = values_of(whole.shape_name, bodies);
  w.vertex_count = values_of(whole.vertex_count, bodies);
  w.orientation = values_of(whole.orientation, bodies);
  w.seam = values_of(whole.seam, bodies);
  for (BodyConstraint& c : w.constraint)
    for (int& s : c.span_bodies)
      if (s >= 0) s = local_of[static_cast<std::size_t>(s)];
  // Vertices one body after the other, as in the whole world; the shared
  // body-frame vertices stay, each body's shift moved with its first vertex.
  w.vertex_begin.reserve(bodies.size());
  w.local_shift.reserve(bodies.size());
  int next = 0;
  for (int b : bodies) {
    const auto i = static_cast<std::size_t>(b);
    w.vertex_begin.push_back(next);
    w.local_shift.push_back(whole.local_shift[i] + whole.vertex_begin[i] - next);
    for (int k = 0; k < whole.vertex_count[i]; ++k)
      w.world_vertex.push_back(whole.world_vertex[static_cast<std::size_t>(whole.vertex_begin[i] + k)]);
    next += whole.vertex_count[i];
  }
  w.local_vertex = whole.local_vertex;
  w.local_bend = whole.local_bend;
  w.material_count = whole.material_count;
  w.law = whole.law;
  w.rigid_law = whole.rigid_law;
  w.gravity = whole.gravity;
  w.attractor = whole.attractor;
  w.cell = whole.cell;
  return w;
}

}  // namespace sphero
