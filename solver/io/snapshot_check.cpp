#include "io/snapshot_check.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "engine/skeleton_walk.h"
#include "engine/wall_vibration.h"

namespace sphero {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

// A count of periods crossed that the candidates' order can hold (beyond
// any run).
bool few_periods(int periods) { return periods > -kMostPeriods && periods < kMostPeriods; }

template <class T>
void per_body(const std::vector<T>& v, std::size_t n, const char* name) {
  require(v.size() == n, fmt::format("{} has {} entries for {} bodies", name, v.size(), n));
}

void check_bodies(const World& w) {
  const std::size_t n = w.position.size();
  per_body(w.angle, n, "angle"), per_body(w.velocity, n, "velocity"), per_body(w.angular_velocity, n, "spin");
  per_body(w.force, n, "force"), per_body(w.torque, n, "torque"), per_body(w.mass, n, "mass");
  per_body(w.inertia, n, "inertia"), per_body(w.density, n, "density"), per_body(w.inverse_mass, n, "1/mass");
  per_body(w.inverse_inertia, n, "1/inertia"), per_body(w.radius, n, "radius");
  per_body(w.bounding_radius, n, "bounding radius"), per_body(w.material, n, "material");
  per_body(w.is_wall, n, "wall flag"), per_body(w.closed, n, "closed flag"), per_body(w.constraint, n, "constraint");
  per_body(w.shape_name, n, "shape name"), per_body(w.vertex_begin, n, "vertex ranges");
  per_body(w.vertex_count, n, "vertex counts"), per_body(w.id, n, "ids");
  for (std::size_t i = 0; i < n; ++i)
    require(w.id[i] >= 0 && (i == 0 || w.id[i] > w.id[i - 1]),
            fmt::format("body {}: its id {} is not above the body before's", i, w.id[i]));
  require(n == 0 || w.next_id > w.id[n - 1], fmt::format("the next id, {}, is one a body has", w.next_id));
  require(w.material_count >= 1 && w.material_count <= 1000, fmt::format("{} materials", w.material_count));
  require(w.law.size() == static_cast<std::size_t>(w.material_count) * static_cast<std::size_t>(w.material_count),
          "the law table does not match the materials");
  for (std::size_t i = 0; i < n; ++i) {
    require(w.material[i] >= 0 && w.material[i] < w.material_count, fmt::format("body {}: material out of range", i));
    require(w.vertex_count[i] >= 1 && w.vertex_begin[i] >= 0 &&
                static_cast<std::size_t>(w.vertex_begin[i]) + static_cast<std::size_t>(w.vertex_count[i]) <=
                    w.world_vertex.size(),
            fmt::format("body {}: its vertices lie outside the vertex arrays", i));
    for (double x : {w.mass[i], w.inertia[i], w.density[i], w.inverse_mass[i], w.inverse_inertia[i]})
      require(std::isfinite(x) && x >= 0.0, fmt::format("body {}: a mass or inertia that is not one", i));
    require(is_finite(w.position[i]) && std::isfinite(w.angle[i]) && is_finite(w.velocity[i]) &&
                std::isfinite(w.angular_velocity[i]) && std::isfinite(w.radius[i]) && w.radius[i] >= 0.0,
            fmt::format("body {}: a state that is not finite", i));
    require(std::isfinite(w.bounding_radius[i]) && w.bounding_radius[i] >= w.radius[i],
            fmt::format("body {}: a bounding radius within its sphero-radius", i));
    // A run keeps its grains within a period or so of a periodic cell; the
    // count of periods must fit the wraps' integers.
    for (int axis = 0; axis < 2; ++axis)
      if (w.cell.periodic[axis] && !w.is_wall[i]) {
        const double from_cell = (axis == 0 ? w.position[i].x - w.cell.low.x : w.position[i].y - w.cell.low.y) /
                                 (axis == 0 ? w.cell.size.x : w.cell.size.y);
        require(std::abs(from_cell) < 1e6, fmt::format("body {}: a million periods away from the periodic cell", i));
      }
    const auto [a, b] = w.constraint[i].span_bodies;
    const auto body = [n](int k) { return k >= 0 && static_cast<std::size_t>(k) < n; };
    require(
        (a == -1 && b == -1) || (body(a) && body(b)), fmt::format("body {}: it spans bodies that are not there", i));
    try {
      check_vibration(w.constraint[i]);
    } catch (const std::invalid_argument& e) {
      require(false, fmt::format("body {}: {}", i, e.what()));
    }
  }
}

void check_contacts(const World& w, const std::vector<Contact>& contacts) {
  const auto n = static_cast<int>(w.position.size());
  const auto within = [&](int body, int vertex) {
    const auto b = static_cast<std::size_t>(body);
    return vertex >= w.vertex_begin[b] && vertex < w.vertex_begin[b] + w.vertex_count[b];
  };
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const Contact& c = contacts[k];
    require(c.vertex_body >= 0 && c.vertex_body < n && c.edge_body >= 0 && c.edge_body < n,
            fmt::format("contact {}: a body out of range", k));
    require(within(c.vertex_body, c.vertex) && within(c.edge_body, c.feature),
            fmt::format("contact {}: a vertex or edge not of its body", k));
    require(c.kind == ContactKind::vertex_edge || c.kind == ContactKind::vertex_vertex,
            fmt::format("contact {}: an unknown kind", k));
    if (c.kind == ContactKind::vertex_edge) {
      const int end = after(w, c.edge_body, c.feature).k;
      require(end >= 0 && within(c.edge_body, end), fmt::format("contact {}: an edge from the free end of a path", k));
    }
    require(few_periods(c.image[0]) && few_periods(c.image[1]),
            fmt::format("contact {}: an image millions of periods away", k));
  }
}

