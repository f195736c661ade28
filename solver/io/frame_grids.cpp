#include "io/frame_grids.h"

#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>

#include <map>
#include <tuple>

#include "engine/stress.h"
#include "io/contact_points_vtu.h"
#include "io/drawing_shift.h"
#include "io/frame_reader.h"
#include "io/state_vtu.h"
#include "io/vtu_file.h"
#include "shapes/outline_cache.h"

namespace sphero {
namespace {

Shape body_shape(const World& w, int i) {
  std::vector<Vec2> local = local_skeleton(w, static_cast<std::size_t>(i));
  const SkeletonKind kind = local.size() == 1   ? SkeletonKind::point
                            : w.closed[i]       ? SkeletonKind::polygon
                            : local.size() == 2 ? SkeletonKind::segment
                                                : SkeletonKind::polyline;
  return make_shape(w.shape_name[i], kind, std::move(local), w.radius[i]);
}

Vec2 to_world(const World& w, std::size_t i, Vec2 local) { return w.position[i] + rotated(local, w.angle[i]); }

void add_arrays(vtkUnstructuredGrid* grid, std::initializer_list<vtkAbstractArray*> arrays) {
  for (vtkAbstractArray* a : arrays) grid->GetCellData()->AddArray(a);
}

// Per body of `w`, the distinct bodies it touches.
std::vector<int> coordination_numbers(const World& w, const std::vector<Contact>& contacts) {
  std::vector<std::vector<int>> partners(w.size());
  for (const Contact& c : contacts) {
    if (!c.active) continue;
    partners[static_cast<std::size_t>(c.vertex_body)].push_back(c.edge_body);
    partners[static_cast<std::size_t>(c.edge_body)].push_back(c.vertex_body);
  }
  std::vector<int> counts(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    auto& p = partners[i];
    std::sort(p.begin(), p.end());
    counts[i] = static_cast<int>(std::unique(p.begin(), p.end()) - p.begin());
  }
  return counts;
}

// One line per interacting pair of bodies (and periodic image), summing its
// vertex–edge contacts; force on the first body. Contact points are taken
// in the first body's frame of images.
struct Pair {
  int a, b;
  Vec2 b_offset, force, normal_sum, point_sum, direction_sum;
  double normal = 0.0, overlap = 0.0;
  bool sliding = false;
  int contacts = 0;
};

std::map<std::tuple<int, int, int, int>, Pair> pairs_of(const World& w, const std::vector<Contact>& contacts,
                                                        const FramePiece& piece) {
  std::map<std::tuple<int, int, int, int>, Pair> pairs;
  for (const Contact& c : contacts) {
    if (!c.active || !piece.writes_pair(w, c.vertex_body, c.edge_body)) continue;
    const bool vertex_first = c.vertex_body < c.edge_body;
    const int a = vertex_first ? c.vertex_body : c.edge_body, b = vertex_first ? c.edge_body : c.vertex_body;
    const Vec2 offset = vertex_first ? c.edge_offset : -c.edge_offset;
    const std::array<int, 2> image = vertex_first ? c.image : std::array<int, 2>{-c.image[0], -c.image[1]};
    Pair& p = pairs.try_emplace({a, b, image[0], image[1]}, Pair{a, b, offset, {}, {}, {}, {}}).first->second;
    p.force += vertex_first ? c.force : -c.force;
    p.point_sum += c.point - (vertex_first ? Vec2{} : c.edge_offset);
    p.direction_sum += vertex_first ? c.normal : -c.normal;  // from a towards b
    p.normal += c.normal_force;
    p.normal_sum += vertex_first ? -c.normal_force * c.normal : c.normal_force * c.normal;
    p.overlap = std::max(p.overlap, c.overlap);
    p.sliding |= c.sliding;
    ++p.contacts;
  }
  return pairs;
}

}  // namespace

FrameGrids::FrameGrids(const World& w, int arc_resolution) {
  // Bodies of one shape share its drawing: the cache hands out one
  // polygon per distinct shape, known here by its address.
  OutlineCache outlines(arc_resolution);
  std::map<const std::vector<Vec2>*, std::uint32_t> index_of;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const Shape shape = body_shape(w, static_cast<int>(i));
    const std::vector<Vec2>& outline = outlines.outline(shape);
    const auto [at, is_new] = index_of.try_emplace(&outline, static_cast<std::uint32_t>(shapes_.size()));
    if (is_new) shapes_.push_back({outline, outlines.area(shape)});
    shape_index_.push_back(at->second);
  }
}

