// A scene's world: its walls and their motions, the bodies of its packings,
// its grains placed as the `grains` lines ask, and the law of every pair of
// materials; and the engine settings it resolves to.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <optional>
#include <random>

#include "engine/stability.h"
#include "geometry/segment.h"
#include "geometry/uniform.h"
#include "io/scene.h"
#include "io/state_vtu.h"
#include "io/wall_labels.h"
#include "io/wall_motions.h"
#include "packing/random_placement.h"
#include "packing/touching_pairs.h"
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

// The bodies laid out so far, each with the source it came from.
struct Layout {
  std::vector<BodySpec> bodies;
  std::vector<std::size_t> source;  // per body: its index in `sources`
  std::vector<BodySource> sources;

  void add(BodySpec b) {
    (b.is_wall ? sources.back().walls : sources.back().grains) += 1;
    bodies.push_back(std::move(b));
    source.push_back(sources.size() - 1);
  }
};

// The scene's walls, then the bodies of its packings (raising `materials`
// to what the packings use). A packing's plates span bodies of its own:
// their numbers are shifted with the packing.
void add_wall_and_packing_bodies(const SceneConfig& scene, int& materials, Layout& layout) {
  layout.sources.push_back({scene.source, "walls"});
  for (const WallSpec& w : scene.walls) {
    BodySpec b;
    try {
      b.shape = make_shape(w.name.empty() ? "wall" : w.name,
                           w.points.size() == 2 ? SkeletonKind::segment : SkeletonKind::polyline, w.points, w.radius);
    } catch (const ShapeError& e) {
      fail_at(w.at, "wall", e.what());
    }
    b.position = mass_properties(b.shape).centroid;
    b.is_wall = true;
    b.material = w.material;
    b.density = w.density;
    layout.add(std::move(b));
  }
  for (const auto& [file, at] : scene.packings) {
    layout.sources.push_back({at.where, "packing " + file.string()});
    const int first = static_cast<int>(layout.bodies.size());
    try {
      for (BodySpec& b : read_state_vtu(file)) {
        if (b.material < 0 || b.material >= kMostMaterials)
          throw std::runtime_error(fmt::format("{}: a body of material {}; materials are numbered 0 to {}",
                                               file.string(), b.material, kMostMaterials - 1));
        materials = std::max(materials, b.material + 1);
        for (int& end : b.constraint.span_bodies)
          if (end >= 0) end += first;
        layout.add(std::move(b));
      }
    } catch (const std::runtime_error& e) {
      fail_at(at, "packing", e.what());
    }
  }
}

// Two walls may not share a name: set_wall, span= and energy.csv find a
// wall by it.
void check_wall_names(const SceneConfig& scene, const Layout& layout) {
  // The scene's walls are bodies 0, 1, ...: each is known by its line.
  const auto origin = [&](std::size_t i) {
    if (i < scene.walls.size()) return scene.walls[i].at.where;
    const BodySource& s = layout.sources[layout.source[i]];
    return fmt::format("{}, {}", s.what, s.where);
  };
  std::map<std::string, std::size_t> named;
  for (std::size_t i = 0; i < layout.bodies.size(); ++i) {
    const BodySpec& b = layout.bodies[i];
    if (!b.is_wall || is_unnamed_wall(b.shape.name)) continue;
    const auto [first, fresh] = named.emplace(b.shape.name, i);
    if (fresh) continue;
    throw SceneError(
        fmt::format("{}: walls {} ({}) and {} ({}) are both named '{}'; a wall's name is its own: "
                    "rename one (wall = name=...)",
                    scene.source, first->second, origin(first->second), i, origin(i), b.shape.name));
  }
}

