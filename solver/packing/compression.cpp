#include "packing/compression.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "shapes/mass_properties.h"

namespace sphero {
namespace {

constexpr double kMostPressure = 1e12;  // N/m, as a scene's pressure plates
constexpr double kMostGravity = 1e6;    // m/s², as a scene's gravity

// A compaction applies its one law to every pair of materials, so that the
// grains keep their materials in the packing it writes.
int material_count(const std::vector<BodySpec>& bodies) {
  int most = 0;
  for (const BodySpec& b : bodies) most = std::max(most, b.material);
  return most + 1;
}

std::vector<ContactLaw> one_law_for_all(const std::vector<BodySpec>& bodies, const ContactLaw& law) {
  const auto n = static_cast<std::size_t>(material_count(bodies));
  return std::vector<ContactLaw>(n * n, law);
}

// The steps taken of the most allowed, and how far from static.
void report_steps(const Progress& progress, std::string_view stage, const Engine& engine, const CompactionResult& r,
                  const StaticCriterion& until) {
  if (progress)
    progress(fmt::format("{} (unbalanced force ratio {:.2g}, static at {:.2g}), step", stage, r.unbalanced_force_ratio,
                         until.unbalanced_force_ratio),
             static_cast<std::size_t>(engine.step_count()), static_cast<std::size_t>(until.max_steps));
}

struct Extent {
  Vec2 low{INFINITY, INFINITY}, high{-INFINITY, -INFINITY};
  double largest_reach = 0.0, mass = 0.0, area = 0.0;
};

Extent extent_of(const std::vector<BodySpec>& grains) {
  Extent e;
  for (const BodySpec& g : grains) {
    const MassProperties p = mass_properties(g.shape);
    const double R = p.bounding_radius;
    e.low = {std::min(e.low.x, g.position.x - R), std::min(e.low.y, g.position.y - R)};
    e.high = {std::max(e.high.x, g.position.x + R), std::max(e.high.y, g.position.y + R)};
    e.largest_reach = std::max(e.largest_reach, R);
    e.mass += p.mass(g.density);
    e.area += p.area;
  }
  return e;
}

BodySpec plate(const std::string& name, Vec2 a, Vec2 b, double r, double density) {
  BodySpec p;
  p.shape = make_shape(name, SkeletonKind::segment, {a, b}, r);
  p.position = mass_properties(p.shape).centroid;
  p.is_wall = true;
  p.density = density;
  return p;
}

double mean_net_force_ratio(const Engine& e) {
  // The net force (contacts + gravity) on a grain at rest vanishes.
  const World& w = e.world();
  double net = 0.0, contact = 0.0;
  int grains = 0, contacts = 0;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!w.is_wall[i]) net += norm(w.force[i]), ++grains;
  for (const Contact& c : e.contacts())
    if (c.active) contact += norm(c.force), ++contacts;
  if (contacts == 0 || grains == 0) return INFINITY;
  return (net / grains) / (contact / contacts);
}

// A compaction must come to rest, so its time step must resolve the
// stiffest mode: a contact at the tip of a slender grain turns it as well
// as pushing it (effective mass 1/(1/m + R²/I), a seventh of the mass of a
// grain of rice), and two ends in each other's cones touch twice. A
// fiftieth of that period; the translational one can be several times
// longer, and at it rice packings never stopped rattling.
EngineSettings settings_for(const World& world, double dt, double reach) {
  EngineSettings s;
  s.verlet_distance = 0.05 * reach;
  double lightest = INFINITY, kn = 0.0;
  for (std::size_t i = 0; i < world.size(); ++i) {
    if (world.is_wall[i]) continue;
    const double r = world.bounding_radius[i];
    lightest = std::min(lightest, 1.0 / (world.inverse_mass[i] + r * r * world.inverse_inertia[i]));
  }
  for (const ContactLaw& law : world.law) kn = std::max(kn, law.kn);
  const double resolved = 2.0 * std::numbers::pi * std::sqrt(lightest / (2.0 * kn)) / 50.0;
  s.dt = dt > 0.0 ? dt : std::min(default_time_step(world), resolved);
  return s;
}

ContactLaw with_damping(ContactLaw law, double grain_mass) {
  // Without damping nothing comes to rest: half of critical if none given.
  if (law.gamma_n == 0.0) law.gamma_n = 0.5 * 2.0 * std::sqrt(grain_mass * law.kn);
  return law;
}

std::vector<BodySpec> final_bodies(const World& w, const std::vector<BodySpec>& templates) {
  std::vector<BodySpec> out = templates;
  for (std::size_t i = 0; i < w.size(); ++i) {
    out[i].position = w.position[i];
    out[i].angle = w.angle[i];
    out[i].velocity = w.velocity[i];
    out[i].angular_velocity = w.angular_velocity[i];
    // Skeletons were re-centred by the world: keep its body-frame vertices.
    out[i].shape.vertices = local_skeleton(w, i);
  }
  return out;
}

// The grains inside four pressure plates named left, right, bottom, top
// (bodies first_plate to first_plate + 3), each as heavy as a row of grains
// so that they neither rattle nor lag, longer than the sample so that they
// can slide past each other. Each pushes on the span between the two
// plates across it, so its force follows the sample's side as it shrinks
// (geometry, not a stress servo), here and wherever the packing is loaded.
std::vector<BodySpec> grains_between_plates(const CompressionOptions& o, const Extent& e, double r) {
  const double margin = 0.5 * std::max(e.high.x - e.low.x, e.high.y - e.low.y);
  const double gap = 0.01 * e.largest_reach;
  const double x0 = e.low.x - r - gap, x1 = e.high.x + r + gap, y0 = e.low.y - r - gap, y1 = e.high.y + r + gap;
  const double grain_mass = e.mass / static_cast<double>(o.grains.size());
  const double row = std::sqrt(static_cast<double>(o.grains.size()));
  std::vector<BodySpec> bodies = o.grains;
  const int first = static_cast<int>(bodies.size());
  const std::array<int, 2> across_x{first + 2, first + 3}, across_y{first, first + 1};
  const auto add_plate = [&](const char* name, Vec2 a, Vec2 b, double span, Vec2 inward, std::array<int, 2> ends) {
    BodySpec p = plate(name, a, b, r, 1.0);
    p.density = row * grain_mass / mass_properties(p.shape).area;
    p.constraint = pressure_plate(o.pressure, span, inward);
    p.constraint.span_bodies = ends;
    bodies.push_back(p);
  };
  add_plate("left", {x0, y0 - margin}, {x0, y1 + margin}, y1 - y0, {1, 0}, across_x);
  add_plate("right", {x1, y0 - margin}, {x1, y1 + margin}, y1 - y0, {-1, 0}, across_x);
  add_plate("bottom", {x0 - margin, y0}, {x1 + margin, y0}, x1 - x0, {0, 1}, across_y);
  add_plate("top", {x0 - margin, y1}, {x1 + margin, y1}, x1 - x0, {0, -1}, across_y);
  return bodies;
}

// One stage of the compression (frictionless, or with the law's friction):
// steps until the plates carry the target pressure and the grains are
// static; returns the bodies where it left them.
std::vector<BodySpec> compress_stage(const CompressionOptions& o, const Extent& e, double r, std::size_t first_plate,
                                     const ContactLaw& law, const std::vector<BodySpec>& bodies,
                                     CompactionResult& result) {
  World world = make_world(bodies, material_count(bodies), one_law_for_all(bodies, law), {});
  const EngineSettings settings = settings_for(world, o.dt, e.largest_reach);
  Engine engine(std::move(world), settings);
  // The span each plate presses on, as the engine computes it (plate_span).
  const auto spans = [&](const World& w) {
    const double width = (w.position[first_plate + 1].x - r) - (w.position[first_plate].x + r);
    const double height = (w.position[first_plate + 3].y - r) - (w.position[first_plate + 2].y + r);
    return std::array<double, 4>{height, height, width, width};
  };
  const Vec2 inward[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  bool done = false;
  while (!done && engine.step_count() < o.until.max_steps) {
    engine.run(o.until.check_every);
    const World& w = engine.world();
    // Plate pressures: the contact force each carries over the span it
    // presses on. Compression pushes a plate back, against its inward force.
    const auto span = spans(w);
    bool balanced = true;
    for (int k = 0; k < 4; ++k) {
      const std::size_t i = first_plate + static_cast<std::size_t>(k);
      const Vec2 contacts = w.force[i] - w.constraint[i].imposed_force - w.mass[i] * w.gravity;
      const double carried = -dot(contacts, inward[k]);
      result.pressure[k] = carried / span[static_cast<std::size_t>(k)];
      balanced &= std::abs(result.pressure[k] - o.pressure) <= o.until.pressure_tolerance * o.pressure;
    }
    result.unbalanced_force_ratio = mean_net_force_ratio(engine);
    done = balanced && result.unbalanced_force_ratio <= o.until.unbalanced_force_ratio;
    report_steps(o.progress, law.mu > 0.0 ? "compressing" : "compressing without friction", engine, result, o.until);
  }
  result.steps += engine.step_count();
  result.static_reached = done;
  const World& w = engine.world();
  const double left = w.position[first_plate].x + r, right = w.position[first_plate + 1].x - r;
  const double bottom = w.position[first_plate + 2].y + r, top = w.position[first_plate + 3].y - r;
  result.packing_fraction = e.area / ((right - left) * (top - bottom));
  return final_bodies(w, bodies);
}

}  // namespace

CompactionResult compress_isotropically(const CompressionOptions& o) {
  if (o.grains.empty()) throw std::invalid_argument("compression: no grains");
  if (!(o.pressure > 0.0 && o.pressure <= kMostPressure))
    throw std::invalid_argument(fmt::format(
        "compression: the target pressure {} must be positive and at most {:g} N/m", o.pressure, kMostPressure));
  validate(o.law);
  const Extent e = extent_of(o.grains);
  const double r = 0.1 * e.largest_reach;  // plates' sphero-radius
  const ContactLaw law = with_damping(o.law, e.mass / static_cast<double>(o.grains.size()));
  ContactLaw frictionless = law;
  frictionless.kt = frictionless.mu = frictionless.gamma_t = 0.0;
  CompactionResult result;
  std::vector<BodySpec> current = grains_between_plates(o, e, r);
  for (int stage = o.frictionless_first ? 0 : 1; stage < 2; ++stage)
    current = compress_stage(o, e, r, o.grains.size(), stage == 0 ? frictionless : law, current, result);
  result.bodies = current;
  return result;
}

CompactionResult deposit_under_gravity(const DepositionOptions& o) {
  if (o.grains.empty()) throw std::invalid_argument("deposition: no grains");
  if (!(o.gravity > 0.0 && o.gravity <= kMostGravity))
    throw std::invalid_argument(
        fmt::format("deposition: gravity {} must be positive and at most {:g} m/s²", o.gravity, kMostGravity));
  validate(o.law);
  const Extent e = extent_of(o.grains);
  const double r = 0.1 * e.largest_reach, gap = 0.01 * e.largest_reach;
  const double x0 = e.low.x - r - gap, x1 = e.high.x + r + gap, y0 = e.low.y - r - gap, top = e.high.y + 10 * r;
  std::vector<BodySpec> bodies = o.grains;
  BodySpec box;
  box.shape = make_shape("box", SkeletonKind::polyline, {{x0, top}, {x0, y0}, {x1, y0}, {x1, top}}, r);
  box.position = mass_properties(box.shape).centroid;
  box.is_wall = true;
  bodies.push_back(box);
  const double grain_mass = e.mass / static_cast<double>(o.grains.size());
  const ContactLaw law = with_damping(o.law, grain_mass);
  World world = make_world(bodies, material_count(bodies), one_law_for_all(bodies, law), {0, -o.gravity});
  const EngineSettings settings = settings_for(world, o.dt, e.largest_reach);
  Engine engine(std::move(world), settings);
  CompactionResult result;
  bool done = false;
  while (!done && engine.step_count() < o.until.max_steps) {
    engine.run(o.until.check_every);
    result.unbalanced_force_ratio = mean_net_force_ratio(engine);
    done = result.unbalanced_force_ratio <= o.until.unbalanced_force_ratio;
    report_steps(o.progress, "depositing", engine, result, o.until);
  }
  result.steps = engine.step_count();
  result.static_reached = done;
  result.bodies = final_bodies(engine.world(), bodies);
  // The pile fills the box's width up to its highest grain.
  double highest = y0 + r;
  const World& w = engine.world();
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!w.is_wall[i]) highest = std::max(highest, w.position[i].y + w.bounding_radius[i]);
  result.packing_fraction = e.area / ((x1 - x0 - 2 * r) * (highest - (y0 + r)));
  return result;
}

}  // namespace sphero
