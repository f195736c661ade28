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

// Nodes from `low` to at least `high`, `h` apart, along a bounded axis;
// whole cells filling the period along a periodic one.
void lay_axis(double low, double high, double h, bool periodic, double period_low, double period, double& origin,
              double& spacing, long long& n) {
  if (periodic) {
    n = std::max(1LL, static_cast<long long>(std::ceil(period / h - 1e-9)));
    spacing = period / static_cast<double>(n);
    origin = period_low;
    return;
  }
  spacing = h;
  origin = low;
  n = static_cast<long long>(std::floor((high - low) / h + 1e-9)) + 1;
}

}  // namespace

FieldGrid field_grid(const FrameData& frame, const CoarseGrainingOptions& o) {
  check_grid_options(o);
  if (frame.particles.empty()) throw std::invalid_argument("the frame holds no particles to coarse-grain");
  const std::array<double, 4> box = particles_box(frame);
  std::array<double, 4> extent = box;
  if (o.has_window()) {
    extent = o.window;
    if (!(extent[2] > extent[0] && extent[3] > extent[1]))
      throw std::invalid_argument("the window must have X0 < X1 and Y0 < Y1");
    if (extent[2] < box[0] || extent[0] > box[2] || extent[3] < box[1] || extent[1] > box[3])
      throw std::invalid_argument(
          fmt::format("the window {},{},{},{} lies outside the sample, whose particles span {},{},{},{}", extent[0],
                      extent[1], extent[2], extent[3], box[0], box[1], box[2], box[3]));
  } else {
    const double grow = o.kernel.cutoff();
    extent = {box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow};
  }
  if ((o.periodic[0] && !(o.cell_size.x > 0.0)) || (o.periodic[1] && !(o.cell_size.y > 0.0)))
    throw std::invalid_argument("a periodic axis needs the cell's period");
  // A window on a periodic axis is laid as it is, and takes the sources'
  // images; without one the grid spans the period and wraps.
  const bool window = o.has_window();
  const std::array<bool, 2> wraps{o.periodic[0] && !window, o.periodic[1] && !window};
  for (int axis = 0; axis < 2; ++axis) {
    const double period = axis == 0 ? o.cell_size.x : o.cell_size.y;
    if (window && o.periodic[static_cast<std::size_t>(axis)] && o.kernel.cutoff() > 0.5 * period)
      throw std::invalid_argument(fmt::format(
          "the kernel reaches {} from a source, more than half the period {}: a window on a periodic axis takes "
          "the sources' images one period away only; choose a narrower kernel, or no window",
          o.kernel.cutoff(), period));
  }
  FieldGrid g;
  long long nx = 0, ny = 0;
  lay_axis(extent[0], extent[2], o.cell, wraps[0], o.cell_low.x, o.cell_size.x, g.origin.x, g.hx, nx);
  lay_axis(extent[1], extent[3], o.cell, wraps[1], o.cell_low.y, o.cell_size.y, g.origin.y, g.hy, ny);
  const double nodes = static_cast<double>(nx) * static_cast<double>(ny);
  if (nodes > static_cast<double>(kMaxFieldNodes))
    throw std::invalid_argument(
        fmt::format("a grid of {} × {} = {} nodes is more than the {} allowed (about {} GB); choose a larger cell "
                    "or a smaller window",
                    nx, ny, nodes, kMaxFieldNodes, kMaxFieldNodes * 40 * 8 / 1'000'000'000.0));
  g.nx = static_cast<int>(nx), g.ny = static_cast<int>(ny);
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

}  // namespace

CoarseGrainedSums coarse_grain(const FrameData& frame, const FieldGrid& grid, const CoarseGrainingKernel& kernel) {
  CoarseGrainedSums out{grid, frame.time, std::vector<Node>(grid.nodes(), Node{})};
  const auto index = particle_index(frame);
  for (const ParticleRecord& p : frame.particles)
    if (!(p.mass > 0.0))
      throw std::runtime_error(fmt::format(
          "particle {} has no mass in this frame: coarse-graining needs the run's state frames (fields = ...,state)",
          p.id));
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

CoarseGrainedSums weighted_mean(const std::vector<CoarseGrainedSums>& frames, const std::vector<double>& weights) {
  if (frames.empty() || frames.size() != weights.size())
    throw std::invalid_argument("a mean of fields needs one weight per frame, and at least one frame");
  double total = 0.0;
  for (double w : weights) total += w;
  if (!(total > 0.0)) throw std::invalid_argument("a mean of fields needs weights that add to more than 0");
  CoarseGrainedSums mean{frames.front().grid, 0.0, std::vector<Node>(frames.front().nodes.size(), Node{})};
  for (std::size_t f = 0; f < frames.size(); ++f) {
    if (frames[f].nodes.size() != mean.nodes.size())
      throw std::invalid_argument("a mean of fields needs every frame on the same grid");
    const double w = weights[f] / total;
    mean.time += w * frames[f].time;
    for (std::size_t k = 0; k < mean.nodes.size(); ++k)
      for (std::size_t q = 0; q < sums::count; ++q) mean.nodes[k][q] += w * frames[f].nodes[k][q];
  }
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
