// A scene's world: its walls and their motions, the bodies of its packings,
// its grains placed as the `grains` lines ask, and the law of every pair of
// materials; and the engine settings it resolves to.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <random>

#include "engine/stability.h"
#include "engine/wall_vibration.h"
#include "geometry/segment.h"
#include "geometry/uniform.h"
#include "io/scene.h"
#include "io/state_vtu.h"
#include "packing/random_placement.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

double distance_to_path(const std::vector<Vec2>& path, Vec2 p) {
  double d = INFINITY;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) d = std::min(d, distance_to_segment(p, path[i], path[i + 1]));
  return d;
}

// The number of materials the scene names (laws, walls, grains, changes).
// The law table holds materials² entries: material numbers stay small.
constexpr int kMostMaterials = 1000;

void check_material(const SceneLocation& at, const char* key, int material) {
  if (material >= kMostMaterials)
    fail_at(at, key,
            fmt::format(
                "material {}; materials are numbered 0 to {} (number them from 0 up)", material, kMostMaterials - 1));
}

int materials_named(const SceneConfig& scene) {
  int materials = 1;
  for (const auto& l : scene.laws) {
    check_material(l.at, "law", std::max(l.a, l.b));
    materials = std::max({materials, l.a + 1, l.b + 1});
  }
  for (const auto& w : scene.walls)
    check_material(w.at, "wall", w.material), materials = std::max(materials, w.material + 1);
  for (const auto& g : scene.grains)
    check_material(g.at, "grains", g.material), materials = std::max(materials, g.material + 1);
  for (const auto& c : scene.wall_changes)
    if (c.material) check_material(c.at, "set_wall", *c.material), materials = std::max(materials, *c.material + 1);
  return materials;
}

// Laws: every pair of materials in use needs one, given once.
std::vector<LawSpec> law_table(const SceneConfig& scene, int materials) {
  std::vector<std::optional<LawSpec>> table(static_cast<std::size_t>(materials * materials));
  for (const auto& l : scene.laws) {
    for (auto [a, b] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
      auto& slot = table[static_cast<std::size_t>(a * materials + b)];
      if (slot && slot->at.where != l.at.where)
        fail_at(l.at, "law", fmt::format("materials {} and {} already have a law ({})", l.a, l.b, slot->at.where));
      slot = l;
    }
  }
  const bool rigid = scene.engine.model == Model::rigid;
  std::vector<LawSpec> laws;
  for (int a = 0; a < materials; ++a)
    for (int b = 0; b < materials; ++b) {
      const auto& slot = table[static_cast<std::size_t>(a * materials + b)];
      if (!slot)
        throw SceneError(fmt::format("{}: no contact law between materials {} and {}; add 'law = {} {} {}'",
                                     scene.source, a, b, a, b, rigid ? "rigid restitution=..." : "linear kn=..."));
      laws.push_back(*slot);
    }
  return laws;
}

// The world's two law tables from the scene's: a rigid scene's soft table
// holds placeholders (nothing reads them), a soft scene has no rigid one.
void set_laws(const SceneConfig& scene, const std::vector<LawSpec>& laws, std::vector<ContactLaw>& soft,
              std::vector<RigidLaw>& rigid) {
  for (const LawSpec& l : laws) {
    soft.push_back(l.rigid ? placeholder_law() : l.law);
    if (scene.engine.model == Model::rigid) rigid.push_back(*l.rigid);
  }
}

// The scene's walls, then the bodies of its packings (raising `materials`
// to what the packings use).
std::vector<BodySpec> wall_and_packing_bodies(const SceneConfig& scene, int& materials) {
  std::vector<BodySpec> bodies;
  for (const WallSpec& w : scene.walls) {
    BodySpec b;
    try {
      b.shape =
          make_shape("wall", w.points.size() == 2 ? SkeletonKind::segment : SkeletonKind::polyline, w.points, w.radius);
    } catch (const ShapeError& e) {
      fail_at(w.at, "wall", e.what());
    }
    b.position = mass_properties(b.shape).centroid;
    b.is_wall = true;
    b.material = w.material;
    b.density = w.density;
    bodies.push_back(b);
  }
  for (const auto& [file, at] : scene.packings) {
    try {
      for (BodySpec& b : read_state_vtu(file)) {
        if (b.material < 0 || b.material >= kMostMaterials)
          throw std::runtime_error(fmt::format("{}: a body of material {}; materials are numbered 0 to {}",
                                               file.string(), b.material, kMostMaterials - 1));
        materials = std::max(materials, b.material + 1);
        bodies.push_back(std::move(b));
      }
    } catch (const std::runtime_error& e) {
      fail_at(at, "packing", e.what());
    }
  }
  return bodies;
}

