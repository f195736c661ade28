#include "analysis/frame_analysis.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <stdexcept>

#include "analysis/packing/local_packing.h"
#include "analysis/packing/window_area.h"
#include "geometry/segment.h"
#include "shapes/outline_cache.h"

namespace sphero::analysis {
namespace {

// Each face of each wall: the forces of the contacts nearest to it, and
// the length of it that the sample covers — the projections onto the face
// of the outline points within one mean particle size of it.
std::vector<WallFaceStress> wall_face_stresses(const FrameData& frame, double reach) {
  std::vector<WallFaceStress> faces;
  for (const WallRecord& wall : frame.walls) {
    const auto& s = wall.skeleton;
    if (s.size() < 2) continue;
    const std::size_t first = faces.size();
    for (std::size_t k = 0; k + 1 < s.size(); ++k) faces.push_back({wall.id, static_cast<int>(k), {}, 0.0, 0.0, 0.0});
    std::vector<Vec2> side(s.size() - 1);  // Σ of (contact point − face start), to find the sample's side
    for (const WallContact& c : wall.contacts) {
      std::size_t nearest = 0;
      double best = INFINITY;
      for (std::size_t k = 0; k + 1 < s.size(); ++k) {
        const double d = norm(c.point - closest_point_on_segment(c.point, s[k], s[k + 1]));
        if (d < best) best = d, nearest = k;
      }
      faces[first + nearest].force += c.force;
      side[nearest] += c.point - s[nearest];
    }
    for (std::size_t k = 0; k + 1 < s.size(); ++k) {
      WallFaceStress& face = faces[first + k];
      const double full = norm(s[k + 1] - s[k]);
      if (full == 0.0) continue;
      const Vec2 t = (s[k + 1] - s[k]) / full;
      double low = INFINITY, high = -INFINITY;
      Vec2 towards_sample;
      for (const auto& outline : frame.outlines)
        for (Vec2 p : outline) {
          if (norm(p - closest_point_on_segment(p, s[k], s[k + 1])) > reach) continue;
          const double along = dot(p - s[k], t);
          low = std::min(low, along), high = std::max(high, along);
          towards_sample += p - s[k];
        }
      face.length = std::max(0.0, std::min(high, full) - std::max(low, 0.0));
      // The normal points from the face into the sample.
      Vec2 n{-t.y, t.x};
      const Vec2 probe = norm(side[k]) > 0.0 ? side[k] : towards_sample;
      if (dot(probe, n) < 0.0) n = -n;
      if (face.length > 0.0) {
        face.normal_stress = 0.0 - dot(face.force, n) / face.length;  // 0.0 −: no "-0" for an unloaded face
        face.shear_stress = dot(face.force, t) / face.length;
      }
    }
  }
  return faces;
}

}  // namespace

Stress particle_stress(const ParticleRecord& p, bool exclude_walls) {
  Stress sigma{p.stress[0], p.stress[1], p.stress[2], p.stress[3]};
  if (exclude_walls)
    sigma += Stress{p.wall_stress[0], p.wall_stress[1], p.wall_stress[2], p.wall_stress[3]}.scaled(-1.0);
  return sigma;
}

namespace {

bool has_exact_outlines(const FrameData& frame) {
  return !frame.particles.empty() && frame.exact_shapes.size() == frame.particles.size();
}

// Each particle's box: exact where the frame has its skeleton (the
// skeleton's box grown by the sphero-radius), else around its drawn polygon.
std::vector<std::pair<Vec2, Vec2>> particle_boxes(const FrameData& frame) {
  std::vector<std::pair<Vec2, Vec2>> boxes;
  if (has_exact_outlines(frame)) {
    for (const PlacedShape& p : frame.exact_shapes) {
      Vec2 low{INFINITY, INFINITY}, high{-INFINITY, -INFINITY};
      for (Vec2 v : p.shape.vertices) {
        const Vec2 q = p.position + rotated(v, p.angle);
        low = {std::min(low.x, q.x), std::min(low.y, q.y)};
        high = {std::max(high.x, q.x), std::max(high.y, q.y)};
      }
      const Vec2 r{p.shape.radius, p.shape.radius};
      boxes.emplace_back(low - r, high + r);
    }
    return boxes;
  }
  for (const auto& outline : frame.outlines) {
    Vec2 low{INFINITY, INFINITY}, high{-INFINITY, -INFINITY};
    for (Vec2 p : outline) {
      low = {std::min(low.x, p.x), std::min(low.y, p.y)};
      high = {std::max(high.x, p.x), std::max(high.y, p.y)};
    }
    boxes.emplace_back(low, high);
  }
  return boxes;
}

// The window to analyse: as asked, or the box around the outlines; sets
// the summary's width and height.
Window window_of(const std::vector<std::pair<Vec2, Vec2>>& boxes, const AnalysisOptions& options, FrameSummary& s) {
  Vec2 low{INFINITY, INFINITY}, high{-INFINITY, -INFINITY};
  for (const auto& [box_low, box_high] : boxes) {
    low = {std::min(low.x, box_low.x), std::min(low.y, box_low.y)};
    high = {std::max(high.x, box_high.x), std::max(high.y, box_high.y)};
  }
  s.width = std::max(0.0, high.x - low.x);
  s.height = std::max(0.0, high.y - low.y);
  Window window = options.window;
  if (window.kind == Window::Kind::bounding_box)
    window = {Window::Kind::rectangle, low.x, low.y, high.x, high.y, {}, 0.0};
  if (!(window.area() > 0.0)) throw std::invalid_argument("the analysis window has no area");
  return window;
}

// The particles' exact area inside the window: whole where their box is
// inside, clipped where it straddles the window's edge.
double solid_area_inside(const FrameData& frame, const Window& window,
                         const std::vector<std::pair<Vec2, Vec2>>& boxes) {
  OutlineCache outlines(16);  // its loops are exact; the polygons it also makes are not used
  double solid = 0.0;
  for (std::size_t i = 0; i < frame.particles.size(); ++i) {
    const auto& [low, high] = boxes[i];
    const Vec2 corners[4] = {low, {high.x, low.y}, high, {low.x, high.y}};
    bool all_in = true;
    for (Vec2 c : corners) all_in = all_in && window.contains(c);
    const Vec2 nearest = window.kind == Window::Kind::circle ? Vec2{std::clamp(window.centre.x, low.x, high.x),
                                                                    std::clamp(window.centre.y, low.y, high.y)}
                                                             : Vec2{};
    const bool all_out = window.kind == Window::Kind::circle
                             ? !window.contains(nearest)
                             : high.x < window.x0 || low.x > window.x1 || high.y < window.y0 || low.y > window.y1;
    if (all_in) solid += frame.particles[i].area;
    if (all_in || all_out) continue;
    const PlacedShape& p = frame.exact_shapes[i];
    std::vector<BoundaryLoop> loops;
    for (const BoundaryLoop& loop : outlines.loops(p.shape)) loops.push_back(placed(loop, p.angle, p.position));
    solid += area_inside(loops, window);
  }
  return solid;
}

// Every particle's stress (for the chains); the window's average stress,
// packing, void ratio and coordination. Returns the mean size √A.
double particle_sums(const FrameData& frame, const AnalysisOptions& options, const Window& window,
                     const std::vector<std::pair<Vec2, Vec2>>& boxes, FrameSummary& s, std::vector<Stress>& stress,
                     std::map<int, int>& index_of_body) {
  double solid = 0.0, contacts = 0.0, sizes = 0.0;
  std::vector<int> with_z;
  for (std::size_t i = 0; i < frame.particles.size(); ++i) {
    const ParticleRecord& p = frame.particles[i];
    const Stress sigma = particle_stress(p, options.exclude_walls);
    index_of_body[p.id] = static_cast<int>(stress.size());
    stress.push_back(sigma);
    sizes += std::sqrt(p.area);
    if (!window.contains(p.centre)) continue;
    s.stress += sigma.scaled(p.area);
    solid += p.area;
    ++s.particles;
    if (with_z.size() <= static_cast<std::size_t>(p.coordination))
      with_z.resize(static_cast<std::size_t>(p.coordination) + 1);
    ++with_z[static_cast<std::size_t>(p.coordination)];
    if (p.coordination < 2) ++s.rattlers;
    if (!(options.exclude_rattlers && p.coordination < 2)) contacts += p.coordination;
  }
  s.stress = s.stress.scaled(1.0 / window.area());
  s.pressure = s.stress.pressure();
  s.deviator = s.stress.deviator();
  if (has_exact_outlines(frame) && !options.packing_by_centres) {
    solid = solid_area_inside(frame, window, boxes);
    s.packing_exact = true;
  }
  s.packing_fraction = solid / window.area();
  s.void_ratio = solid > 0.0 ? (window.area() - solid) / solid : INFINITY;
  const int counted = options.exclude_rattlers ? s.particles - s.rattlers : s.particles;
  s.coordination = counted > 0 ? contacts / counted : 0.0;
  for (int n : with_z)
    s.coordination_distribution.push_back(s.particles > 0 ? static_cast<double>(n) / s.particles : 0.0);
  return frame.particles.empty() ? 1.0 : sizes / static_cast<double>(frame.particles.size());
}

// Fabric and orientation roses over the window's contacts between
// particles (walls have no stress of their own, and their normals would say
// more about the box); returns every particle–particle link, for the chains.
std::vector<ParticleContact> contact_sums(const FrameData& frame, const AnalysisOptions& options, const Window& window,
                                          const std::map<int, int>& index_of_body, FrameSummary& s) {
  const int bins = std::max(1, options.rose_bins);
  const double bin_width = std::numbers::pi / bins;
  s.normal_density.assign(static_cast<std::size_t>(bins), 0.0);
  s.mean_normal_force.assign(static_cast<std::size_t>(bins), 0.0);
  std::vector<ParticleContact> links;
  int fabric_count = 0;
  for (const PairRecord& pair : frame.pairs) {
    const auto a = index_of_body.find(pair.body_a), b = index_of_body.find(pair.body_b);
    if (a == index_of_body.end() || b == index_of_body.end()) continue;
    links.push_back({a->second, b->second, pair.branch});
    const bool inside = window.contains(frame.particles[static_cast<std::size_t>(a->second)].centre) ||
                        window.contains(frame.particles[static_cast<std::size_t>(b->second)].centre);
    if (!inside || norm(pair.normal) == 0.0) continue;
    s.fabric_xx += pair.normal.x * pair.normal.x;
    s.fabric_yy += pair.normal.y * pair.normal.y;
    s.fabric_xy += pair.normal.x * pair.normal.y;
    ++fabric_count;
    double theta = std::atan2(pair.normal.y, pair.normal.x);
    if (theta < 0.0) theta += std::numbers::pi;  // an axis
    const auto bin = std::min(static_cast<std::size_t>(theta / bin_width), static_cast<std::size_t>(bins - 1));
    s.normal_density[bin] += 1.0;
    s.mean_normal_force[bin] += pair.normal_force;
  }
  for (std::size_t k = 0; k < s.normal_density.size(); ++k) {
    if (s.normal_density[k] > 0.0) s.mean_normal_force[k] /= s.normal_density[k];
    if (fabric_count > 0) s.normal_density[k] /= fabric_count * bin_width;
  }
  if (fabric_count > 0) {
    s.fabric_xx /= fabric_count, s.fabric_yy /= fabric_count, s.fabric_xy /= fabric_count;
    s.anisotropy = 2.0 * std::hypot(s.fabric_xx - s.fabric_yy, 2.0 * s.fabric_xy);  // 2 (F1 − F2)
  }
  return links;
}

void local_packing_sums(const FrameData& frame, const Window& window, double spacing, FrameSummary& s) {
  std::vector<double> area;
  double sizes = 0.0, half_width = INFINITY;
  for (const ParticleRecord& p : frame.particles) {
    area.push_back(p.area), sizes += std::sqrt(p.area);
    half_width = std::min(half_width, p.radius);
  }
  spacing *= frame.particles.empty() ? 1.0 : sizes / static_cast<double>(frame.particles.size());
  s.local_packing_fraction =
      local_packing_fractions(frame.outlines, area, spacing, std::isfinite(half_width) ? half_width : 0.0)
          .packing_fraction;
  double sum = 0.0;
  for (std::size_t i = 0; i < frame.particles.size(); ++i)
    if (window.contains(frame.particles[i].centre)) sum += s.local_packing_fraction[i];
  s.mean_local_packing_fraction = s.particles > 0 ? sum / s.particles : 0.0;
}

std::vector<ShapeGroup> shape_groups(const FrameData& frame, const Window& window) {
  std::map<std::string, ShapeGroup> groups;
  for (const ParticleRecord& p : frame.particles) {
    if (p.shape.empty() || !window.contains(p.centre)) continue;
    ShapeGroup& g = groups[p.shape];
    ++g.grains;
    g.area += p.area;
    g.mean_centre += p.centre;
  }
  std::vector<ShapeGroup> out;
  for (auto& [name, g] : groups) {
    g.shape = name;
    g.mean_centre = g.mean_centre / static_cast<double>(g.grains);
    out.push_back(g);
  }
  return out;
}

}  // namespace

FrameSummary analyze_frame(const FrameData& frame, const AnalysisOptions& options) {
  FrameSummary s;
  s.time = frame.time;
  const auto boxes = particle_boxes(frame);
  const Window window = window_of(boxes, options, s);
  std::vector<Stress> stress;
  std::map<int, int> index_of_body;  // run body index → particle index in this frame
  const double mean_size = particle_sums(frame, options, window, boxes, s, stress, index_of_body);
  const std::vector<ParticleContact> links = contact_sums(frame, options, window, index_of_body, s);
  s.chains = find_force_chains(stress, links, options.chain_tolerance_degrees, options.chain_links);
  s.walls = wall_face_stresses(frame, mean_size);
  if (options.local_packing) local_packing_sums(frame, window, options.voronoi_spacing, s);
  s.shapes = shape_groups(frame, window);
  return s;
}

}  // namespace sphero::analysis
