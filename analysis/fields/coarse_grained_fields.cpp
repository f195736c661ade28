#include "analysis/fields/coarse_grained_fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "engine/stress.h"

namespace sphero::analysis {
namespace {

using Node = std::array<double, sums::count>;

void check_grid_options(const CoarseGrainingOptions& o) {
  const double w = o.kernel.width;
  if (!(std::isfinite(w) && w > 0.0))
    throw std::invalid_argument(fmt::format("the kernel's width must be a positive length, not {}", w));
  if (!(std::isfinite(o.cell) && o.cell > 0.0))
    throw std::invalid_argument(fmt::format("the cell size must be a positive length, not {}", o.cell));
  if (o.cell > w)
    throw std::invalid_argument(fmt::format(
        "a cell of {} is wider than the kernel's width {}: the kernel would fall between the nodes; choose a cell "
        "of at most the width (half of it or less for smooth fields)",
        o.cell, w));
  if (o.kernel.kind == KernelKind::gaussian && !(o.kernel.gaussian_cutoff >= 1.0 && o.kernel.gaussian_cutoff <= 10.0))
    throw std::invalid_argument(
        fmt::format("the Gaussian's cutoff must be 1 to 10 widths, not {}", o.kernel.gaussian_cutoff));
}

// The box around the particles and their contacts with walls: their exact
// shapes where the frame has them (whatever resolution drew the outlines),
// else their outlines, else their centres.
std::array<double, 4> particles_box(const FrameData& frame) {
  std::array<double, 4> box{INFINITY, INFINITY, -INFINITY, -INFINITY};
  const auto grow = [&](Vec2 p, double r = 0.0) {
    box[0] = std::min(box[0], p.x - r), box[1] = std::min(box[1], p.y - r);
    box[2] = std::max(box[2], p.x + r), box[3] = std::max(box[3], p.y + r);
  };
  if (frame.exact_shapes.size() == frame.particles.size()) {
    for (const PlacedShape& p : frame.exact_shapes)
      for (Vec2 v : p.shape.vertices) grow(p.position + rotated(v, p.angle), p.shape.radius);
  } else {
    for (const auto& outline : frame.outlines)
      for (Vec2 p : outline) grow(p);
  }
  for (const ParticleRecord& p : frame.particles) grow(p.centre);
  for (const WallRecord& wall : frame.walls)
    for (const WallContact& c : wall.contacts) grow(c.point);
  return box;
}

// How many nodes an axis needs: from `low` to at least `high`, `h` apart,
// on a bounded axis; whole cells filling the period on a periodic one. A
// double, checked against the limit before it becomes a count.
double nodes_along(double low, double high, double h, bool periodic, double period) {
  if (periodic) return std::max(1.0, std::ceil(period / h - 1e-9));
  return std::floor((high - low) / h + 1e-9) + 1.0;
}

// The kernel's reach over the cell: a grain's stencil spans about twice
// this many nodes each way.
constexpr double kMostNodesPerReach = 500.0;

void check_extent(const std::array<double, 4>& extent, const CoarseGrainingOptions& o) {
  for (double v : extent)
    if (!std::isfinite(v)) throw std::invalid_argument("the sample's extent is not finite; the frame is damaged");
  for (const double period : {o.cell_size.x, o.cell_size.y})
    if (!std::isfinite(period)) throw std::invalid_argument("the periodic cell is not finite; the run is damaged");
  if (o.kernel.cutoff() / o.cell > kMostNodesPerReach)
    throw std::invalid_argument(fmt::format(
        "a cell of {} is too fine for a kernel reaching {}: each grain would touch about {:.3g} nodes; choose a cell "
        "of at least {:.3g}",
        o.cell, o.kernel.cutoff(), std::pow(2.0 * o.kernel.cutoff() / o.cell, 2.0),
        o.kernel.cutoff() / kMostNodesPerReach));
}

// A window on a periodic axis takes the sources' images one period either
// way: it must be no wider than the period, and the kernel reach no more
// than half of it.
void check_periodic_window(const CoarseGrainingOptions& o) {
  for (int axis = 0; axis < 2; ++axis) {
    if (!o.periodic[static_cast<std::size_t>(axis)]) continue;
    const double period = axis == 0 ? o.cell_size.x : o.cell_size.y;
    const double wide = axis == 0 ? o.window[2] - o.window[0] : o.window[3] - o.window[1];
    if (wide > period)
      throw std::invalid_argument(fmt::format(
          "the window is {} wide along the periodic {}, more than its period {}; give a window within one period, "
          "or none (the grid then spans the period)",
          wide, axis == 0 ? "x" : "y", period));
    if (o.kernel.cutoff() > 0.5 * period)
      throw std::invalid_argument(fmt::format(
          "the kernel reaches {} from a source, more than half the period {}: a window on a periodic axis takes "
          "the sources' images one period away only; choose a narrower kernel, or no window",
          o.kernel.cutoff(), period));
  }
}

}  // namespace

FieldGrid field_grid(const FrameData& frame, const CoarseGrainingOptions& o) {
  check_grid_options(o);
  if (frame.particles.empty()) throw std::invalid_argument("the frame holds no particles to coarse-grain");
  const std::array<double, 4> box = particles_box(frame);
  std::array<double, 4> extent = box;
  const bool window = o.has_window();
  if (window) {
    extent = o.window;
    if (!(extent[2] > extent[0] && extent[3] > extent[1]))
      throw std::invalid_argument("the window must have X0 < X1 and Y0 < Y1");
    if (extent[2] < box[0] || extent[0] > box[2] || extent[3] < box[1] || extent[1] > box[3])
      throw std::invalid_argument(
          fmt::format("the window {:.6g},{:.6g},{:.6g},{:.6g} lies outside the sample, whose particles span "
                      "{:.6g},{:.6g},{:.6g},{:.6g}",
                      extent[0], extent[1], extent[2], extent[3], box[0], box[1], box[2], box[3]));
  } else {
    const double grow = o.kernel.cutoff();
    extent = {box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow};
  }
  if ((o.periodic[0] && !(o.cell_size.x > 0.0)) || (o.periodic[1] && !(o.cell_size.y > 0.0)))
    throw std::invalid_argument("a periodic axis needs the cell's period");
  check_extent(extent, o);
  if (window) check_periodic_window(o);
  // A window on a periodic axis is laid as it is, and takes the sources'
  // images; without one the grid spans the period and wraps.
  const std::array<bool, 2> wraps{o.periodic[0] && !window, o.periodic[1] && !window};
  const double nx = nodes_along(extent[0], extent[2], o.cell, wraps[0], o.cell_size.x),
               ny = nodes_along(extent[1], extent[3], o.cell, wraps[1], o.cell_size.y);
  if (!(nx * ny <= static_cast<double>(kMaxFieldNodes)))
    throw std::invalid_argument(
        fmt::format("a grid of {:.6g} × {:.6g} = {:.6g} nodes is more than the {} allowed (about {} GB a frame); "
                    "choose a larger cell or a smaller window",
                    nx, ny, nx * ny, kMaxFieldNodes, kMaxFieldNodes * 40 * 8 / 1'000'000'000.0));
  FieldGrid g;
  g.nx = static_cast<int>(nx), g.ny = static_cast<int>(ny);
  g.hx = wraps[0] ? o.cell_size.x / nx : o.cell;
  g.hy = wraps[1] ? o.cell_size.y / ny : o.cell;
  g.origin = {wraps[0] ? o.cell_low.x : extent[0], wraps[1] ? o.cell_low.y : extent[1]};
  g.periodic = wraps;
  if (window) g.image_period = {o.periodic[0] ? o.cell_size.x : 0.0, o.periodic[1] ? o.cell_size.y : 0.0};
  return g;
}

namespace {

// Per particle: its particle–particle contacts and Σ n ⊗ n over them.
struct ParticleContacts {
  int count = 0;
  double xx = 0.0, xy = 0.0, yy = 0.0;
};

// The frame's particles by body id.
std::unordered_map<int, std::size_t> particle_index(const FrameData& frame) {
  std::unordered_map<int, std::size_t> index;
  for (std::size_t i = 0; i < frame.particles.size(); ++i) index.emplace(frame.particles[i].id, i);
  return index;
}

// A vector brought to its shortest image across the periodic axes.
Vec2 shortest_image(Vec2 d, const FieldGrid& g) {
  const double px = g.periodic[0] ? g.hx * g.nx : g.image_period.x, py = g.periodic[1] ? g.hy * g.ny : g.image_period.y;
  if (px > 0.0) d.x -= px * std::round(d.x / px);
  if (py > 0.0) d.y -= py * std::round(d.y / py);
  return d;
}

void add_contact_stress(std::vector<Node>& nodes, const std::vector<std::pair<std::size_t, double>>& line, Vec2 branch,
                        Vec2 force) {
  const double xx = -branch.x * force.x, xy = -branch.x * force.y, yx = -branch.y * force.x, yy = -branch.y * force.y;
  for (const auto& [node, w] : line) {
    Node& n = nodes[node];
    n[sums::contact_xx] += xx * w, n[sums::contact_xy] += xy * w;
    n[sums::contact_yx] += yx * w, n[sums::contact_yy] += yy * w;
  }
}

// Whether every contact with a wall names its grain, so that each vertex
// contact's own point counts (the contact lines give one mean point per
// wall and grain).
bool walls_name_their_grains(const FrameData& frame, const std::unordered_map<int, std::size_t>& index) {
  bool any = false;
  for (const WallRecord& wall : frame.walls)
    for (const WallContact& c : wall.contacts) {
      if (!index.contains(c.grain)) return false;
      any = true;
    }
  return any;
}

void gather_contacts(const FrameData& frame, const std::unordered_map<int, std::size_t>& index, const FieldGrid& grid,
                     KernelStencil& stencil, std::vector<Node>& nodes, std::vector<ParticleContacts>& per_particle) {
  const bool wall_points = walls_name_their_grains(frame, index);
  for (const PairRecord& pair : frame.pairs) {
    const auto a = index.find(pair.body_a), b = index.find(pair.body_b);
    const bool a_particle = a != index.end(), b_particle = b != index.end();
    if (!a_particle && !b_particle) continue;
    if (a_particle && b_particle) {
      const Vec2 from = frame.particles[a->second].centre;
      add_contact_stress(nodes, stencil.along(from, from + pair.branch), pair.branch, pair.force);
      const Vec2 n = pair.normal;
      if (norm(n) == 0.0) continue;
      for (const std::size_t i : {a->second, b->second}) {
        ParticleContacts& c = per_particle[i];
        ++c.count, c.xx += n.x * n.x, c.xy += n.x * n.y, c.yy += n.y * n.y;
      }
      continue;
    }
    if (wall_points) continue;  // counted below, contact by contact
    // A wall's line runs between the grain's centre and the mean contact point.
    const Vec2 from = a_particle ? frame.particles[a->second].centre : frame.particles[b->second].centre - pair.branch;
    add_contact_stress(nodes, stencil.along(from, from + pair.branch), pair.branch, pair.force);
  }
  if (!wall_points) return;
  for (const WallRecord& wall : frame.walls)
    for (const WallContact& c : wall.contacts) {
      const Vec2 centre = frame.particles[index.at(c.grain)].centre;
      const Vec2 branch = shortest_image(c.point - centre, grid);
      add_contact_stress(nodes, stencil.along(centre, centre + branch), branch, -c.force);
    }
}

// Masses, centres, velocities and contacts as coarse-graining needs them:
// present and finite.
void check_frame_values(const FrameData& frame) {
  for (const ParticleRecord& p : frame.particles) {
    if (!(p.mass > 0.0))
      throw std::runtime_error(fmt::format(
          "particle {} has no mass in this frame: coarse-graining needs the run's state frames (fields = ...,state)",
          p.id));
    if (!std::isfinite(p.mass) || !is_finite(p.centre) || !is_finite(p.velocity))
      throw std::runtime_error(fmt::format("particle {} has a mass, centre or velocity that is not finite", p.id));
  }
  for (const PairRecord& pair : frame.pairs)
    if (!is_finite(pair.branch) || !is_finite(pair.force) || !is_finite(pair.normal))
      throw std::runtime_error(
          fmt::format("the contact of bodies {} and {} has a branch, force or normal that is not "
                      "finite",
                      pair.body_a, pair.body_b));
  for (const WallRecord& wall : frame.walls)
    for (const WallContact& c : wall.contacts)
      if (!is_finite(c.point) || !is_finite(c.force))
        throw std::runtime_error(fmt::format("a contact of wall {} has a point or force that is not finite", wall.id));
}

}  // namespace

CoarseGrainedSums coarse_grain(const FrameData& frame, const FieldGrid& grid, const CoarseGrainingKernel& kernel) {
  CoarseGrainedSums out{grid, frame.time, std::vector<Node>(grid.nodes(), Node{})};
  const auto index = particle_index(frame);
  check_frame_values(frame);
  KernelStencil stencil(grid, kernel);
  std::vector<ParticleContacts> per_particle(frame.particles.size());
  gather_contacts(frame, index, grid, stencil, out.nodes, per_particle);
  for (std::size_t i = 0; i < frame.particles.size(); ++i) {
    const ParticleRecord& p = frame.particles[i];
    const ParticleContacts& c = per_particle[i];
    const double m = p.mass, vx = p.velocity.x, vy = p.velocity.y;
    for (const auto& [node, w] : stencil.at(p.centre)) {
      Node& n = out.nodes[node];
      n[sums::number] += w;
      n[sums::mass] += m * w;
      n[sums::momentum_x] += m * vx * w, n[sums::momentum_y] += m * vy * w;
      n[sums::mvv_xx] += m * vx * vx * w, n[sums::mvv_xy] += m * vx * vy * w, n[sums::mvv_yy] += m * vy * vy * w;
      n[sums::contacts] += c.count * w;
      n[sums::fabric_xx] += c.xx * w, n[sums::fabric_xy] += c.xy * w, n[sums::fabric_yy] += c.yy * w;
    }
  }
  return out;
}

void accumulate(CoarseGrainedSums& total, const CoarseGrainedSums& frame, double weight) {
  if (total.nodes.empty()) total = {frame.grid, 0.0, std::vector<Node>(frame.nodes.size(), Node{})};
  if (frame.nodes.size() != total.nodes.size())
    throw std::invalid_argument("a mean of fields needs every frame on the same grid");
  total.time += weight * frame.time;
  for (std::size_t k = 0; k < total.nodes.size(); ++k)
    for (std::size_t q = 0; q < sums::count; ++q) total.nodes[k][q] += weight * frame.nodes[k][q];
}

CoarseGrainedSums weighted_mean(const std::vector<CoarseGrainedSums>& frames, const std::vector<double>& weights) {
  if (frames.empty() || frames.size() != weights.size())
    throw std::invalid_argument("a mean of fields needs one weight per frame, and at least one frame");
  double total = 0.0;
  for (double w : weights) total += w;
  if (!(total > 0.0)) throw std::invalid_argument("a mean of fields needs weights that add to more than 0");
  CoarseGrainedSums mean;
  for (std::size_t f = 0; f < frames.size(); ++f) accumulate(mean, frames[f], weights[f] / total);
  return mean;
}

std::vector<FieldArray> continuum_fields(const CoarseGrainedSums& s) {
  const std::size_t n = s.nodes.size();
  std::vector<FieldArray> f{{"density", 1, {}},
                            {"number_density", 1, {}},
                            {"momentum", 3, {}},
                            {"velocity", 3, {}},
                            {"kinetic_stress", 4, {}},
                            {"contact_stress", 4, {}},
                            {"stress", 4, {}},
                            {"pressure", 1, {}},
                            {"deviator_stress", 1, {}},
                            {"major_stress_direction", 3, {}},
                            {"coordination_density", 1, {}},
                            {"coordination", 1, {}},
                            {"fabric", 4, {}},
                            {"granular_temperature", 1, {}}};
  for (FieldArray& a : f) a.values.reserve(n * static_cast<std::size_t>(a.components));
  const auto put = [&](std::size_t field, std::initializer_list<double> values) {
    f[field].values.insert(f[field].values.end(), values);
  };
  for (const Node& node : s.nodes) {
    const double rho = node[sums::mass];
    const double vx = rho > 0.0 ? node[sums::momentum_x] / rho : 0.0,
                 vy = rho > 0.0 ? node[sums::momentum_y] / rho : 0.0;
    // Fluctuations about the field's velocity: Σ m v′v′ φ = Σ m v v φ − ρ V V.
    const double kxx = node[sums::mvv_xx] - rho * vx * vx, kxy = node[sums::mvv_xy] - rho * vx * vy,
                 kyy = node[sums::mvv_yy] - rho * vy * vy;
    const Stress total{kxx + node[sums::contact_xx], kxy + node[sums::contact_xy], kxy + node[sums::contact_yx],
                       kyy + node[sums::contact_yy]};
    const double z = node[sums::contacts];
    const Vec2 major = total.major_direction();
    put(0, {rho});
    put(1, {node[sums::number]});
    put(2, {node[sums::momentum_x], node[sums::momentum_y], 0.0});
    put(3, {vx, vy, 0.0});
    put(4, {kxx, kxy, kxy, kyy});
    put(5, {node[sums::contact_xx], node[sums::contact_xy], node[sums::contact_yx], node[sums::contact_yy]});
    put(6, {total.xx, total.xy, total.yx, total.yy});
    put(7, {total.pressure()});
    put(8, {total.deviator()});
    put(9, {major.x, major.y, 0.0});
    put(10, {z});
    put(11, {node[sums::number] > 0.0 ? z / node[sums::number] : 0.0});
    if (z > 0.0)
      put(12,
          {node[sums::fabric_xx] / z, node[sums::fabric_xy] / z, node[sums::fabric_xy] / z, node[sums::fabric_yy] / z});
    else put(12, {0.0, 0.0, 0.0, 0.0});
    put(13, {rho > 0.0 ? 0.5 * (kxx + kyy) / rho : 0.0});
  }
  return f;
}

ImageData2D field_image(const CoarseGrainedSums& sums) {
  const FieldGrid& g = sums.grid;
  return {g.origin, {g.hx, g.hy}, g.nx, g.ny, sums.time, continuum_fields(sums)};
}

}  // namespace sphero::analysis