// Motions of walls, set once all bodies are known, since a plate's span may
// name walls of a packing. Walls are named by their body number, as
// energy.csv and the walls' frames name them (wallN): the scene's walls are
// bodies 0, 1, ..., a packing's follow in its order.
class WallMotions {
 public:
  explicit WallMotions(std::vector<BodySpec>& bodies) : bodies_(bodies) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      if (!bodies[i].is_wall || (i > 0 && bodies[i - 1].is_wall)) continue;
      std::size_t last = i;
      while (last + 1 < bodies.size() && bodies[last + 1].is_wall) ++last;
      wall_numbers_ +=
          (wall_numbers_.empty() ? "" : ", ") + (last == i ? fmt::format("{}", i) : fmt::format("{} to {}", i, last));
    }
  }

  std::size_t need_wall(int number, const SceneLocation& at, const std::string& key) const {
    if (number >= static_cast<int>(bodies_.size()) || !bodies_[static_cast<std::size_t>(number)].is_wall)
      fail_at(at, key,
              fmt::format("body {} is not a wall; the walls are {} (numbered as in energy.csv)", number,
                          wall_numbers_.empty() ? "none" : wall_numbers_));
    return static_cast<std::size_t>(number);
  }

  void apply(std::size_t wall, const WallMotion& m, const SceneLocation& at, const std::string& key) {
    set_motion(wall, m, at, key);
    if (!m.amplitude) return;
    BodyConstraint& c = bodies_[wall].constraint;
    c.vibration = {*m.amplitude, m.frequency, m.tap_interval, {c.imposed_velocity[dof_x], c.imposed_velocity[dof_y]}};
    try {
      check_vibration(c);
    } catch (const std::invalid_argument& e) {
      fail_at(at, key, e.what());
    }
  }

 private:
  void set_motion(std::size_t wall, const WallMotion& m, const SceneLocation& at, const std::string& key) {
    BodySpec& b = bodies_[wall];
    if (!m.pressure) {
      b.constraint = BodyConstraint{};
      b.constraint.held = {true, true, true};
      if (m.velocity) b.constraint.imposed_velocity = {m.velocity->x, m.velocity->y, 0.0};
      return;
    }
    double length = 0.0;
    for (int e = 0; e < b.shape.edge_count(); ++e) length += norm(b.shape.edge_end(e) - b.shape.edge_start(e));
    try {
      const double sliding = m.velocity ? (m.inward.x != 0.0 ? m.velocity->y : m.velocity->x) : 0.0;
      b.constraint = pressure_plate(*m.pressure, length, m.inward, sliding);
    } catch (const std::invalid_argument& e) {
      fail_at(at, key, e.what());
    }
    if (!m.span) return;
    for (int end : *m.span) {
      need_wall(end, at, key);
      if (static_cast<std::size_t>(end) == wall)
        fail_at(
            at, key, fmt::format("span={},{}: a plate's span is between two other walls", (*m.span)[0], (*m.span)[1]));
    }
    b.constraint.span_bodies = *m.span;
  }

  std::vector<BodySpec>& bodies_;
  std::string wall_numbers_;  // "0, 100 to 103", for messages
};

// Removing shifts the bodies behind: renumber the spans that survive.
void remove_bodies(std::vector<BodySpec>& bodies, const std::vector<bool>& removed, const std::string& source) {
  std::vector<int> renumbered(bodies.size(), -1);
  std::vector<BodySpec> kept;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (!removed[i]) renumbered[i] = static_cast<int>(kept.size()), kept.push_back(std::move(bodies[i]));
  for (BodySpec& b : kept)
    for (int& end : b.constraint.span_bodies)
      if (end >= 0) {
        if (renumbered[static_cast<std::size_t>(end)] < 0)
          throw SceneError(fmt::format("{}: a plate's span names a wall that set_wall removes", source));
        end = renumbered[static_cast<std::size_t>(end)];
      }
  bodies = std::move(kept);
}

void apply_wall_motions_and_changes(const SceneConfig& scene, std::vector<BodySpec>& bodies) {
  WallMotions motions(bodies);
  for (std::size_t k = 0; k < scene.walls.size(); ++k)
    motions.apply(k, scene.walls[k].motion, scene.walls[k].at, "wall");
  std::vector<bool> removed(bodies.size(), false);
  for (const WallChange& c : scene.wall_changes) {
    const std::size_t wall = motions.need_wall(c.wall, c.at, "set_wall");
    if (c.remove) {
      removed[wall] = true;
      continue;
    }
    motions.apply(wall, c.motion, c.at, "set_wall");
    if (c.material) bodies[wall].material = *c.material;
  }
  if (std::find(removed.begin(), removed.end(), true) != removed.end()) remove_bodies(bodies, removed, scene.source);
}

