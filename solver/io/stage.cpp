#include "io/stage.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "engine/body_removal.h"
#include "engine/stability.h"
#include "engine/wall_label.h"
#include "engine/wall_steps.h"
#include "io/wall_motions.h"
#include "shapes/mass_properties.h"

namespace sphero {
namespace {

// The law tables for `materials` materials: the state's where `keep` holds,
// then `given` over the pairs it names. Every pair needs a law.
void set_law_tables(EngineSnapshot& state, const std::vector<LawSpec>& given, int materials, bool keep,
                    const std::string& source) {
  World& w = state.world;
  const bool rigid = state.settings.model == Model::rigid;
  const auto index = [&](int a, int b) { return static_cast<std::size_t>(a * materials + b); };
  std::vector<std::optional<ContactLaw>> soft(index(materials, 0));
  std::vector<std::optional<RigidLaw>> hard(soft.size());
  const int old = w.material_count;
  if (keep)
    for (int a = 0; a < std::min(old, materials); ++a)
      for (int b = 0; b < std::min(old, materials); ++b) {
        soft[index(a, b)] = w.law[static_cast<std::size_t>(a * old + b)];
        if (rigid) hard[index(a, b)] = w.rigid_law[static_cast<std::size_t>(a * old + b)];
      }
  std::vector<std::optional<std::string>> named_at(soft.size());
  for (const LawSpec& l : given)
    for (auto [a, b] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
      if (named_at[index(a, b)] && *named_at[index(a, b)] != l.at.where)
        fail_at(
            l.at, "law", fmt::format("materials {} and {} already have a law ({})", l.a, l.b, *named_at[index(a, b)]));
      named_at[index(a, b)] = l.at.where;
      soft[index(a, b)] = l.rigid ? placeholder_law() : l.law;
      if (l.rigid) hard[index(a, b)] = *l.rigid;
    }
  w.law.clear();
  w.rigid_law.clear();
  for (int a = 0; a < materials; ++a)
    for (int b = 0; b < materials; ++b) {
      if (!soft[index(a, b)] || (rigid && !hard[index(a, b)]))
        throw SceneError(fmt::format("{}: no contact law between materials {} and {}; add 'law = {} {} {}'", source, a,
                                     b, a, b, rigid ? "rigid restitution=..." : "linear kn=..."));
      w.law.push_back(*soft[index(a, b)]);
      if (rigid) w.rigid_law.push_back(*hard[index(a, b)]);
    }
  w.material_count = materials;
}

// The materials a stage's laws and walls name, beside the state's.
int materials_after(const World& w, const std::vector<LawSpec>& laws, const std::vector<WallChange>& changes,
                    const std::vector<WallSpec>& walls, const std::vector<GrainsSpec>& grains) {
  int materials = w.material_count;
  const auto need = [&](int material, const SceneLocation& at, const char* key) {
    check_material(at, key, material);
    materials = std::max(materials, material + 1);
  };
  for (const LawSpec& l : laws) need(std::max(l.a, l.b), l.at, "law");
  for (const WallChange& c : changes)
    if (c.material) need(*c.material, c.at, "set_wall");
  for (const WallSpec& s : walls) need(s.material, s.at, "wall");
  for (const GrainsSpec& g : grains) need(g.material, g.at, "grains");
  return materials;
}

// Grains a stage adds come after every body (the ids before stay). Their
// kinetic and potential energies are booked as work in, what bringing
// them in cost, so the first law still closes; their forces are the body
// forces (placed clear of every body, they touch none), as a fresh run's
// first step would find them; Gear's history starts from them.
void add_stage_grains(const std::vector<GrainsSpec>& lines, std::uint64_t seed, EngineSnapshot& state,
                      Placing placing) {
  if (lines.empty()) return;
  // A seed of the stage's own for every step it may start at.
  const std::uint64_t mixed = seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(state.step + 1);
  const std::vector<BodySpec> grains =
      placing == Placing::among_bodies ? grains_among(lines, state.world, mixed) : unplaced_grains(lines);
  World& w = state.world;
  const std::size_t before = w.size();
  try {
    add_bodies(w, grains);
  } catch (const std::invalid_argument& e) {
    fail_at(lines.front().at, "grains", e.what());
  }
  if (!state.books) state.books = books_of(state.ledger);
  const double half_dt2 = 0.5 * state.settings.dt * state.settings.dt;
  for (std::size_t i = before; i < w.size(); ++i) {
    w.force[i] = body_force(w, i);
    for (const double energy : {translational_energy(w, i), rotational_energy(w, i), body_potential(w, i)}) {
      state.books->external_work.add(energy);
      state.ledger.external_work += energy;
    }
    if (!state.r2.empty()) {
      state.r2.push_back({w.force[i].x / w.mass[i] * half_dt2, w.force[i].y / w.mass[i] * half_dt2, 0.0});
      state.r3.push_back({0.0, 0.0, 0.0});
      state.r4.push_back({0.0, 0.0, 0.0});
    }
  }
  // The next step lists the new grains' pairs (a list whose references
  // count fewer bodies than the world rebuilds, keeping every contact).
  if (!state.neighbours.wraps.empty()) state.neighbours.wraps.resize(w.size(), {0, 0});
}

// The time step `dt` (0: auto, for the state's world now), checked as a
// scene's is.
void set_time_step(EngineSnapshot& state, double dt, const SceneLocation& at) {
  const double chosen = dt > 0.0 ? dt : default_time_step(state.world);
  if (chosen != state.settings.dt && state.settings.integrator == Integrator::gear &&
      state.settings.model == Model::soft)
    fail_at(at, "dt",
            fmt::format("dt {} s where the run had {} s: Gear's history is kept in steps of dt, so a Gear run "
                        "keeps its time step (use integrator = verlet to change it between stages)",
                        chosen, state.settings.dt));
  EngineSettings settings = state.settings;
  settings.dt = chosen;
  try {
    if (settings.model == Model::soft) check_time_step(state.world, settings);
  } catch (const std::invalid_argument& e) {
    fail_at(at, "dt", e.what());
  }
  state.settings.dt = chosen;
}

// The bodies a removal line names, flagged in `removed`.
void flag_removal(const RemovalSpec& r, const World& w, std::vector<std::uint8_t>& removed) {
  if (r.region) {
    const auto [x0, y0, x1, y1] = *r.region;
    for (std::size_t i = 0; i < w.size(); ++i) {
      const Vec2 p = w.position[i];
      if (!w.is_wall[i] && p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1) removed[i] = 1;
    }
    return;
  }
  for (const int id : r.ids) {
    const int i = index_of_id(w, id);
    if (i < 0)
      fail_at(r.at, "remove",
              fmt::format("no body has id {} (ids are the frames' 'id'; those of removed grains are not reused)", id));
    const auto body = static_cast<std::size_t>(i);
    if (w.is_wall[body])
      fail_at(r.at, "remove",
              fmt::format("body {} is wall '{}': remove a wall with 'set_wall = {} remove'", id, w.shape_name[body],
                          is_unnamed_wall(w.shape_name[body]) ? std::to_string(id) : w.shape_name[body]));
    removed[body] = 1;
  }
}

// A stage's `remove` lines and `set_wall = W remove` lines, applied at
// once before anything else the stage changes (their energies leave the
// books under the laws they had).
void remove_stage_bodies(const std::vector<RemovalSpec>& removals, const std::vector<WallChange>& changes,
                         EngineSnapshot& state, Placing placing) {
  std::vector<std::uint8_t> removed(state.world.size(), 0);
  const SceneLocation* first = nullptr;  // the line a refusal names
  const char* first_key = "";
  WallMotions motions(wall_views(state.world));
  for (const WallChange& c : changes)
    if (c.remove) {
      removed[motions.need_wall(c.wall, c.at, "set_wall")] = 1;
      if (!first) first = &c.at, first_key = "set_wall";
    }
  for (const RemovalSpec& r : removals) {
    if (r.region && placing == Placing::unplaced) continue;  // where the grains will be is not known yet
    flag_removal(r, state.world, removed);
    if (!first) first = &r.at, first_key = "remove";
  }
  if (!first) return;
  try {
    remove_bodies(state, removed);
  } catch (const std::invalid_argument& e) {
    fail_at(*first, first_key, e.what());
  }
}

// set_wall's new motions (before any body is removed, so that a plate
// whose span a stage removes may be fixed in the same stage).
void apply_wall_motions(EngineSnapshot& state, const std::vector<WallChange>& changes) {
  WallMotions motions(wall_views(state.world));
  for (const WallChange& c : changes)
    if (!c.remove && !c.keeps_motion)
      motions.apply(motions.need_wall(c.wall, c.at, "set_wall"), c.motion, c.at, "set_wall");
}

// set_wall's new materials (once the law tables hold them).
void apply_wall_materials(EngineSnapshot& state, const std::vector<WallChange>& changes) {
  WallMotions motions(wall_views(state.world));
  for (const WallChange& c : changes)
    if (!c.remove && c.material) state.world.material[motions.need_wall(c.wall, c.at, "set_wall")] = *c.material;
}

// The checkpoint's wall that `spec`, the k-th wall line, continues: the
// wall of its name, or wall k where it has none; of the same shape.
std::size_t matching_wall(const World& w, const WallSpec& spec, std::size_t k) {
  std::size_t i = w.size();
  if (!spec.name.empty()) {
    for (std::size_t j = 0; j < w.size() && i == w.size(); ++j)
      if (w.is_wall[j] && w.shape_name[j] == spec.name) i = j;
    if (i == w.size())
      fail_at(spec.at, "wall",
              fmt::format("the run continued has no wall named '{}': a continued run adds no walls", spec.name));
  } else {
    const int found = index_of_id(w, static_cast<int>(k));
    if (found < 0 || !w.is_wall[static_cast<std::size_t>(found)])
      fail_at(spec.at, "wall",
              fmt::format("the run continued has no wall {} for this line: a continued run adds no walls", k));
    i = static_cast<std::size_t>(found);
  }
  const Shape shape = make_shape(
      "wall", spec.points.size() == 2 ? SkeletonKind::segment : SkeletonKind::polyline, spec.points, spec.radius);
  const Vec2 centroid = mass_properties(shape).centroid;
  const std::vector<Vec2> local = local_skeleton(w, i);
  bool same = local.size() == shape.vertices.size() && spec.radius == w.radius[i];
  for (std::size_t v = 0; same && v < local.size(); ++v)
    same = norm(local[v] - (shape.vertices[v] - centroid)) <= 1e-9 * w.bounding_radius[i];
  if (!same)
    fail_at(spec.at, "wall",
            fmt::format("wall {} of the run continued has another shape (points, radius): a stage moves walls, it "
                        "does not reshape them",
                        i));
  return i;
}

void refuse_what_cannot_carry_over(const SceneConfig& scene, const EngineSnapshot& state,
                                   const std::string& checkpoint) {
  const auto refuse = [&](const std::string& what) {
    throw SceneError(fmt::format("{}: cannot continue {}: {}", scene.source, checkpoint, what));
  };
  const EngineSettings& s = state.settings;
  if (scene.engine.model != s.model)
    refuse(fmt::format(
        "it is a {} run, the scene asks for the {} model (model)", to_string(s.model), to_string(scene.engine.model)));
  if (s.model == Model::soft && scene.engine.integrator != s.integrator)
    refuse("the integrator differs (integrator): a stage keeps the integrator's history");
  if (s.model == Model::rigid && (scene.engine.rigid.events != s.rigid.events ||
                                  scene.engine.rigid.whole_step_events != s.rigid.whole_step_events))
    refuse("the stepping differs (stepping)");
  const PeriodicCell& c = state.world.cell;
  if (c.periodic != scene.cell.periodic || !(c.low == scene.cell.low) || !(c.size == scene.cell.size))
    refuse("the periodic cell differs (periodic, cell)");
  if (!scene.packings.empty())
    fail_at(scene.packings.front().second, "packing",
            "a continued run adds no packing: add grains with 'grains = ...' lines, or start a new scene with the "
            "checkpoint's last state file and this packing");
}

// The scene's collision solver and tolerance replace the checkpoint's: a
// new run may solve its programs otherwise (gather a sample loosely, then
// time it tightly). The gap fixes which pairs the neighbour list holds, so
// a scene that names another one is refused.
void take_the_scenes_rigid_solver(const SceneConfig& scene, EngineSnapshot& state, const std::string& checkpoint) {
  if (state.settings.model != Model::rigid) return;
  RigidSettings& r = state.settings.rigid;
  const double gap = scene.engine.rigid.gap;
  if (gap > 0.0 && gap != r.gap)
    throw SceneError(
        fmt::format("{}: cannot continue {}: its rigid_gap is {:g} m and the scene asks for {:g} m; a "
                    "continued run keeps the gap its neighbour list was built for: drop rigid_gap",
                    scene.source, checkpoint, r.gap, gap));
  r.solver = scene.engine.rigid.solver;
  r.qp_tolerance = scene.engine.rigid.qp_tolerance;
}

}  // namespace

void apply_stage(const StageSpec& stage, EngineSnapshot& state, Placing placing) {
  apply_wall_motions(state, stage.wall_changes);
  remove_stage_bodies(stage.removals, stage.wall_changes, state, placing);
  const int materials = materials_after(state.world, stage.laws, stage.wall_changes, {}, stage.grains);
  set_law_tables(state, stage.laws, materials, true, fmt::format("{} (stage {})", stage.at.where, stage.name));
  if (stage.gravity) state.world.gravity = *stage.gravity;
  if (stage.attractor) state.world.attractor = *stage.attractor;
  apply_wall_materials(state, stage.wall_changes);
  add_stage_grains(stage.grains, stage.seed, state, placing);
  if (stage.dt) set_time_step(state, *stage.dt, stage.at);
  try {
    check_wall_steps(state.world, state.settings);
  } catch (const std::invalid_argument& e) {
    fail_at(stage.at, stage.wall_changes.empty() ? "dt" : "set_wall", e.what());
  }
}

void start_stage_from(const SceneConfig& scene, EngineSnapshot& state, const std::string& checkpoint) {
  refuse_what_cannot_carry_over(scene, state, checkpoint);
  take_the_scenes_rigid_solver(scene, state, checkpoint);
  // The wall lines' motions, then set_wall's, then the removals, as a stage.
  std::vector<int> matched;  // ids
  {
    WallMotions motions(wall_views(state.world));
    for (std::size_t k = 0; k < scene.walls.size(); ++k) {
      const WallSpec& spec = scene.walls[k];
      const std::size_t wall = matching_wall(state.world, spec, k);
      motions.apply(wall, spec.motion, spec.at, "wall");
      matched.push_back(state.world.id[wall]);
    }
  }
  apply_wall_motions(state, scene.wall_changes);
  remove_stage_bodies(scene.removals, scene.wall_changes, state, Placing::among_bodies);
  const int materials = materials_after(state.world, scene.laws, scene.wall_changes, scene.walls, scene.grains);
  set_law_tables(state, scene.laws, materials, false, scene.source);
  state.world.gravity = scene.gravity;
  state.world.attractor = scene.attractor;
  for (std::size_t k = 0; k < scene.walls.size(); ++k) {
    const int wall = index_of_id(state.world, matched[k]);
    if (wall < 0)
      fail_at(scene.walls[k].at, "wall", "the wall this line continues is removed by 'set_wall = ... remove'");
    state.world.material[static_cast<std::size_t>(wall)] = scene.walls[k].material;
  }
  apply_wall_materials(state, scene.wall_changes);
  add_stage_grains(scene.grains, scene.seed, state, Placing::among_bodies);
  set_time_step(state, scene.engine.dt, {scene.source});
}

}  // namespace sphero