std::vector<PieceLayout> FrameGrids::write(const Engine& engine, const FramePiece& piece,
                                           const std::vector<std::string>& fields,
                                           const std::filesystem::path& directory, int frame) const {
  std::vector<PieceLayout> layouts;
  const std::vector<Contact> contacts = engine.contacts();
  for (const std::string& field : kFrameFields) {
    if (std::find(fields.begin(), fields.end(), field) == fields.end()) continue;
    const vtkSmartPointer<vtkUnstructuredGrid> grid = grid_of(field, engine, contacts, piece);
    add_time_value(grid, engine.time());
    write_vtu_atomically(directory / piece.file_name(field, frame), grid);
    layouts.push_back({field, layout_of(grid)});
  }
  return layouts;
}

std::map<std::string, vtkSmartPointer<vtkUnstructuredGrid>> FrameGrids::grids(
    const Engine& engine, const std::vector<std::string>& fields) const {
  std::map<std::string, vtkSmartPointer<vtkUnstructuredGrid>> grids;
  const std::vector<Contact> contacts = engine.contacts();
  for (const std::string& field : kFrameFields) {
    if (std::find(fields.begin(), fields.end(), field) == fields.end()) continue;
    vtkSmartPointer<vtkUnstructuredGrid> grid = grid_of(field, engine, contacts, FramePiece{});
    add_time_value(grid, engine.time());
    grids[field] = grid;
  }
  return grids;
}

vtkSmartPointer<vtkUnstructuredGrid> FrameGrids::grid_of(const std::string& field, const Engine& engine,
                                                         const std::vector<Contact>& contacts,
                                                         const FramePiece& piece) const {
  if (field == "particles") return particles(engine, contacts, piece);
  if (field == "contacts") return contact_lines(engine, contacts, piece);
  if (field == "walls") return walls(engine.world(), contacts, piece);
  if (field == "contact_points") return contact_points_grid(engine.world(), contacts, piece);
  return state_grid(engine.world(), piece);
}

vtkSmartPointer<vtkUnstructuredGrid> FrameGrids::particles(const Engine& engine, const std::vector<Contact>& contacts,
                                                           const FramePiece& piece) const {
  const World& w = engine.world();
  const std::size_t n = w.size();
  // Per-particle stress (Love–Weber, docs/MODEL.md §6), compression positive,
  // and the walls' share of it, so that analysis can leave wall contacts out.
  std::vector<double> areas(n);
  std::vector<bool> grain(n);
  for (std::size_t i = 0; i < n; ++i) areas[i] = shape_of(i).area, grain[i] = !w.is_wall[i];
  const std::vector<Stress> stress = particle_stresses(w, contacts, areas);
  const std::vector<Stress> between_grains = particle_stresses(w, contacts, areas, grain);
  const std::vector<int> coordination_of = coordination_numbers(w, contacts);
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();  // positions and branch vectors for analysis, not rounded to float
  auto id = named_ints("id", 1);
  auto material = named_ints("material", 1);
  auto coordination = named_ints("coordination_number", 1);
  vtkNew<vtkStringArray> shape;
  shape->SetName("shape");
  auto velocity = named_doubles("velocity", 3);
  auto omega = named_doubles("angular_velocity", 1);
  auto kinetic = named_doubles("kinetic_energy", 1);
  auto sigma = named_doubles("stress_compression_positive", 4);
  auto sigma_walls = named_doubles("stress_from_walls", 4);
  auto radius = named_doubles("sphero_radius", 1);
  auto area = named_doubles("area", 1);
  auto centre = named_doubles("centre_of_mass", 3);
  for (std::size_t i = 0; i < n; ++i) {
    if (w.is_wall[i] || !piece.writes(i)) continue;
    std::vector<vtkIdType> ids;
    for (Vec2 p : shape_of(i).outline) {
      const Vec2 q = to_world(w, i, p);
      ids.push_back(points->InsertNextPoint(q.x, q.y, 0.0));
    }
    grid->InsertNextCell(VTK_POLYGON, static_cast<vtkIdType>(ids.size()), ids.data());
    id->InsertNextValue(w.id[i]);
    material->InsertNextValue(w.material[i]);
    coordination->InsertNextValue(coordination_of[i]);
    shape->InsertNextValue(w.shape_name[i]);
    velocity->InsertNextTuple3(w.velocity[i].x, w.velocity[i].y, 0.0);
    omega->InsertNextValue(w.angular_velocity[i]);
    kinetic->InsertNextValue(0.5 * w.mass[i] * norm2(w.velocity[i]) +
                             0.5 * w.inertia[i] * w.angular_velocity[i] * w.angular_velocity[i]);
    sigma->InsertNextTuple4(stress[i].xx, stress[i].xy, stress[i].yx, stress[i].yy);
    sigma_walls->InsertNextTuple4(stress[i].xx - between_grains[i].xx, stress[i].xy - between_grains[i].xy,
                                  stress[i].yx - between_grains[i].yx, stress[i].yy - between_grains[i].yy);
    area->InsertNextValue(shape_of(i).area);
    centre->InsertNextTuple3(w.position[i].x, w.position[i].y, 0.0);
    radius->InsertNextValue(w.radius[i]);
  }
  grid->SetPoints(points);
  add_arrays(
      grid, {id, material, coordination, shape, velocity, omega, kinetic, sigma, sigma_walls, radius, area, centre});
  return grid;
}