// A grain of `g` at c must not overlap grains placed before, nor a wall, and
// must lie in the periodic cell.
void check_grain_centre(const SceneConfig& scene, const GrainsSpec& g, Vec2 c, double R, const PlacedCircles& earlier,
                        const std::vector<const GrainsSpec*>& placed_from) {
  if (const auto k = earlier.first_overlap(c, false))
    fail_at(g.at, "grains",
            fmt::format("a grain at ({:g}, {:g}) overlaps grains from {}; move the regions apart", c.x, c.y,
                        placed_from[static_cast<std::size_t>(*k)]->at.where));
  for (const WallSpec& w : scene.walls)
    if (distance_to_path(w.points, c) < R + w.radius)
      fail_at(g.at, "grains",
              fmt::format("a grain at ({:g}, {:g}) overlaps the wall of {}; keep the region {:g} away from walls", c.x,
                          c.y, w.at.where, R + w.radius));
  for (int axis = 0; axis < 2; ++axis) {
    if (!scene.cell.periodic[axis]) continue;
    const double low = axis ? scene.cell.low.y : scene.cell.low.x, size = axis ? scene.cell.size.y : scene.cell.size.x;
    const double coordinate = axis ? c.y : c.x;
    if (coordinate < low || coordinate >= low + size)
      fail_at(g.at, "grains", fmt::format("a grain at ({:g}, {:g}) lies outside the periodic cell", c.x, c.y));
  }
}

// The scene's `grains` lines, in order, from one generator seeded by the
// scene: the centres of a line (packing/random_placement.h), then each
// grain's angle and heading.
void add_grain_bodies(const SceneConfig& scene, std::vector<BodySpec>& bodies, const Progress& progress) {
  std::mt19937_64 generator(scene.seed);
  std::vector<Circle> placed;
  std::vector<const GrainsSpec*> placed_from;
  for (const GrainsSpec& g : scene.grains) {
    Shape shape;
    try {
      shape = read_shape_file(g.shape_file);
    } catch (const ShapeError& e) {
      fail_at(g.at, "grains", e.what());
    }
    const double R = mass_properties(shape).bounding_radius;
    const Box region{{g.region[0], g.region[1]}, {g.region[2], g.region[3]}};
    std::vector<Vec2> centres;
    try {
      centres = g.generator == "lattice" ? lattice_centres(region, R, g.count, shape.name)
                                         : random_centres(generator, region, R, g.count, placed, shape.name, progress);
    } catch (const std::invalid_argument& e) {
      fail_at(g.at, "grains", e.what());
    }
    PlacedCircles earlier(R);  // the grains of the lines before this one
    for (const Circle& p : placed) earlier.add(p.centre, p.radius);
    for (std::size_t k = 0; k < centres.size(); ++k) {
      const Vec2 c = centres[k];
      check_grain_centre(scene, g, c, R, earlier, placed_from);
      report(progress, "checking overlaps", k + 1, centres.size());
      placed.push_back({c, R});
      placed_from.push_back(&g);
      BodySpec b;
      b.shape = shape;
      b.position = c;
      b.angle = g.random_angle ? 2.0 * std::numbers::pi * unit_uniform(generator) : g.angle * std::numbers::pi / 180.0;
      b.velocity = random_heading_velocity(generator, g.speed);
      b.material = g.material;
      b.density = g.density;
      bodies.push_back(b);
    }
  }
}

}  // namespace

World build_world(const SceneConfig& scene, const Progress& progress) {
  int materials = materials_named(scene);
  std::vector<ContactLaw> laws;
  std::vector<RigidLaw> rigid_laws;
  set_laws(scene, law_table(scene, materials), laws, rigid_laws);
  std::vector<BodySpec> bodies = wall_and_packing_bodies(scene, materials);
  apply_wall_motions_and_changes(scene, bodies);
  if (materials * materials != static_cast<int>(laws.size()))
    throw SceneError(fmt::format("{}: the packing uses material {} but the scene has laws for materials 0 to {} only",
                                 scene.source, materials - 1, static_cast<int>(std::sqrt(laws.size())) - 1));
  add_grain_bodies(scene, bodies, progress);
  try {
    World world = make_world(bodies, materials, laws, scene.gravity, scene.cell);
    world.rigid_law = std::move(rigid_laws);
    world.attractor = scene.attractor;
    return world;
  } catch (const std::invalid_argument& e) {
    throw SceneError(fmt::format("{}: {}", scene.source, e.what()));
  }
}

namespace {

double smallest_grain_size(const World& world) {
  double smallest = INFINITY;
  for (std::size_t i = 0; i < world.size(); ++i)
    if (!world.is_wall[i]) smallest = std::min(smallest, 2.0 * world.bounding_radius[i]);
  return smallest;
}

}  // namespace

EngineSettings resolve_engine_settings(const SceneConfig& scene, const World& world) {
  EngineSettings settings = scene.engine;
  if (settings.verlet_distance <= 0.0) {
    // auto: at most 5% of the smallest grain, thinner while the grains
    // barely move (the engine adapts it; forces do not depend on it).
    settings.verlet_distance = 0.05 * smallest_grain_size(world);
    settings.adaptive_verlet_distance = true;
  }
  settings.threads = scene.threads;
  if (settings.model == Model::rigid) {
    // auto: a thousandth of the smallest grain; overlaps beyond the gap
    // are corrected (docs/MODEL.md §7).
    if (settings.rigid.gap <= 0.0) settings.rigid.gap = 1e-3 * smallest_grain_size(world);
    settings.rigid.overlap_tolerance = settings.rigid.gap;
  }
  if (settings.dt <= 0.0) settings.dt = default_time_step(world);
  return settings;
}

}  // namespace sphero
