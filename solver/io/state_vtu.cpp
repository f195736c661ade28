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
#include <stdexcept>

#include "engine/wall_vibration.h"
#include "io/grid_check.h"
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

// Body c's vibration, its steady velocity being the imposed one.
void read_vibration(vtkDataArray* vibration, vtkIdType c, BodyConstraint& constraint, const std::string& source) {
  Vibration& v = constraint.vibration;
  v.amplitude = {vibration->GetComponent(c, 0), vibration->GetComponent(c, 1)};
  v.frequency = vibration->GetComponent(c, 2);
  v.tap_interval = vibration->GetComponent(c, 3);
  v.steady_velocity = {constraint.imposed_velocity[0], constraint.imposed_velocity[1]};
  try {
    check_vibration(constraint);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(fmt::format("{}: body {}: {}", source, c, e.what()));
  }
}

// Body c's pressure-plate settings; its span's ends are left as ids, which
// read_plate_spans turns into body indices once every body is read.
void read_plate(vtkDataArray* plate, vtkIdType c, BodyConstraint& constraint, const std::string& source) {
  const double pressure = plate->GetComponent(c, 0);
  const Vec2 inward{plate->GetComponent(c, 1), plate->GetComponent(c, 2)};
  if (inward == Vec2{}) return;
  const bool axis = (std::abs(inward.x) == 1.0 && inward.y == 0.0) || (inward.x == 0.0 && std::abs(inward.y) == 1.0);
  if (!axis || !(pressure >= 0.0) || !std::isfinite(pressure))
    throw std::runtime_error(
        fmt::format("{}: body {}: a pressure plate needs a pressure >= 0 and an inward direction "
                    "(±1, 0) or (0, ±1), found {:g} and ({:g}, {:g})",
                    source, c, pressure, inward.x, inward.y));
  constraint.pressure = pressure;
  constraint.inward = inward;
  for (int k = 0; k < 2; ++k) {
    const double end = plate->GetComponent(c, 3 + k);
    if (!(end >= -1.0 && end < 2147483647.0) || end != std::floor(end))
      throw std::runtime_error(fmt::format("{}: body {}: a plate's span names body {:g}", source, c, end));
    constraint.span_bodies[static_cast<std::size_t>(k)] = static_cast<int>(end);
  }
}

// The plates' spans from the ids of the file to the indices of `bodies`,
// read in `order` (ids as written, `id` absent: cell numbers).
void read_plate_spans(std::vector<BodySpec>& bodies, const std::vector<vtkIdType>& order, vtkDataArray* id,
                      const std::string& source) {
  std::map<long, int> index_of;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const double number = id ? id->GetTuple1(order[k]) : static_cast<double>(order[k]);
    if (std::abs(number) < 2147483647.0) index_of[static_cast<long>(number)] = static_cast<int>(k);
  }
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    std::array<int, 2>& span = bodies[k].constraint.span_bodies;
    if ((span[0] < 0) != (span[1] < 0))
      throw std::runtime_error(fmt::format("{}: body {}: a plate's span needs two bodies or none", source, order[k]));
    for (int& end : span) {
      if (end < 0) continue;
      const auto found = index_of.find(end);
      if (found == index_of.end() || !bodies[static_cast<std::size_t>(found->second)].is_wall ||
          static_cast<std::size_t>(found->second) == k)
        throw std::runtime_error(fmt::format(
            "{}: body {}: a plate's span names body {}, which is not another wall of the file", source, order[k], end));
      end = found->second;
    }
  }
}

