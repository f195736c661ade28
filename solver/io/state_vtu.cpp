#include "io/state_vtu.h"

#include <fmt/format.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "engine/wall_vibration.h"
#include "io/grid_check.h"
#include "io/state_constraints.h"
#include "io/vtu_file.h"

namespace sphero {
namespace {

// Bodies of one shape come back from their world coordinates each with a
// round-off of its own. A skeleton that matches one read before to well
// within that round-off (a billionth of its size) is replaced by it, so
// that the bodies share one skeleton and its exact mass properties are
// computed once, not once per body.
class RecoveredSkeletons {
 public:
  std::vector<Vec2> shared(const std::string& name, SkeletonKind kind, double radius, std::vector<Vec2> local) {
    double extent = radius;
    for (Vec2 v : local) extent = std::max(extent, std::max(std::abs(v.x), std::abs(v.y)));
    const double quantum = extent > 0.0 ? std::ldexp(1.0, std::ilogb(extent) - 30) : 1.0;
    std::string key = fmt::format("{}|{}|{}", name, static_cast<int>(kind), radius);
    for (Vec2 v : local) key += fmt::format("|{},{}", std::llround(v.x / quantum), std::llround(v.y / quantum));
    return known_.try_emplace(std::move(key), std::move(local)).first->second;
  }

