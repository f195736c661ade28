#include "io/frame_grids.h"

#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>

#include <iterator>
#include <map>
#include <stdexcept>
#include <tuple>

#include "engine/stress.h"
#include "io/contact_pairs.h"
#include "io/contact_points_vtu.h"
#include "io/contacts_grid.h"
#include "io/drawing_shift.h"
#include "io/field_arrays.h"
#include "io/frame_reader.h"
#include "io/packing_frame.h"
#include "io/pvtu_file.h"
#include "io/single_precision.h"
#include "io/state_vtu.h"
#include "io/vtu_file.h"
#include "shapes/outline_cache.h"

namespace sphero {
namespace {

// A body-frame outline placed where body i is (rotated(), its cosine and
// sine taken once), moved by `shift`.
std::vector<Vec2> placed(const World& w, std::size_t i, const std::vector<Vec2>& local, Vec2 shift = {}) {
  const double c = std::cos(w.angle[i]), s = std::sin(w.angle[i]);
  std::vector<Vec2> out;
  out.reserve(local.size());
  for (const Vec2 a : local) out.push_back(w.position[i] + Vec2{c * a.x - s * a.y, s * a.x + c * a.y} + shift);
  return out;
}

void add_arrays(vtkUnstructuredGrid* grid, std::initializer_list<vtkAbstractArray*> arrays) {
  for (vtkAbstractArray* a : arrays) grid->GetCellData()->AddArray(a);
}

// The grid's points and cells of one polygon or poly-line.
void insert_cell(vtkUnstructuredGrid* grid, vtkPoints* points, int type, const std::vector<Vec2>& path) {
  std::vector<vtkIdType> ids;
  for (const Vec2 p : path) ids.push_back(points->InsertNextPoint(p.x, p.y, 0.0));
  grid->InsertNextCell(type, static_cast<vtkIdType>(ids.size()), ids.data());
}

vtkSmartPointer<vtkUnstructuredGrid> new_grid(vtkPoints* points) {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  points->SetDataTypeToDouble();  // positions and branch vectors for analysis, not rounded to float
  return grid;
}

vtkSmartPointer<vtkUnstructuredGrid> particles_grid(const FrameData& f) {
  vtkNew<vtkPoints> points;
  auto grid = new_grid(points);
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
  for (std::size_t k = 0; k < f.particles.size(); ++k) {
    const ParticleRecord& p = f.particles[k];
    insert_cell(grid, points, VTK_POLYGON, f.outlines[k]);
    id->InsertNextValue(p.id);
    material->InsertNextValue(p.material);
    coordination->InsertNextValue(p.coordination);
    shape->InsertNextValue(p.shape);
    velocity->InsertNextTuple3(p.velocity.x, p.velocity.y, 0.0);
    omega->InsertNextValue(p.angular_velocity);
    kinetic->InsertNextValue(p.kinetic_energy);
    sigma->InsertNextTuple(p.stress.data());
    sigma_walls->InsertNextTuple(p.wall_stress.data());
    area->InsertNextValue(p.area);
    centre->InsertNextTuple3(p.centre.x, p.centre.y, 0.0);
    radius->InsertNextValue(p.radius);
  }
  grid->SetPoints(points);
  add_arrays(
      grid, {id, material, coordination, shape, velocity, omega, kinetic, sigma, sigma_walls, radius, area, centre});
  return grid;
}

vtkSmartPointer<vtkUnstructuredGrid> walls_grid(const FrameData& f) {
  vtkNew<vtkPoints> points;
  auto grid = new_grid(points);
  auto id = named_ints("id", 1);
  auto part = named_ints("part", 1);    // 0 outline, 2 skeleton, 3 contact point
  auto grain = named_ints("grain", 1);  // at a contact point, the grain touching; else −1
  auto force = named_doubles("force", 3);
  const auto add = [&](int wall, int which, int touching, Vec2 acting) {
    id->InsertNextValue(wall);
    part->InsertNextValue(which);
    grain->InsertNextValue(touching);
    force->InsertNextTuple3(acting.x, acting.y, 0.0);
  };
  for (std::size_t k = 0; k < f.walls.size(); ++k) {
    const WallRecord& wall = f.walls[k];
    if (wall.skeleton.empty()) continue;  // a piece's wall it does not draw: its contacts only
    insert_cell(grid, points, VTK_POLYGON, f.wall_outlines[k]);
    add(wall.id, 0, -1, wall.force);
    insert_cell(grid, points, VTK_POLY_LINE, wall.skeleton);
    add(wall.id, 2, -1, wall.force);
  }
  // Every vertex contact between a grain and a wall, as a vertex cell at its
  // point of application with the force on the wall: what wall stresses
  // are summed from (a grain in a corner touches two faces of one wall).
  for (const WallRecord& wall : f.walls)
    for (const WallContact& c : wall.contacts) {
      const vtkIdType point = points->InsertNextPoint(c.point.x, c.point.y, 0.0);
      grid->InsertNextCell(VTK_VERTEX, 1, &point);
      add(wall.id, 3, c.grain, c.force);
    }
  grid->SetPoints(points);
  add_arrays(grid, {id, part, grain, force});
  return grid;
}

// Whether a run of `fields` writes the contacts' arrays a reader derives
// (force_magnitude, branch_vector): where it names them, or names no
// fields at all.
bool writes_derived(const std::vector<std::string>& fields) {
  const std::vector<std::string> arrays = chosen_arrays(fields, "contacts");
  return fields.empty() || std::find(arrays.begin(), arrays.end(), "force_magnitude") != arrays.end() ||
         std::find(arrays.begin(), arrays.end(), "branch_vector") != arrays.end();
}

// A rigid run's step, over which its contacts' percussions act; 0 for
// a soft run.
double percussion_dt(const Engine& engine) {
  return engine.settings().model == Model::rigid ? engine.settings().dt : 0.0;
}

}  // namespace

FrameGrids::FrameGrids(const World& w, int arc_resolution, ShapeTable* shapes, bool single_precision)
    : single_precision_(single_precision) {
  if (shapes)
    for (std::size_t i = 0; i < w.size(); ++i) table_row_.push_back(shapes->row_of(w, i));
  // Bodies of one shape share its drawing: the cache hands out one
  // polygon per distinct shape, known here by its address.
  OutlineCache outlines(arc_resolution);
  std::map<const std::vector<Vec2>*, std::uint32_t> index_of;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const Shape shape = body_shape(w, i);
    const std::vector<Vec2>& outline = outlines.outline(shape);
    const auto [at, is_new] = index_of.try_emplace(&outline, static_cast<std::uint32_t>(shapes_.size()));
    if (is_new) shapes_.push_back({outline, outlines.area(shape)});
    shape_index_.push_back(at->second);
  }
}