vtkSmartPointer<vtkUnstructuredGrid> FrameGrids::contact_lines(const Engine& engine,
                                                               const std::vector<Contact>& contacts,
                                                               const FramePiece& piece) const {
  const World& w = engine.world();
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();  // positions and branch vectors for analysis, not rounded to float
  auto first = named_ints("body_a", 1);
  auto second = named_ints("body_b", 1);
  auto sliding = named_ints("sliding", 1);
  auto count = named_ints("vertex_contacts", 1);
  auto force = named_doubles("force_on_a", 3);
  auto magnitude = named_doubles("force_magnitude", 1);
  auto normal = named_doubles("normal_force", 1);
  auto tangential = named_doubles("tangential_force", 1);
  auto overlap = named_doubles("overlap", 1);
  auto branch = named_doubles("branch_vector", 3);
  auto normal_direction = named_doubles("contact_normal", 3);
  // A rigid run's contacts act by percussions: its forces are those over
  // the step, so the step's percussions are the forces times dt.
  const bool rigid = engine.settings().model == Model::rigid;
  const double dt = engine.settings().dt;
  auto percussion = named_doubles("percussion_on_a", 3);
  auto normal_percussion = named_doubles("normal_percussion", 1);
  auto tangential_percussion = named_doubles("tangential_percussion", 1);
  for (const auto& [key, p] : pairs_of(w, contacts, piece)) {
    // A wall's centre of mass says nothing about where it is touched: draw
    // wall contacts from the grain to the mean contact point.
    // The line is in the first body's frame, which a wall's drawing shifts.
    const Vec2 shift = drawing_shift(w, static_cast<std::size_t>(p.a));
    const Vec2 touch = p.point_sum / static_cast<double>(p.contacts) + shift;
    const Vec2 xa = w.is_wall[p.a] ? touch : w.position[p.a] + shift;
    const Vec2 xb = w.is_wall[p.b] ? touch : w.position[p.b] + p.b_offset + shift;
    const vtkIdType ids[2] = {points->InsertNextPoint(xa.x, xa.y, 0.0), points->InsertNextPoint(xb.x, xb.y, 0.0)};
    grid->InsertNextCell(VTK_LINE, 2, ids);
    first->InsertNextValue(w.id[static_cast<std::size_t>(p.a)]);
    second->InsertNextValue(w.id[static_cast<std::size_t>(p.b)]);
    sliding->InsertNextValue(p.sliding);
    count->InsertNextValue(p.contacts);
    force->InsertNextTuple3(p.force.x, p.force.y, 0.0);
    magnitude->InsertNextValue(norm(p.force));
    normal->InsertNextValue(p.normal);
    tangential->InsertNextValue(norm(p.force - p.normal_sum));
    overlap->InsertNextValue(p.overlap);
    branch->InsertNextTuple3(xb.x - xa.x, xb.y - xa.y, 0.0);
    const Vec2 n = p.direction_sum / std::max(norm(p.direction_sum), 1e-300);
    normal_direction->InsertNextTuple3(n.x, n.y, 0.0);
    percussion->InsertNextTuple3(dt * p.force.x, dt * p.force.y, 0.0);
    normal_percussion->InsertNextValue(dt * p.normal);
    tangential_percussion->InsertNextValue(dt * norm(p.force - p.normal_sum));
  }
  grid->SetPoints(points);
  add_arrays(
      grid, {first, second, sliding, count, force, magnitude, normal, tangential, overlap, branch, normal_direction});
  if (rigid) add_arrays(grid, {percussion, normal_percussion, tangential_percussion});
  return grid;
}

