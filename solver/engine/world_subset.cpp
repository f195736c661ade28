#include "engine/world_subset.h"

#include <stdexcept>

namespace sphero {
namespace {

template <class T>
std::vector<T> pick(const std::vector<T>& all, const std::vector<int>& bodies) {
  std::vector<T> out;
  out.reserve(bodies.size());
  for (int b : bodies) out.push_back(all[static_cast<std::size_t>(b)]);
  return out;
}

}  // namespace

World world_subset(const World& whole, const std::vector<int>& bodies) {
  std::vector<int> local_of(whole.size(), -1);
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const int b = bodies[k];
    if (b < 0 || static_cast<std::size_t>(b) >= whole.size() || (k > 0 && b <= bodies[k - 1]))
      throw std::invalid_argument("world_subset: the bodies must be increasing indices of the world");
    local_of[static_cast<std::size_t>(b)] = static_cast<int>(k);
  }
  World w;
  w.position = pick(whole.position, bodies);
  w.angle = pick(whole.angle, bodies);
  w.velocity = pick(whole.velocity, bodies);
  w.angular_velocity = pick(whole.angular_velocity, bodies);
  w.force = pick(whole.force, bodies);
  w.torque = pick(whole.torque, bodies);
  w.mass = pick(whole.mass, bodies);
  w.inertia = pick(whole.inertia, bodies);
  w.density = pick(whole.density, bodies);
  w.inverse_mass = pick(whole.inverse_mass, bodies);
  w.inverse_inertia = pick(whole.inverse_inertia, bodies);
  w.radius = pick(whole.radius, bodies);
  w.bounding_radius = pick(whole.bounding_radius, bodies);
  w.material = pick(whole.material, bodies);
  w.is_wall = pick(whole.is_wall, bodies);
  w.closed = pick(whole.closed, bodies);
  w.constraint = pick(whole.constraint, bodies);
  w.shape_name = pick(whole.shape_name, bodies);
  w.vertex_count = pick(whole.vertex_count, bodies);
  w.orientation = pick(whole.orientation, bodies);
  w.seam = pick(whole.seam, bodies);
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

std::vector<Contact> renumber_contacts(const std::vector<Contact>& contacts, const World& from, const World& to,
                                       const std::vector<int>& local_of) {
  std::vector<Contact> out;
  out.reserve(contacts.size());
  for (const Contact& c : contacts) {
    const int v = local_of[static_cast<std::size_t>(c.vertex_body)], e = local_of[static_cast<std::size_t>(c.edge_body)];
    if (v < 0 || e < 0) continue;
    Contact r = c;
    r.vertex_body = v;
    r.edge_body = e;
    r.vertex = c.vertex - from.vertex_begin[static_cast<std::size_t>(c.vertex_body)] + to.vertex_begin[static_cast<std::size_t>(v)];
    // The feature (an edge's first vertex, or the other vertex) is the edge body's.
    r.feature = c.feature - from.vertex_begin[static_cast<std::size_t>(c.edge_body)] + to.vertex_begin[static_cast<std::size_t>(e)];
    out.push_back(r);
  }
  return out;
}

}  // namespace sphero