// Removing shifts the bodies behind: renumber the spans that survive.
void remove_bodies(Layout& layout, const std::vector<bool>& removed, const std::string& source) {
  std::vector<BodySpec>& bodies = layout.bodies;
  std::vector<int> renumbered(bodies.size(), -1);
  std::vector<BodySpec> kept;
  std::vector<std::size_t> kept_source;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (!removed[i]) {
      renumbered[i] = static_cast<int>(kept.size());
      kept.push_back(std::move(bodies[i]));
      kept_source.push_back(layout.source[i]);
    }
  for (BodySpec& b : kept)
    for (int& end : b.constraint.span_bodies)
      if (end >= 0) {
        if (renumbered[static_cast<std::size_t>(end)] < 0)
          throw SceneError(fmt::format("{}: a plate's span names a wall that set_wall removes", source));
        end = renumbered[static_cast<std::size_t>(end)];
      }
  bodies = std::move(kept);
  layout.source = std::move(kept_source);
}

void apply_wall_motions_and_changes(const SceneConfig& scene, Layout& layout) {
  std::vector<BodySpec>& bodies = layout.bodies;
  // Set once all bodies are known: a plate's span may name a packing's walls.
  WallMotions motions(wall_views(bodies));
  for (std::size_t k = 0; k < scene.walls.size(); ++k)
    motions.apply(k, scene.walls[k].motion, scene.walls[k].at, "wall");
  std::vector<bool> removed(bodies.size(), false);
  for (const WallChange& c : scene.wall_changes) {
    const std::size_t wall = motions.need_wall(c.wall, c.at, "set_wall");
    if (c.remove) {
      removed[wall] = true;
      continue;
    }
    if (!c.keeps_motion) motions.apply(wall, c.motion, c.at, "set_wall");
    if (c.material) bodies[wall].material = *c.material;
  }
  if (std::find(removed.begin(), removed.end(), true) != removed.end()) remove_bodies(layout, removed, scene.source);
}

// Grains given whole, each a grain whatever its spec says.
void add_given_grains(const GivenGrains& given, int& materials, Layout& layout) {
  if (given.bodies.empty()) return;
  layout.sources.push_back({given.source, "grains given"});
  for (BodySpec b : given.bodies) {
    if (b.material < 0 || b.material >= kMostMaterials)
      throw SceneError(fmt::format(
          "{}: a grain of material {}; materials are numbered 0 to {}", given.source, b.material, kMostMaterials - 1));
    materials = std::max(materials, b.material + 1);
    b.is_wall = false;
    layout.add(std::move(b));
  }
}

// The shape of a grains line, refused with the line where it cannot be read.
Shape grain_shape(const GrainsSpec& g) {
  try {
    return read_shape_file(g.shape_file);
  } catch (const ShapeError& e) {
    fail_at(g.at, "grains", e.what());
  }
}

// The circles grains are placed clear of, each with where it came from.
struct Placed {
  std::vector<Circle> circles;
  std::vector<std::string> origin;  // "grains from scene.ini:7", "the run's grain 12"
};

// Where a grain of `g` at c, of bounding radius R, meets a wall: empty
// where it meets none.
using WallCheck = std::function<std::string(Vec2 c, double R)>;

// A grain of `g` at c must not overlap grains placed before, nor a wall, and
// must lie in the periodic cell.
void check_grain_centre(const GrainsSpec& g, Vec2 c, double R, const PlacedCircles& earlier, const Placed& placed,
                        const WallCheck& meets_wall, const PeriodicCell& cell) {
  if (const auto k = earlier.first_overlap(c, false))
    fail_at(g.at, "grains",
            fmt::format("a grain at ({:g}, {:g}) overlaps {}; move the regions apart", c.x, c.y,
                        placed.origin[static_cast<std::size_t>(*k)]));
  if (const std::string wall = meets_wall(c, R); !wall.empty())
    fail_at(g.at, "grains", fmt::format("a grain at ({:g}, {:g}) overlaps {}", c.x, c.y, wall));
  for (int axis = 0; axis < 2; ++axis) {
    if (!cell.periodic[axis]) continue;
    const double low = axis ? cell.low.y : cell.low.x, size = axis ? cell.size.y : cell.size.x;
    const double coordinate = axis ? c.y : c.x;
    if (coordinate < low || coordinate >= low + size)
      fail_at(g.at, "grains", fmt::format("a grain at ({:g}, {:g}) lies outside the periodic cell", c.x, c.y));
  }
}