 private:
  std::map<std::string, std::vector<Vec2>> known_;
};

// A format-1 record's shape: its skeleton back in the body frame (the world
// re-centres it on its centre of mass, which is where it was written from),
// shared with the bodies of its shape read before.
Shape recovered_shape(const StateRecord& r, RecoveredSkeletons& skeletons, const std::string& source) {
  std::vector<Vec2> local;
  for (const Vec2 p : r.skeleton) local.push_back(rotated(p - r.centre, -r.angle));
  const SkeletonKind kind = local.size() == 1   ? SkeletonKind::point
                            : r.closed          ? SkeletonKind::polygon
                            : local.size() == 2 ? SkeletonKind::segment
                                                : SkeletonKind::polyline;
  try {
    return make_shape(r.shape, kind, skeletons.shared(r.shape, kind, r.radius, std::move(local)), r.radius);
  } catch (const ShapeError& e) {
    throw std::runtime_error(fmt::format("{}: body {}: {}", source, r.id, e.what()));
  }
}

// A record's vibration and pressure plate into `constraint` (the plate's
// span left as ids, which spans_to_indices turns into body indices once
// every body is read), checked.
void set_loads(const StateRecord& r, BodyConstraint& constraint, const std::string& source) {
  Vibration& v = constraint.vibration;
  v.amplitude = {r.vibration[0], r.vibration[1]};
  v.frequency = r.vibration[2];
  v.tap_interval = r.vibration[3];
  v.steady_velocity = {constraint.imposed_velocity[0], constraint.imposed_velocity[1]};
  try {
    check_vibration(constraint);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(fmt::format("{}: body {}: {}", source, r.id, e.what()));
  }
  if (r.inward == Vec2{}) return;
  const Vec2 inward = r.inward;
  const bool axis = (std::abs(inward.x) == 1.0 && inward.y == 0.0) || (inward.x == 0.0 && std::abs(inward.y) == 1.0);
  if (!axis || !(r.pressure >= 0.0) || !std::isfinite(r.pressure))
    throw std::runtime_error(
        fmt::format("{}: body {}: a pressure plate needs a pressure >= 0 and an inward direction "
                    "(±1, 0) or (0, ±1), found {:g} and ({:g}, {:g})",
                    source, r.id, r.pressure, inward.x, inward.y));
  constraint.pressure = r.pressure;
  constraint.inward = inward;
  constraint.span_bodies = r.span;
}

// The plates' spans from the ids of `records` to the indices of `bodies`.
void spans_to_indices(std::vector<BodySpec>& bodies, const std::vector<StateRecord>& records,
                      const std::string& source) {
  std::map<long, int> index_of;
  for (std::size_t k = 0; k < records.size(); ++k) index_of[records[k].id] = static_cast<int>(k);
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    std::array<int, 2>& span = bodies[k].constraint.span_bodies;
    if ((span[0] < 0) != (span[1] < 0))
      throw std::runtime_error(
          fmt::format("{}: body {}: a plate's span needs two bodies or none", source, records[k].id));
    for (int& end : span) {
      if (end < 0) continue;
      const auto found = index_of.find(end);
      if (found == index_of.end() || !bodies[static_cast<std::size_t>(found->second)].is_wall ||
          static_cast<std::size_t>(found->second) == k)
        throw std::runtime_error(
            fmt::format("{}: body {}: a plate's span names body {}, which is not another wall of the file", source,
                        records[k].id, end));
      end = found->second;
    }
  }
}

// A plate's span end as the file holds it: -1 or an id.
int span_end(double end, int body, const std::string& source) {
  if (!(end >= -1.0 && end < 2147483647.0) || end != std::floor(end))
    throw std::runtime_error(fmt::format("{}: body {}: a plate's span names body {:g}", source, body, end));
  return static_cast<int>(end);
}

// The cells in the order of their ids where these are distinct whole
// numbers >= 0 (the pieces of a run on ranks come in the ranks' order; a
// run that removed bodies leaves gaps), else as stored (a packing edited
// elsewhere may renumber). Bodies are read in this order, which decides
// whose skeleton bodies of a shape share.
// The cells' ids where these are distinct whole numbers >= 0, else none.
std::optional<std::vector<int>> usable_ids(vtkDataArray* id, vtkIdType cells) {
  if (id == nullptr || id->GetNumberOfComponents() != 1) return std::nullopt;
  std::vector<int> ids;
  for (vtkIdType c = 0; c < cells; ++c) {
    const double number = id->GetTuple1(c);
    if (!(number >= 0.0 && number < 2147483647.0) || number != std::floor(number)) return std::nullopt;
    ids.push_back(static_cast<int>(number));
  }
  std::vector<int> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return std::nullopt;
  return ids;
}

// Cells by id: ids name the bodies (the pieces of a run on ranks come in
// the ranks' order; a run that removed bodies leaves gaps), else as
// stored, named by cell number (a packing edited elsewhere may lose its
// ids), which `numbers` gets. Bodies are read in this order, which decides
// whose skeleton bodies of a shape share.
std::vector<vtkIdType> cells_by_id(vtkDataArray* id, vtkIdType cells, std::vector<int>& numbers) {
  numbers.resize(static_cast<std::size_t>(cells));
  std::iota(numbers.begin(), numbers.end(), 0);
  if (const auto ids = usable_ids(id, cells)) numbers = *ids;
  std::vector<vtkIdType> order(static_cast<std::size_t>(cells));
  std::iota(order.begin(), order.end(), vtkIdType{0});
  std::sort(order.begin(), order.end(), [&](vtkIdType a, vtkIdType b) {
    return numbers[static_cast<std::size_t>(a)] < numbers[static_cast<std::size_t>(b)];
  });
  return order;
}

// The arrays a state frame may hold beside the ones it cannot be read
// without: absent ones read as 0 (a body that imposes nothing, a frame
// written without them).
struct StateArrays {
  vtkDataArray *material, *velocity, *omega, *coordination, *stress, *wall_stress;
  vtkDataArray *held, *imposed_velocity, *imposed_force, *vibration, *plate;
};

void read_constraint(const StateArrays& a, vtkIdType c, StateRecord& r, const std::string& source) {
  for (int k = 0; k < 3; ++k) {
    if (a.held) r.held[static_cast<std::size_t>(k)] = a.held->GetComponent(c, k) != 0.0;
    if (a.imposed_velocity) r.imposed_velocity[static_cast<std::size_t>(k)] = a.imposed_velocity->GetComponent(c, k);
  }
  if (a.imposed_force) {
    r.imposed_force = {a.imposed_force->GetComponent(c, 0), a.imposed_force->GetComponent(c, 1)};
    r.imposed_torque = a.imposed_force->GetComponent(c, 2);
  }
  if (a.vibration)
    for (int k = 0; k < 4; ++k) r.vibration[static_cast<std::size_t>(k)] = a.vibration->GetComponent(c, k);
  if (a.plate) {
    r.pressure = a.plate->GetComponent(c, 0);
    r.inward = {a.plate->GetComponent(c, 1), a.plate->GetComponent(c, 2)};
    if (!(r.inward == Vec2{}))
      for (int k = 0; k < 2; ++k)
        r.span[static_cast<std::size_t>(k)] = span_end(a.plate->GetComponent(c, 3 + k), r.id, source);
  }
}

void read_analysis_arrays(const StateArrays& a, vtkIdType c, StateRecord& r) {
  if (a.coordination) r.coordination = cell_int(a.coordination, c);
  for (int k = 0; k < 4; ++k) {
    if (a.stress) r.stress[static_cast<std::size_t>(k)] = a.stress->GetComponent(c, k);
    if (a.wall_stress) r.wall_stress[static_cast<std::size_t>(k)] = a.wall_stress->GetComponent(c, k);
  }
}

std::vector<StateRecord> light_state_records(vtkUnstructuredGrid* grid, const std::string& source,
                                             const ShapeTable* shapes) {
  if (shapes == nullptr)
    throw std::runtime_error(source + ": a light state frame (format 2) is read with its run's shape table");
  check_cell_sizes(grid, 1, 1, source, "body (a vertex at its centre of mass)");
  vtkDataArray *id = cell_array(grid, "id", 1, true, source), *row = cell_array(grid, "shape", 1, true, source),
               *angle = cell_array(grid, "angle", 1, true, source), *wall = cell_array(grid, "wall", 1, true, source),
               *density = cell_array(grid, "density", 1, true, source);
  const auto optional = [&](const char* name, int components) {
    return cell_array(grid, name, components, false, source);
  };
  const StateArrays a{optional("material", 1),
                      optional("velocity", 3),
                      optional("angular_velocity", 1),
                      optional("coordination_number", 1),
                      optional("stress_compression_positive", 4),
                      optional("stress_from_walls", 4),
                      optional("held", 3),
                      optional("imposed_velocity", 3),
                      optional("imposed_force", 3),
                      optional("vibration", 4),
                      optional("plate", 5)};
  std::vector<std::shared_ptr<const ShapeRow>> rows;
  for (const ShapeRow& r : shapes->rows()) rows.push_back(std::make_shared<const ShapeRow>(r));
  std::vector<int> numbers;
  if (!usable_ids(id, grid->GetNumberOfCells()))
    throw std::runtime_error(source + ": the bodies' ids must be distinct whole numbers >= 0; the file is damaged");
  std::vector<StateRecord> records;
  vtkNew<vtkIdList> point;
  for (const vtkIdType c : cells_by_id(id, grid->GetNumberOfCells(), numbers)) {
    StateRecord r;
    r.id = numbers[static_cast<std::size_t>(c)];
    r.shape_row = cell_int(row, c);
    if (r.shape_row < 0 || static_cast<std::size_t>(r.shape_row) >= rows.size())
      throw std::runtime_error(
          fmt::format("{}: body {} names shape row {}, which the run's shape table ({} rows) "
                      "lacks; the frame or the table is damaged",
                      source, r.id, cell_int(row, c), rows.size()));
    r.exact = rows[static_cast<std::size_t>(r.shape_row)];
    const Shape& shape = r.exact->shape;
    double p[3];
    grid->GetCellPoints(c, point);
    grid->GetPoint(point->GetId(0), p);
    r.centre = {p[0], p[1]};
    r.angle = angle->GetTuple1(c);
    // As the engine places a vertex (vertex_position), to the bit.
    const Vec2 cs = orientation_at(r.angle), at = r.centre;
    for (const Vec2 v : shape.vertices)
      r.skeleton.push_back({at.x + cs.x * v.x - cs.y * v.y, at.y + cs.y * v.x + cs.x * v.y});
    r.closed = shape.is_closed();
    r.shape = shape.name;
    r.radius = shape.radius;
    r.wall = wall->GetTuple1(c) != 0.0;
    r.density = density->GetTuple1(c);
    if (!(r.density > 0.0) || !std::isfinite(r.density) || !std::isfinite(r.angle))
      throw std::runtime_error(fmt::format("{}: body {}: density {:g} and angle {:g} must be finite, the density > 0",
                                           source, r.id, r.density, r.angle));
    if (a.material) r.material = cell_int(a.material, c);
    if (a.velocity) r.velocity = {a.velocity->GetComponent(c, 0), a.velocity->GetComponent(c, 1)};
    if (a.omega) r.angular_velocity = a.omega->GetTuple1(c);
    read_analysis_arrays(a, c, r);
    read_constraint(a, c, r, source);
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace

void write_state_vtu(const std::filesystem::path& path, const World& w, double time) {
  const vtkSmartPointer<vtkUnstructuredGrid> grid = state_grid(state_records(w, FramePiece{}));
  add_time_value(grid, time);
  write_vtu_atomically(path, grid);
}

std::vector<StateRecord> state_records(const World& w, const FramePiece& piece, bool skeletons) {
  std::vector<StateRecord> records;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!piece.writes(i)) continue;
    StateRecord r;
    r.id = w.id[i];
    if (skeletons) {
      r.shape = w.shape_name[i];
      r.skeleton.reserve(static_cast<std::size_t>(w.vertex_count[i]));
      for (int k = w.vertex_begin[i]; k < w.vertex_begin[i] + w.vertex_count[i]; ++k)
        r.skeleton.push_back(vertex_position(w, static_cast<int>(i), k));
    }
    r.closed = w.closed[i] != 0 && w.vertex_count[i] > 1;
    r.material = w.material[i];
    r.wall = w.is_wall[i] != 0;
    r.radius = w.radius[i];
    r.centre = w.position[i];
    r.angle = w.angle[i];
    r.velocity = w.velocity[i];
    r.angular_velocity = w.angular_velocity[i];
    r.density = w.density[i];
    set_constraint(r, constraint_row(w, i));
    records.push_back(std::move(r));
  }
  return records;
}

namespace {

// What the analysis needs of a grain beyond its state, where a frame of a
// run holds it.
void add_analysis_arrays(vtkUnstructuredGrid* grid, const std::vector<StateRecord>& records) {
  auto coordination = named_ints("coordination_number", 1);
  auto stress = named_doubles("stress_compression_positive", 4), wall_stress = named_doubles("stress_from_walls", 4);
  for (const StateRecord& r : records) {
    coordination->InsertNextValue(r.coordination);
    stress->InsertNextTuple(r.stress.data());
    wall_stress->InsertNextTuple(r.wall_stress.data());
  }
  for (vtkAbstractArray* a : std::initializer_list<vtkAbstractArray*>{coordination, stress, wall_stress})
    grid->GetCellData()->AddArray(a);
}

}  // namespace

vtkSmartPointer<vtkUnstructuredGrid> state_grid(const std::vector<StateRecord>& records, bool analysis) {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();  // skeletons exactly, not rounded to float
  vtkNew<vtkStringArray> shape;
  shape->SetName("shape");
  auto id = named_ints("id", 1), material = named_ints("material", 1), wall = named_ints("wall", 1);
  auto radius = named_doubles("sphero_radius", 1), centre = named_doubles("centre_of_mass", 3),
       angle = named_doubles("angle", 1);
  auto velocity = named_doubles("velocity", 3), omega = named_doubles("angular_velocity", 1),
       density = named_doubles("density", 1);
  for (const StateRecord& r : records) {
    std::vector<vtkIdType> ids;
    for (const Vec2 p : r.skeleton) ids.push_back(points->InsertNextPoint(p.x, p.y, 0.0));
    const int type = ids.size() == 1 ? VTK_VERTEX : (r.closed ? VTK_POLYGON : VTK_POLY_LINE);
    grid->InsertNextCell(type, static_cast<vtkIdType>(ids.size()), ids.data());
    shape->InsertNextValue(r.shape);
    id->InsertNextValue(r.id);
    material->InsertNextValue(r.material);
    wall->InsertNextValue(r.wall);
    radius->InsertNextValue(r.radius);
    centre->InsertNextTuple3(r.centre.x, r.centre.y, 0.0);
    angle->InsertNextValue(r.angle);
    velocity->InsertNextTuple3(r.velocity.x, r.velocity.y, 0.0);
    omega->InsertNextValue(r.angular_velocity);
    density->InsertNextValue(r.density);
  }
  grid->SetPoints(points);
  for (vtkAbstractArray* a : std::initializer_list<vtkAbstractArray*>{
           shape, id, material, wall, radius, centre, angle, velocity, omega, density})
    grid->GetCellData()->AddArray(a);
  add_constraint_arrays(grid, static_cast<vtkIdType>(records.size()),
                        [&](vtkIdType k) { return constraint_row(records[static_cast<std::size_t>(k)]); });
  if (analysis) add_analysis_arrays(grid, records);
  return grid;
}

vtkSmartPointer<vtkUnstructuredGrid> light_state_grid(const World& w, const FramePiece& piece, const BodyExtras& extras,
                                                      const std::string& shape_table) {
  std::vector<std::size_t> bodies;
  bodies.reserve(w.size());
  for (std::size_t i = 0; i < w.size(); ++i)
    if (piece.writes(i)) bodies.push_back(i);
  const auto n = static_cast<vtkIdType>(bodies.size());
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(n);
  double* at = static_cast<vtkDoubleArray*>(points->GetData())->GetPointer(0);
  for (const std::size_t i : bodies) *at++ = w.position[i].x, *at++ = w.position[i].y, *at++ = 0.0;
  grid->SetPoints(points);
  set_uniform_cells(grid, VTK_VERTEX, n, 1);
  IntColumn id("id", n), row("shape", n), material("material", n), wall("wall", n),
      coordination("coordination_number", n);
  DoubleColumn angle("angle", n), velocity("velocity", n, 3), omega("angular_velocity", n), density("density", n),
      stress("stress_compression_positive", n, 4), wall_stress("stress_from_walls", n, 4);
  for (vtkIdType k = 0; k < n; ++k) {
    const std::size_t i = bodies[static_cast<std::size_t>(k)];
    id.set(k, w.id[i]), row.set(k, extras.shape_row[i]), material.set(k, w.material[i]);
    wall.set(k, w.is_wall[i] != 0), coordination.set(k, extras.coordination[i]), angle.set(k, w.angle[i]);
    velocity.set(k, {w.velocity[i].x, w.velocity[i].y, 0.0}), omega.set(k, w.angular_velocity[i]);
    density.set(k, w.density[i]);
    const Stress &s = extras.stress[i], &g = extras.between_grains[i];
    stress.set(k, {s.xx, s.xy, s.yx, s.yy});
    wall_stress.set(k, {s.xx - g.xx, s.xy - g.xy, s.yx - g.yx, s.yy - g.yy});
  }
  add_columns(
      grid, {&id, &row, &material, &wall, &angle, &velocity, &omega, &density, &coordination, &stress, &wall_stress});
  // A whole frame holds the constraint arrays some body needs; a frame in
  // pieces holds them all, so that its pieces agree.
  add_constraint_arrays(grid, n, imposing_bodies(w, bodies), !piece.whole());
  auto format = named_ints("sphero_state_format", 1);
  format->InsertNextValue(2);
  vtkNew<vtkStringArray> table;
  table->SetName("shape_table");
  table->InsertNextValue(shape_table);
  grid->GetFieldData()->AddArray(format);
  grid->GetFieldData()->AddArray(table);
  return grid;
}

void write_packing_vtu(const std::filesystem::path& path, const std::vector<BodySpec>& bodies) {
  // The state writer takes a world; its placeholder laws are not recorded.
  write_state_vtu(path, geometry_world(bodies), 0.0);
}

std::vector<BodySpec> read_state_vtu(const std::filesystem::path& path, std::vector<int>* ids) {
  if (!std::filesystem::exists(path)) throw std::runtime_error(path.string() + ": the packing file does not exist");
  const vtkSmartPointer<vtkUnstructuredGrid> grid = read_vtu(path);
  if (grid->GetNumberOfCells() == 0) throw std::runtime_error(path.string() + ": holds no bodies");
  const std::shared_ptr<const ShapeTable> shapes = shape_table_of_state(grid, path);
  return bodies_from_state_grid(grid, path.string(), ids, shapes.get());
}

int state_format(vtkUnstructuredGrid* grid) {
  vtkDataArray* format = grid->GetFieldData()->GetArray("sphero_state_format");
  if (format == nullptr || format->GetNumberOfTuples() != 1) return 1;
  const double value = format->GetTuple1(0);
  return value >= 1.0 && value <= 1000.0 && value == std::floor(value) ? static_cast<int>(value) : 0;
}

std::shared_ptr<const ShapeTable> shape_table_of_state(vtkUnstructuredGrid* grid, const std::filesystem::path& file) {
  const int format = state_format(grid);
  if (format == 1) return nullptr;
  if (format != 2)
    throw std::runtime_error(
        fmt::format("{}: a state frame of format {}; this Sphero reads formats 1 and 2 (a newer one wrote it?)",
                    file.string(), format));
  auto* name = vtkStringArray::SafeDownCast(grid->GetFieldData()->GetAbstractArray("shape_table"));
  const std::string table = name != nullptr && name->GetNumberOfValues() == 1 ? name->GetValue(0) : std::string();
  if (table.empty() || table.find('/') != std::string::npos || table.find('\\') != std::string::npos)
    throw std::runtime_error(file.string() +
                             ": a light state frame must name its shape table (shape_table, a file beside it); "
                             "the file is damaged");
  try {
    return shared_shape_table(file.parent_path() / table);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("{}: its shape table: {}", file.string(), e.what()));
  }
}