// The cells in the order of their ids where these are distinct whole
// numbers >= 0 (the pieces of a run on ranks come in the ranks' order; a
// run that removed bodies leaves gaps), else as stored (a packing edited
// elsewhere may renumber). Bodies are read in this order, which decides
// whose skeleton bodies of a shape share.
std::vector<vtkIdType> cells_in_body_order(vtkDataArray* id, vtkIdType cells) {
  std::vector<vtkIdType> as_stored(static_cast<std::size_t>(cells));
  for (vtkIdType c = 0; c < cells; ++c) as_stored[static_cast<std::size_t>(c)] = c;
  if (id == nullptr || id->GetNumberOfComponents() != 1) return as_stored;
  std::vector<std::pair<double, vtkIdType>> by_id;
  for (vtkIdType c = 0; c < cells; ++c) {
    const double number = id->GetTuple1(c);
    if (!(number >= 0.0 && number < 2147483647.0) || number != std::floor(number)) return as_stored;
    by_id.push_back({number, c});
  }
  std::sort(by_id.begin(), by_id.end());
  for (std::size_t k = 0; k < by_id.size(); ++k) {
    if (k > 0 && by_id[k].first == by_id[k - 1].first) return as_stored;
    as_stored[k] = by_id[k].second;
  }
  return as_stored;
}

}  // namespace

void write_state_vtu(const std::filesystem::path& path, const World& w, double time) {
  const vtkSmartPointer<vtkUnstructuredGrid> grid = state_grid(w, FramePiece{});
  add_time_value(grid, time);
  write_vtu_atomically(path, grid);
}

vtkSmartPointer<vtkUnstructuredGrid> state_grid(const World& w, const FramePiece& piece) {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();  // skeletons exactly, not rounded to float
  vtkNew<vtkStringArray> shape;
  shape->SetName("shape");
  auto id = named_ints("id", 1), material = named_ints("material", 1), wall = named_ints("wall", 1),
       held = named_ints("held", 3);
  auto radius = named_doubles("sphero_radius", 1), centre = named_doubles("centre_of_mass", 3),
       angle = named_doubles("angle", 1);
  auto velocity = named_doubles("velocity", 3), omega = named_doubles("angular_velocity", 1),
       density = named_doubles("density", 1);
  auto imposed_velocity = named_doubles("imposed_velocity", 3), imposed_force = named_doubles("imposed_force", 3);
  // amplitude x, y, frequency, tap interval (Vibration); all 0 without one.
  auto vibration = named_doubles("vibration", 4);
  // A pressure plate's pressure, inward x, y and the ids of the two bodies
  // whose distance is its span (-1 where it has none); all 0 and -1 for
  // other bodies.
  auto plate = named_doubles("plate", 5);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!piece.writes(i)) continue;
    std::vector<vtkIdType> ids;
    for (int k = w.vertex_begin[i]; k < w.vertex_begin[i] + w.vertex_count[i]; ++k) {
      const Vec2 p = vertex_position(w, static_cast<int>(i), k);
      ids.push_back(points->InsertNextPoint(p.x, p.y, 0.0));
    }
    const int type = ids.size() == 1 ? VTK_VERTEX : (w.closed[i] ? VTK_POLYGON : VTK_POLY_LINE);
    grid->InsertNextCell(type, static_cast<vtkIdType>(ids.size()), ids.data());
    shape->InsertNextValue(w.shape_name[i]);
    id->InsertNextValue(w.id[i]);
    material->InsertNextValue(w.material[i]);
    wall->InsertNextValue(w.is_wall[i]);
    const BodyConstraint& c = w.constraint[i];
    held->InsertNextTuple3(c.held[0], c.held[1], c.held[2]);
    radius->InsertNextValue(w.radius[i]);
    centre->InsertNextTuple3(w.position[i].x, w.position[i].y, 0.0);
    angle->InsertNextValue(w.angle[i]);
    velocity->InsertNextTuple3(w.velocity[i].x, w.velocity[i].y, 0.0);
    omega->InsertNextValue(w.angular_velocity[i]);
    density->InsertNextValue(w.density[i]);
    // A vibrating wall's imposed velocity is its steady one: this step's
    // share of the oscillation is in its velocity.
    const std::array<double, 3> steady = c.steady_imposed_velocity();
    imposed_velocity->InsertNextTuple3(steady[0], steady[1], steady[2]);
    const Vibration& v = c.vibration;
    imposed_force->InsertNextTuple3(c.imposed_force.x, c.imposed_force.y, c.imposed_torque);
    const double vibration_tuple[4] = {v.amplitude.x, v.amplitude.y, v.frequency, v.tap_interval};
    vibration->InsertNextTuple(vibration_tuple);
    const auto span_id = [&](int end) {
      return end < 0 ? -1.0 : static_cast<double>(w.id[static_cast<std::size_t>(end)]);
    };
    const double plate_tuple[5] = {
        c.pressure, c.inward.x, c.inward.y, span_id(c.span_bodies[0]), span_id(c.span_bodies[1])};
    plate->InsertNextTuple(plate_tuple);
  }
  grid->SetPoints(points);
  for (vtkAbstractArray* a :
       std::initializer_list<vtkAbstractArray*>{shape, id, material, wall, held, radius, centre, angle, velocity, omega,
                                                density, imposed_velocity, imposed_force, vibration, plate})
    grid->GetCellData()->AddArray(a);
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
  return bodies_from_state_grid(grid, path.string(), ids);
}