void check_rigid(const EngineSnapshot& s) {
  const World& w = s.world;
  require(s.settings.model == Model::soft || s.settings.model == Model::rigid, "an unknown model");
  require(is_finite(w.attractor.centre) && std::isfinite(w.attractor.strength), "an attractor that is not finite");
  if (s.settings.model == Model::soft) return require(w.rigid_law.empty(), "rigid laws in a soft-model run");
  const RigidSettings& r = s.settings.rigid;
  require(std::isfinite(r.gap) && r.gap > 0.0 && std::isfinite(r.overlap_tolerance) && r.overlap_tolerance > 0.0 &&
              std::isfinite(r.qp_tolerance) && r.qp_tolerance > 0.0 && r.qp_max_iterations >= 1 &&
              r.qp_max_iterations <= 10000 &&
              (r.solver == RigidSolver::interior_point || r.solver == RigidSolver::gauss_seidel),
          "rigid-model settings out of range");
  require(w.rigid_law.size() == w.law.size(), "the rigid law table does not match the materials");
  for (const RigidLaw& law : w.rigid_law) {
    try {
      validate(law);
    } catch (const std::invalid_argument& e) {
      require(false, std::string("a rigid law out of range: ") + e.what());
    }
    require(law.friction == 0.0 || r.solver == RigidSolver::gauss_seidel,
            "Coulomb friction with a solver that cannot take it");
  }
}

}  // namespace

void check_snapshot(const EngineSnapshot& s) {
  const PeriodicCell& cell = s.world.cell;
  require(is_finite(cell.low) && is_finite(cell.size) && (!cell.periodic[0] || cell.size.x > 0.0) &&
              (!cell.periodic[1] || cell.size.y > 0.0),
          "a periodic cell of no size");
  check_bodies(s.world);
  check_contacts(s.world, s.neighbours.contacts);
  const std::size_t n = s.world.position.size();
  const auto& l = s.neighbours;
  require(!l.built || (l.reference_position.size() == n && l.reference_angle.size() == n && l.wraps.size() == n),
          "the neighbour list's references do not match the bodies");
  for (const std::array<int, 2>& wraps : l.wraps)
    require(few_periods(wraps[0]) && few_periods(wraps[1]), "a body wrapped millions of periods");
  require(std::isfinite(s.settings.verlet_distance) && s.settings.verlet_distance >= 0.0 &&
              std::isfinite(l.verlet_distance) && l.verlet_distance >= 0.0,
          "a Verlet distance that is not one");
  for (const auto* history : {&s.r2, &s.r3, &s.r4})
    require(history->empty() || history->size() == n, "the integrator's history does not match the bodies");
  require(std::isfinite(s.settings.dt) && s.settings.dt > 0.0, "a time step that is not positive");
  require(s.settings.integrator == Integrator::velocity_verlet || s.settings.integrator == Integrator::gear,
          "an unknown integrator");
  for (const ContactLaw& law : s.world.law)
    require((law.normal == NormalLaw::linear || law.normal == NormalLaw::hertz) && std::isfinite(law.kn) &&
                std::isfinite(law.kt) && std::isfinite(law.mu) && std::isfinite(law.gamma_n) &&
                std::isfinite(law.gamma_t) && std::isfinite(law.cohesion),
            "a contact law that is not one");
  require(std::isfinite(s.time) && s.time >= 0.0 && s.step >= 0, "a time that is not a time");
  check_rigid(s);
}

}  // namespace sphero