FrameData FrameGrids::frame(const Engine& engine, const FramePiece& piece, const std::vector<std::string>& fields,
                            bool skeletons) const {
  return frame_of(engine, gather(engine, fields), piece, fields, skeletons, true);
}

FrameGrids::Gathered FrameGrids::gather(const Engine& engine, const std::vector<std::string>& fields) const {
  const auto wants = [&](const char* field) { return std::find(fields.begin(), fields.end(), field) != fields.end(); };
  const World& w = engine.world();
  const bool loads = wants("outlines") || wants("state"), pairs = loads || wants("contacts"),
             every_contact = wants("contact_points");
  // Per-particle stress (Love–Weber, docs/MODEL.md §6), compression positive,
  // and the walls' share of it, so that analysis can leave wall contacts out.
  GrainStressSums stresses(w);
  // Room for 3 pairs a body, more than a dense packing of polygons
  // usually has (the sums grow beyond it where they must).
  PairSums pair_sums(pairs ? 3 * w.size() : 0);
  Gathered g;
  // One pass over the contacts, none of them kept but those with walls
  // (and every one where the contact points are written).
  engine.for_each_touching_contact([&](const Contact& c) {
    if (pairs) pair_sums.add(c);
    if (loads) stresses.add(c);
    if (w.is_wall[c.vertex_body] != w.is_wall[c.edge_body]) g.wall_contacts.push_back(c);
    if (every_contact) g.contacts.push_back(c);
  });
  if (pairs && pair_sums.ordered()) g.pairs = pair_sums.take();
  if (pairs && !pair_sums.ordered()) {
    std::vector<Contact> contacts;
    engine.for_each_touching_contact([&](const Contact& c) { contacts.push_back(c); });
    g.pairs = pairs_of(w, contacts);
  }
  if (!loads) return g;
  std::vector<double> areas(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) areas[i] = shape_of(i).area;
  g.stress = stresses.all(areas);
  g.between_grains = stresses.between_grains(areas);
  g.coordination = coordination_numbers(w, g.pairs);
  return g;
}

