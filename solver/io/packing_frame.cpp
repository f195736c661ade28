#include "io/packing_frame.h"

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
    p.kinetic_energy = 0.5 * m.mass(b.density) * norm2(b.velocity) +
                       0.5 * m.inertia(b.density) * b.angular_velocity * b.angular_velocity;
    frame.particles.push_back(p);
    frame.outlines.push_back(placed(outlines.outline(b.shape), b));
  }
  return frame;
}

}  // namespace sphero