std::vector<StateRecord> state_records_from_grid(vtkUnstructuredGrid* grid, const std::string& source,
                                                 const ShapeTable* shapes) {
  if (state_format(grid) != 1) return light_state_records(grid, source, shapes);
  vtkCellData* data = grid->GetCellData();
  const auto need = [&](const char* name, int components) {
    vtkDataArray* a = data->GetArray(name);
    if (a == nullptr || a->GetNumberOfComponents() != components)
      throw std::runtime_error(
          fmt::format("{}: no cell array '{}' with {} component(s); is it a state file that "
                      "`sphero run` wrote (state_NNNNN.vtu)?",
                      source, name, components));
    return a;
  };
  auto* names = vtkStringArray::SafeDownCast(data->GetAbstractArray("shape"));
  if (names == nullptr) throw std::runtime_error(source + ": no cell array 'shape'");
  vtkDataArray *material = need("material", 1), *wall = need("wall", 1), *held = need("held", 3);
  vtkDataArray *radius = need("sphero_radius", 1), *centre = need("centre_of_mass", 3), *angle = need("angle", 1);
  vtkDataArray *velocity = need("velocity", 3), *omega = need("angular_velocity", 1), *density = need("density", 1);
  vtkDataArray *imposed_velocity = need("imposed_velocity", 3), *imposed_force = need("imposed_force", 3);
  vtkDataArray* vibration = data->GetArray("vibration");  // files before vibrating walls have none
  if (vibration != nullptr && vibration->GetNumberOfComponents() != 4)
    throw std::runtime_error(
        source + ": the cell array 'vibration' needs 4 components (amplitude x, y, frequency, tap interval)");
  vtkDataArray* plate = data->GetArray("plate");  // files before plates kept their pressure have none
  if (plate != nullptr && plate->GetNumberOfComponents() != 5)
    throw std::runtime_error(
        source + ": the cell array 'plate' needs 5 components (pressure, inward x, y, the span's two bodies)");
  vtkDataArray* id = data->GetArray("id");
  if (id != nullptr && id->GetNumberOfComponents() != 1) id = nullptr;
  std::vector<int> numbers;
  const std::vector<vtkIdType> order = cells_by_id(id, grid->GetNumberOfCells(), numbers);
  const StateArrays a{material,
                      velocity,
                      omega,
                      cell_array(grid, "coordination_number", 1, false, source),
                      cell_array(grid, "stress_compression_positive", 4, false, source),
                      cell_array(grid, "stress_from_walls", 4, false, source),
                      held,
                      imposed_velocity,
                      imposed_force,
                      vibration,
                      plate};
  std::vector<StateRecord> records;
  for (const vtkIdType c : order) {
    StateRecord r;
    r.id = numbers[static_cast<std::size_t>(c)];
    r.skeleton = cell_points(grid, c);
    r.closed = grid->GetCellType(c) == VTK_POLYGON;
    r.shape = names->GetValue(c);
    r.radius = radius->GetTuple1(c);
    r.centre = {centre->GetComponent(c, 0), centre->GetComponent(c, 1)};
    r.angle = angle->GetTuple1(c);
    r.velocity = {velocity->GetComponent(c, 0), velocity->GetComponent(c, 1)};
    r.angular_velocity = omega->GetTuple1(c);
    r.material = cell_int(material, c);
    r.density = density->GetTuple1(c);
    r.wall = wall->GetTuple1(c) != 0.0;
    read_constraint(a, c, r, source);
    read_analysis_arrays(a, c, r);
    records.push_back(std::move(r));
  }
  return records;
}