FrameData FrameGrids::frame_of(const Engine& engine, const Gathered& g, const FramePiece& piece,
                               const std::vector<std::string>& fields, bool skeletons, bool states) const {
  const auto wants = [&](const char* field) { return std::find(fields.begin(), fields.end(), field) != fields.end(); };
  FrameData data;
  data.time = engine.time();
  const World& w = engine.world();
  if (wants("outlines")) add_particles(w, g, piece, data);
  if (states && wants("state")) add_states(w, g, piece, skeletons, data);
  if (wants("contacts")) {
    add_pairs(w, g.pairs, piece, data);
    data.percussion_dt = percussion_dt(engine);
  }
  if (wants("walls")) add_walls(w, g.wall_contacts, piece, data);
  if (wants("contact_points")) data.vertex_contacts = vertex_contact_records(w, g.contacts, piece);
  return data;
}

std::vector<PieceLayout> FrameGrids::write(const Engine& engine, const FramePiece& piece,
                                           const std::vector<std::string>& fields,
                                           const std::filesystem::path& directory, int frame) const {
  const Gathered gathered = gather(engine, fields);
  // The contacts and a light state are made straight from the world,
  // without records.
  const bool light = !table_row_.empty();
  std::vector<std::string> recorded;
  std::copy_if(
      fields.begin(), fields.end(), std::back_inserter(recorded), [](const std::string& f) { return f != "contacts"; });
  const FrameData data = frame_of(engine, gathered, piece, recorded, !light, !light);
  std::vector<PieceLayout> layouts;
  for (const std::string& field : kFrameFields) {
    if (std::find(fields.begin(), fields.end(), field) == fields.end()) continue;
    vtkSmartPointer<vtkUnstructuredGrid> grid;
    if (field == "contacts")
      grid = contacts_grid(engine.world(), gathered.pairs, piece, {writes_derived(fields), percussion_dt(engine)});
    else if (field == "state" && light)
      grid = light_state_grid(engine.world(), piece,
                              {table_row_, gathered.coordination, gathered.stress, gathered.between_grains},
                              kShapeTableFile);
    else grid = field_grid(field, data, fields);
    if (field != "state" || state_format(grid) == 2) keep_chosen_arrays(grid, fields, field);
    if (single_precision_) to_single_precision(grid, field == "state");
    add_time_value(grid, data.time);
    if (!piece.whole()) add_piece_identity(grid, piece.run, frame, piece.index, piece.count);
    write_vtu_atomically(directory / piece.file_name(field, frame), grid);
    layouts.push_back({field, layout_of(grid)});
  }
  return layouts;
}

void FrameGrids::add_states(const World& w, const Gathered& loads, const FramePiece& piece, bool skeletons,
                            FrameData& data) const {
  data.states = state_records(w, piece, skeletons);
  std::size_t next = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!piece.writes(i)) continue;
    StateRecord& r = data.states[next++];
    if (!table_row_.empty()) r.shape_row = table_row_[i];
    r.coordination = loads.coordination[i];
    const Stress &s = loads.stress[i], &g = loads.between_grains[i];
    r.stress = {s.xx, s.xy, s.yx, s.yy};
    r.wall_stress = {s.xx - g.xx, s.xy - g.xy, s.yx - g.yx, s.yy - g.yy};
  }
}

void FrameGrids::add_particles(const World& w, const Gathered& loads, const FramePiece& piece, FrameData& data) const {
  const std::size_t n = w.size();
  const std::vector<Stress>&stress = loads.stress, &between_grains = loads.between_grains;
  const std::vector<int>& coordination_of = loads.coordination;
  for (std::size_t i = 0; i < n; ++i) {
    if (w.is_wall[i] || !piece.writes(i)) continue;
    data.outlines.push_back(placed(w, i, shape_of(i).outline));
    ParticleRecord p;
    p.id = w.id[i];
    p.material = w.material[i];
    p.coordination = coordination_of[i];
    p.shape = w.shape_name[i];
    p.velocity = w.velocity[i];
    p.angular_velocity = w.angular_velocity[i];
    p.kinetic_energy =
        0.5 * w.mass[i] * norm2(w.velocity[i]) + 0.5 * w.inertia[i] * w.angular_velocity[i] * w.angular_velocity[i];
    const Stress &s = stress[i], &g = between_grains[i];
    p.stress = {s.xx, s.xy, s.yx, s.yy};
    p.wall_stress = {s.xx - g.xx, s.xy - g.xy, s.yx - g.yx, s.yy - g.yy};
    p.area = shape_of(i).area;
    p.centre = w.position[i];
    p.radius = w.radius[i];
    data.particles.push_back(std::move(p));
  }
}