std::vector<BodySpec> bodies_from_state_grid(vtkUnstructuredGrid* grid, const std::string& source,
                                             std::vector<int>* body_ids) {
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
  std::vector<BodySpec> bodies;
  RecoveredSkeletons skeletons;
  vtkNew<vtkIdList> ids;
  const std::vector<vtkIdType> order = cells_in_body_order(id, grid->GetNumberOfCells());
  for (const vtkIdType c : order) {
    grid->GetCellPoints(c, ids);
    const int type = grid->GetCellType(c);
    BodySpec b;
    b.position = {centre->GetComponent(c, 0), centre->GetComponent(c, 1)};
    b.angle = angle->GetTuple1(c);
    // Skeleton back in the body frame: the world re-centres it on its
    // centre of mass, which is where it was written from.
    std::vector<Vec2> local;
    for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k) {
      double p[3];
      grid->GetPoint(ids->GetId(k), p);
      local.push_back(rotated(Vec2{p[0], p[1]} - b.position, -b.angle));
    }
    const SkeletonKind kind = type == VTK_VERTEX    ? SkeletonKind::point
                              : type == VTK_POLYGON ? SkeletonKind::polygon
                              : local.size() == 2   ? SkeletonKind::segment
                                                    : SkeletonKind::polyline;
    try {
      const std::string name = names->GetValue(c);
      const double r = radius->GetTuple1(c);
      b.shape = make_shape(name, kind, skeletons.shared(name, kind, r, std::move(local)), r);
    } catch (const ShapeError& e) {
      throw std::runtime_error(fmt::format("{}: body {}: {}", source, c, e.what()));
    }
    b.velocity = {velocity->GetComponent(c, 0), velocity->GetComponent(c, 1)};
    b.angular_velocity = omega->GetTuple1(c);
    b.material = cell_int(material, c);
    b.density = density->GetTuple1(c);
    b.is_wall = wall->GetTuple1(c) != 0.0;
    for (int k = 0; k < 3; ++k) {
      b.constraint.held[k] = held->GetComponent(c, k) != 0.0;
      b.constraint.imposed_velocity[k] = imposed_velocity->GetComponent(c, k);
    }
    b.constraint.imposed_force = {imposed_force->GetComponent(c, 0), imposed_force->GetComponent(c, 1)};
    b.constraint.imposed_torque = imposed_force->GetComponent(c, 2);
    if (vibration != nullptr) read_vibration(vibration, c, b.constraint, source);
    if (plate != nullptr) read_plate(plate, c, b.constraint, source);
    bodies.push_back(std::move(b));
  }
  read_plate_spans(bodies, order, id, source);
  if (body_ids) {
    body_ids->clear();
    for (const vtkIdType c : order) body_ids->push_back(id ? static_cast<int>(id->GetTuple1(c)) : static_cast<int>(c));
  }
  return bodies;
}

}  // namespace sphero