std::vector<BodySpec> bodies_of_states(const std::vector<StateRecord>& records, const std::string& source) {
  std::vector<BodySpec> bodies;
  RecoveredSkeletons skeletons;
  for (const StateRecord& r : records) {
    BodySpec b;
    b.position = r.centre;
    b.angle = r.angle;
    b.shape = r.exact ? r.exact->shape : recovered_shape(r, skeletons, source);
    b.velocity = r.velocity;
    b.angular_velocity = r.angular_velocity;
    b.material = r.material;
    b.density = r.density;
    b.is_wall = r.wall;
    b.constraint.held = r.held;
    b.constraint.imposed_velocity = r.imposed_velocity;
    b.constraint.imposed_force = r.imposed_force;
    b.constraint.imposed_torque = r.imposed_torque;
    set_loads(r, b.constraint, source);
    bodies.push_back(std::move(b));
  }
  spans_to_indices(bodies, records, source);
  return bodies;
}

std::vector<BodySpec> bodies_from_state_grid(vtkUnstructuredGrid* grid, const std::string& source,
                                             std::vector<int>* body_ids, const ShapeTable* shapes) {
  const std::vector<StateRecord> records = state_records_from_grid(grid, source, shapes);
  std::vector<BodySpec> bodies = bodies_of_states(records, source);
  if (body_ids) {
    body_ids->clear();
    for (const StateRecord& r : records) body_ids->push_back(r.id);
  }
  return bodies;
}

}  // namespace sphero