void FrameGrids::add_pairs(const World& w, const std::vector<ContactPair>& pairs, const FramePiece& piece,
                           FrameData& data) const {
  data.pairs.reserve(pairs.size());
  data.forces.reserve(pairs.size());
  for (const ContactPair& p : pairs) {
    if (!piece.writes_pair(w, p.a, p.b)) continue;
    const ContactLine line = contact_line(w, p);
    data.pairs.push_back(line.pair);
    data.forces.push_back(line.line);
  }
}

void FrameGrids::add_walls(const World& w, const std::vector<Contact>& contacts, const FramePiece& piece,
                           FrameData& data) const {
  std::map<std::size_t, std::size_t> record_of;  // wall body, its record
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!w.is_wall[i] || !piece.writes(i)) continue;
    const Vec2 shift = drawing_shift(w, i);
    std::vector<Vec2> outline = placed(w, i, shape_of(i).outline, shift), skeleton;
    for (int k = w.vertex_begin[i]; k < w.vertex_begin[i] + w.vertex_count[i]; ++k)
      skeleton.push_back(vertex_position(w, static_cast<int>(i), k) + shift);
    record_of[i] = data.walls.size();
    data.walls.push_back({w.id[i], std::move(skeleton), w.force[i], {}});
    data.wall_outlines.push_back(std::move(outline));
  }
  for (const Contact& c : contacts) {
    if (!c.active || w.is_wall[c.vertex_body] == w.is_wall[c.edge_body]) continue;
    if (!piece.writes_pair(w, c.vertex_body, c.edge_body)) continue;
    const bool wall_has_vertex = w.is_wall[c.vertex_body];
    const std::size_t wall = static_cast<std::size_t>(wall_has_vertex ? c.vertex_body : c.edge_body);
    const std::size_t touching = static_cast<std::size_t>(wall_has_vertex ? c.edge_body : c.vertex_body);
    const Vec2 at = (wall_has_vertex ? c.point : c.point - c.edge_offset) + drawing_shift(w, wall);
    const Vec2 on_wall = wall_has_vertex ? c.force : -c.force;
    auto found = record_of.find(wall);
    if (found == record_of.end()) {  // a piece that does not draw the wall (rank 0 draws them): its contacts only
      found = record_of.emplace(wall, data.walls.size()).first;
      data.walls.push_back({w.id[wall], {}, w.force[wall], {}});
      data.wall_outlines.emplace_back();
    }
    data.walls[found->second].contacts.push_back({at, on_wall, w.id[touching]});
  }
}

vtkSmartPointer<vtkUnstructuredGrid> field_grid(const std::string& field, const FrameData& data,
                                                const std::vector<std::string>& fields) {
  if (field == "outlines") return particles_grid(data);
  if (field == "contacts") return contacts_grid(data.pairs, data.forces, {writes_derived(fields), data.percussion_dt});
  if (field == "walls") return walls_grid(data);
  if (field == "contact_points") return contact_points_grid(data.vertex_contacts);
  if (std::any_of(data.states.begin(), data.states.end(), [](const StateRecord& r) { return r.shape_row >= 0; }))
    throw std::logic_error("a light state frame is made from its world (FrameGrids::write), not from records");
  return state_grid(data.states, true);
}

FrameData frame_in_memory(const Engine& engine, int arc_resolution) {
  ShapeTable shapes;
  const std::vector<std::string> fields{"contacts", "walls", "contact_points", "state"};
  FrameData data = FrameGrids(engine.world(), arc_resolution, &shapes).frame(engine, FramePiece{}, fields);
  // What a reader derives from the state frame and the shape table,
  // derived alike.
  std::vector<std::shared_ptr<const ShapeRow>> rows;
  for (const ShapeRow& row : shapes.rows()) rows.push_back(std::make_shared<const ShapeRow>(row));
  for (StateRecord& r : data.states) r.exact = rows[static_cast<std::size_t>(r.shape_row)];
  add_particles_from_states(data, arc_resolution);
  return data;
}

}  // namespace sphero