vtkSmartPointer<vtkUnstructuredGrid> FrameGrids::walls(const World& w, const std::vector<Contact>& contacts,
                                                       const FramePiece& piece) const {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();  // positions and branch vectors for analysis, not rounded to float
  auto id = named_ints("id", 1);
  auto part = named_ints("part", 1);    // 0 outline, 2 skeleton, 3 contact point
  auto grain = named_ints("grain", 1);  // at a contact point, the grain touching; else −1
  auto force = named_doubles("force", 3);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!w.is_wall[i] || !piece.writes(i)) continue;
    const Vec2 shift = drawing_shift(w, i);
    for (int which : {0, 2}) {
      std::vector<vtkIdType> ids;
      if (which == 0) {
        for (Vec2 p : shape_of(i).outline) {
          const Vec2 q = to_world(w, i, p) + shift;
          ids.push_back(points->InsertNextPoint(q.x, q.y, 0.0));
        }
      } else {
        for (int k = w.vertex_begin[i]; k < w.vertex_begin[i] + w.vertex_count[i]; ++k) {
          const Vec2 q = vertex_position(w, static_cast<int>(i), k) + shift;
          ids.push_back(points->InsertNextPoint(q.x, q.y, 0.0));
        }
      }
      grid->InsertNextCell(which == 0 ? VTK_POLYGON : VTK_POLY_LINE, static_cast<vtkIdType>(ids.size()), ids.data());
      id->InsertNextValue(w.id[i]);
      part->InsertNextValue(which);
      grain->InsertNextValue(-1);
      force->InsertNextTuple3(w.force[i].x, w.force[i].y, 0.0);
    }
  }
  // Every vertex contact between a grain and a wall, as a vertex cell at its
  // point of application with the force on the wall: what wall stresses
  // are summed from (a grain in a corner touches two faces of one wall).
  for (const Contact& c : contacts) {
    if (!c.active || w.is_wall[c.vertex_body] == w.is_wall[c.edge_body]) continue;
    if (!piece.writes_pair(w, c.vertex_body, c.edge_body)) continue;
    const bool wall_has_vertex = w.is_wall[c.vertex_body];
    const std::size_t wall = static_cast<std::size_t>(wall_has_vertex ? c.vertex_body : c.edge_body);
    const std::size_t touching = static_cast<std::size_t>(wall_has_vertex ? c.edge_body : c.vertex_body);
    const Vec2 at = (wall_has_vertex ? c.point : c.point - c.edge_offset) + drawing_shift(w, wall);
    const Vec2 on_wall = wall_has_vertex ? c.force : -c.force;
    const vtkIdType point = points->InsertNextPoint(at.x, at.y, 0.0);
    grid->InsertNextCell(VTK_VERTEX, 1, &point);
    id->InsertNextValue(w.id[wall]);
    part->InsertNextValue(3);
    grain->InsertNextValue(w.id[touching]);
    force->InsertNextTuple3(on_wall.x, on_wall.y, 0.0);
  }
  grid->SetPoints(points);
  add_arrays(grid, {id, part, grain, force});
  return grid;
}

FrameData frame_in_memory(const Engine& engine, int arc_resolution) {
  const FrameGrids drawn(engine.world(), arc_resolution);
  auto grids = drawn.grids(engine, kFrameFields);
  FrameData data = frame_from_grids(grids["particles"], grids["contacts"], grids["walls"], grids["state"]);
  data.vertex_contacts = vertex_contacts_from_grid(grids["contact_points"]);
  return data;
}

}  // namespace sphero