// The grains of `lines`, in order, from `generator`: the centres of a line
// (packing/random_placement.h), clear of `placed` and of the walls, then
// each grain's angle and heading; `add` takes each grain and its line.
void place_grains(const std::vector<GrainsSpec>& lines, std::mt19937_64& generator, Placed& placed,
                  const WallCheck& meets_wall, const PeriodicCell& cell, const Progress& progress,
                  const std::function<void(BodySpec, const GrainsSpec&)>& add) {
  for (const GrainsSpec& g : lines) {
    const Shape shape = grain_shape(g);
    const double R = mass_properties(shape).bounding_radius;
    const Box region{{g.region[0], g.region[1]}, {g.region[2], g.region[3]}};
    std::vector<Vec2> centres;
    try {
      centres = g.generator == "lattice"
                    ? lattice_centres(region, R, g.count, shape.name)
                    : random_centres(generator, region, R, g.count, placed.circles, shape.name, progress);
    } catch (const std::invalid_argument& e) {
      fail_at(g.at, "grains", e.what());
    }
    PlacedCircles earlier(R);  // what lies there before this line
    for (const Circle& p : placed.circles) earlier.add(p.centre, p.radius);
    for (std::size_t k = 0; k < centres.size(); ++k) {
      const Vec2 c = centres[k];
      check_grain_centre(g, c, R, earlier, placed, meets_wall, cell);
      report(progress, "checking overlaps", k + 1, centres.size());
      placed.circles.push_back({c, R});
      placed.origin.push_back("grains from " + g.at.where);
      BodySpec b;
      b.shape = shape;
      b.position = c;
      b.angle = g.random_angle ? 2.0 * std::numbers::pi * unit_uniform(generator) : g.angle * std::numbers::pi / 180.0;
      b.velocity = random_heading_velocity(generator, g.speed);
      b.material = g.material;
      b.density = g.density;
      add(std::move(b), g);
    }
  }
}

// The scene's `grains` lines, in order, from one generator seeded by the
// scene.
void add_grain_bodies(const SceneConfig& scene, Layout& layout, const Progress& progress) {
  std::mt19937_64 generator(scene.seed);
  Placed placed;
  const WallCheck meets_wall = [&](Vec2 c, double R) -> std::string {
    for (const WallSpec& w : scene.walls)
      if (distance_to_path(w.points, c) < R + w.radius)
        return fmt::format("the wall of {}; keep the region {:g} away from walls", w.at.where, R + w.radius);
    return {};
  };
  const GrainsSpec* line = nullptr;
  place_grains(scene.grains, generator, placed, meets_wall, scene.cell, progress, [&](BodySpec b, const GrainsSpec& g) {
    if (line != &g) layout.sources.push_back({g.at.where, "grains " + g.shape_file.filename().string()}), line = &g;
    layout.add(std::move(b));
  });
}

// Grains whose skeletons cross overlap by more than their sphero-radii: no
// contact law can part them (a packing loaded twice, say).
void check_no_grains_superposed(const Layout& layout) {
  std::vector<int> grains;
  std::vector<BodySpec> grain_bodies;
  for (std::size_t i = 0; i < layout.bodies.size(); ++i)
    if (!layout.bodies[i].is_wall) grains.push_back(static_cast<int>(i)), grain_bodies.push_back(layout.bodies[i]);
  const auto crossing = first_crossing_pair(grain_bodies);
  if (!crossing) return;
  const auto describe = [&](int k) {
    const std::size_t body = static_cast<std::size_t>(grains[static_cast<std::size_t>(k)]);
    const BodySource& s = layout.sources[layout.source[body]];
    const Vec2 p = layout.bodies[body].position;
    return fmt::format("grain {} ('{}' at ({:g}, {:g}), from {}, {})", body, layout.bodies[body].shape.name, p.x, p.y,
                       s.what, s.where);
  };
  throw SceneError(
      fmt::format("{} and {} overlap by more than their sphero-radii (their skeletons cross), which no "
                  "contact can undo: is a packing loaded twice, or a grains region over a packing? "
                  "(a list key on the command line replaces the scene's; --add-packing adds)",
                  describe(crossing->first), describe(crossing->second)));
}

}  // namespace

