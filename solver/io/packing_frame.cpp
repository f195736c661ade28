#include "io/packing_frame.h"

#include <stdexcept>
#include <string>
#include <unordered_map>

#include "io/state_vtu.h"
#include "shapes/outline_cache.h"

namespace sphero {
namespace {

std::vector<Vec2> placed(const std::vector<Vec2>& local, const BodySpec& b) {
  std::vector<Vec2> out;
  out.reserve(local.size());
  for (Vec2 p : local) out.push_back(b.position + rotated(p, b.angle));
  return out;
}

}  // namespace

void add_exact_shapes(FrameData& frame, const std::vector<BodySpec>& bodies, const std::vector<int>& ids) {
  frame.exact_shapes.clear();
  std::unordered_map<int, std::size_t> body_of;
  for (std::size_t k = 0; k < ids.size() && k < bodies.size(); ++k) body_of.emplace(ids[k], k);
  for (ParticleRecord& p : frame.particles) {
    const auto found = body_of.find(p.id);
    if (found == body_of.end()) throw std::runtime_error("the state frame has no body " + std::to_string(p.id));
    const BodySpec& b = bodies[found->second];
    frame.exact_shapes.push_back({b.shape, b.position, b.angle});
    p.mass = b.density * p.area;
  }
}

FrameData packing_frame(const std::vector<BodySpec>& bodies, int arc_resolution) {
  FrameData frame;
  OutlineCache outlines(arc_resolution);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const BodySpec& b = bodies[i];
    if (b.is_wall) {
      WallRecord wall;
      wall.id = static_cast<int>(i);
      wall.skeleton = placed(b.shape.vertices, b);
      frame.walls.push_back(std::move(wall));
      frame.wall_outlines.push_back(placed(outlines.outline(b.shape), b));
      continue;
    }
    const MassProperties& m = outlines.mass_properties(b.shape);
    ParticleRecord p;
    p.id = static_cast<int>(i);
    p.centre = b.position;
    p.area = m.area;
    p.radius = b.shape.radius;
    p.shape = b.shape.name;
    p.velocity = b.velocity;
    p.angular_velocity = b.angular_velocity;
    p.mass = m.mass(b.density);
    p.kinetic_energy = 0.5 * m.mass(b.density) * norm2(b.velocity) +
                       0.5 * m.inertia(b.density) * b.angular_velocity * b.angular_velocity;
    frame.particles.push_back(p);
    frame.outlines.push_back(placed(outlines.outline(b.shape), b));
    frame.exact_shapes.push_back({b.shape, b.position, b.angle});
  }
  return frame;
}

void add_particles_from_states(FrameData& frame, int arc_resolution) {
  std::vector<BodySpec> bodies = bodies_of_states(frame.states, "the state frame");
  std::vector<const StateRecord*> grains;
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    if (bodies[k].is_wall) continue;
    if (grains.size() != k) bodies[grains.size()] = std::move(bodies[k]);
    grains.push_back(&frame.states[k]);
  }
  bodies.resize(grains.size());
  FrameData drawn = packing_frame(bodies, arc_resolution);
  for (std::size_t k = 0; k < grains.size(); ++k) {
    const StateRecord& r = *grains[k];
    ParticleRecord& p = drawn.particles[k];
    p.id = r.id;
    p.material = r.material;
    p.coordination = r.coordination;
    p.stress = r.stress;
    p.wall_stress = r.wall_stress;
  }
  frame.particles = std::move(drawn.particles);
  frame.outlines = std::move(drawn.outlines);
  frame.exact_shapes = std::move(drawn.exact_shapes);
}

}  // namespace sphero