std::vector<BodySpec> grains_among(const std::vector<GrainsSpec>& lines, const World& world, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  Placed placed;
  for (std::size_t i = 0; i < world.size(); ++i)
    if (!world.is_wall[i]) {
      placed.circles.push_back({world.position[i], world.bounding_radius[i]});
      placed.origin.push_back(fmt::format("the run's grain {}", i));
    }
  const WallCheck meets_wall = [&](Vec2 c, double R) -> std::string {
    for (std::size_t i = 0; i < world.size(); ++i) {
      if (!world.is_wall[i]) continue;
      // From the angle: a world read from a checkpoint holds no orientations.
      const Vec2 cs = orientation_at(world.angle[i]), p = world.position[i];
      std::vector<Vec2> path;
      for (const Vec2 v : local_skeleton(world, i))
        path.push_back({p.x + cs.x * v.x - cs.y * v.y, p.y + cs.y * v.x + cs.x * v.y});
      if (world.closed[i]) path.push_back(path.front());
      if (distance_to_path(path, c) < R + world.radius[i])
        return fmt::format(
            "wall {} ('{}'); keep the region {:g} away from it", i, world.shape_name[i], R + world.radius[i]);
    }
    return {};
  };
  std::vector<BodySpec> grains;
  place_grains(lines, generator, placed, meets_wall, world.cell, {},
               [&](BodySpec b, const GrainsSpec&) { grains.push_back(std::move(b)); });
  return grains;
}

std::vector<BodySpec> unplaced_grains(const std::vector<GrainsSpec>& lines) {
  std::vector<BodySpec> grains;
  for (const GrainsSpec& g : lines) {
    BodySpec b;
    b.shape = grain_shape(g);
    b.position = {0.5 * (g.region[0] + g.region[2]), 0.5 * (g.region[1] + g.region[3])};
    b.material = g.material;
    b.density = g.density;
    grains.insert(grains.end(), static_cast<std::size_t>(g.count), b);
  }
  return grains;
}

void check_material(const SceneLocation& at, const char* key, int material) {
  if (material >= kMostMaterials)
    fail_at(at, key,
            fmt::format(
                "material {}; materials are numbered 0 to {} (number them from 0 up)", material, kMostMaterials - 1));
}

World build_world(const SceneConfig& scene, const Progress& progress, std::vector<BodySource>* sources) {
  return build_world(scene, GivenGrains{}, progress, sources);
}

World build_world(const SceneConfig& scene, const GivenGrains& given, const Progress& progress,
                  std::vector<BodySource>* sources) {
  if (!scene.removals.empty())
    fail_at(scene.removals.front().at, "remove",
            "a new run has no grains to remove yet: remove grains in a '[stage NAME]' or in the scene of a run "
            "--from a checkpoint (leave a packing's walls out with 'set_wall = W remove')");
  if (given.bodies.empty()) require_bodies(scene);
  int materials = materials_named(scene);
  std::vector<ContactLaw> laws;
  std::vector<RigidLaw> rigid_laws;
  set_laws(scene, law_table(scene, materials), laws, rigid_laws);
  Layout layout;
  add_wall_and_packing_bodies(scene, materials, layout);
  check_wall_names(scene, layout);
  apply_wall_motions_and_changes(scene, layout);
  add_given_grains(given, materials, layout);
  if (materials * materials != static_cast<int>(laws.size()))
    throw SceneError(fmt::format("{}: the packing uses material {} but the scene has laws for materials 0 to {} only",
                                 scene.source, materials - 1, static_cast<int>(std::sqrt(laws.size())) - 1));
  add_grain_bodies(scene, layout, progress);
  check_no_grains_superposed(layout);
  if (sources) *sources = layout.sources;
  try {
    World world = make_world(layout.bodies, materials, laws, scene.gravity, scene.cell);
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
