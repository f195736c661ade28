#include "io/run_output.h"

#include <fmt/format.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>

#include <cmath>
#include <map>
#include <stdexcept>

#include "io/atomic_file.h"
#include "io/contact_points_vtu.h"
#include "io/drawing_shift.h"
#include "engine/stress.h"
#include "io/vtu_file.h"
#include "io/state_vtu.h"
#include "shapes/mass_properties.h"
#include "shapes/outline_cache.h"
#include "io/frame_reader.h"
#include "text/message_text.h"

namespace sphero {
namespace {

Shape body_shape(const World& w, int i) {
  std::vector<Vec2> local = local_skeleton(w, static_cast<std::size_t>(i));
  const SkeletonKind kind = local.size() == 1 ? SkeletonKind::point
                            : w.closed[i]     ? SkeletonKind::polygon
                            : local.size() == 2 ? SkeletonKind::segment
                                                : SkeletonKind::polyline;
  return make_shape(w.shape_name[i], kind, std::move(local), w.radius[i]);
}

Vec2 to_world(const World& w, int i, Vec2 local) {
  return w.position[i] + rotated(local, w.angle[i]);
}

void write_grid(vtkUnstructuredGrid* grid, const std::filesystem::path& file, double time) {
  add_time_value(grid, time);
  write_vtu_atomically(file, grid);
}

}  // namespace

RunOutput::RunOutput(std::filesystem::path directory, const World& w, int arc_resolution,
                     std::vector<std::string> fields, std::optional<double> resume_at)
    : directory_(std::move(directory)), fields_(std::move(fields)) {
  OutlineCache outlines(arc_resolution);
  for (std::size_t i = 0; i < w.size(); ++i) {
    const Shape shape = body_shape(w, static_cast<int>(i));
    outline_.push_back(outlines.outline(shape));
    area_.push_back(outlines.area(shape));
  }
  // The manifest ParaView's Sphero reader opens: what the run holds.
  std::string manifest = fmt::format(
      "# Sphero run: open this file in ParaView (Sphero plugin) to see the run as one time-aware source\n"
      "format = 1\narc_resolution = {}\nfields = ",
      arc_resolution);
  for (std::size_t k = 0; k < fields_.size(); ++k) {
    if (k > 0) manifest += ',';
    manifest += fields_[k];
  }
  write_text_atomically(directory_ / "run.sphero", manifest + "\n");
  if (resume_at) {
    resume(*resume_at, energy_header(w));
    return;
  }
  std::ofstream csv(directory_ / "energy.csv");
  csv << "# energies in J (per unit thickness), time in s, forces in N (per unit thickness), positions in m; "
         "deepest_overlap_so_far: the run's deepest overlap up to that time, over the contact's two sphero-radii\n";
  csv << energy_header(w) << "\n";
  if (!csv) throw std::runtime_error((directory_ / "energy.csv").string() + ": cannot write");
}

std::string RunOutput::energy_header(const World& w) {
  std::string header =
      "time_s,step,kinetic_translational_J,kinetic_rotational_J,elastic_normal_J,elastic_tangential_J,"
      "gravitational_J,mechanical_J,external_work_J,damping_dissipation_J,sliding_dissipation_J,"
      "first_law_residual_J,deepest_overlap_so_far";
  for (std::size_t i = 0; i < w.size(); ++i)
    if (w.is_wall[i]) header += fmt::format(",wall{0}_fx_N,wall{0}_fy_N,wall{0}_x_m,wall{0}_y_m", i);
  return header;
}

void RunOutput::resume(double time, const std::string& header) {
  // Frames up to the checkpoint's time stay; later ones (written after the
  // checkpoint by the interrupted run) are superseded.
  std::string collection = "walls";
  for (const char* name : {"state", "contacts", "particles"})
    if (wants(name)) collection = name;
  const auto pvd = directory_ / (collection + ".pvd");
  if (!std::filesystem::exists(pvd)) throw std::runtime_error(pvd.string() + ": cannot read the frames of the run to continue");
  for (const CollectionEntry& frame : read_collection(pvd))  // checked: every timestep a finite number
    if (frame.time <= time * (1.0 + 1e-12)) times_.push_back(frame.time);
  frame_ = static_cast<int>(times_.size());
  // energy.csv: keep the header and the rows up to the checkpoint.
  const auto energy = directory_ / "energy.csv";
  std::ifstream old(energy);
  std::string kept;
  int line_number = 0;
  for (std::string line; std::getline(old, line);) {
    ++line_number;
    if (!line.empty() && line[0] != '#' && line.rfind("time_s", 0) != 0) {
      const auto row_time = parse_finite(std::string_view(line).substr(0, line.find(',')));
      if (!row_time)
        throw std::runtime_error(fmt::format("{}:{}: a row that does not start with a time; the run's energy.csv is "
                                             "damaged (continue into a new --output folder)",
                                             energy.string(), line_number));
      if (*row_time > time * (1.0 + 1e-12)) break;
    } else if (line.rfind("time_s", 0) == 0 && line != header) {
      throw std::runtime_error(fmt::format("{}:{}: the columns differ from those this run writes (an older Sphero wrote "
                                           "them?); continue into a new --output folder",
                                           energy.string(), line_number));
    }
    kept += line + "\n";
  }
  write_text_atomically(directory_ / "energy.csv", kept);
}

bool RunOutput::wants(const std::string& field) const {
  return std::find(fields_.begin(), fields_.end(), field) != fields_.end();
}

void RunOutput::write_frame(const Engine& engine) {
  const std::string index = fmt::format("{:05d}", frame_);
  if (wants("particles")) write_particles(engine, directory_ / ("particles_" + index + ".vtu"));
  if (wants("contacts")) write_contacts(engine, directory_ / ("contacts_" + index + ".vtu"));
  if (wants("walls")) write_walls(engine, directory_ / ("walls_" + index + ".vtu"));
  if (wants("contact_points")) write_contact_points_vtu(directory_ / ("contact_points_" + index + ".vtu"), engine);
  if (wants("state")) write_state_vtu(directory_ / ("state_" + index + ".vtu"), engine.world(), engine.time());
  times_.push_back(engine.time());
  ++frame_;
  for (const char* name : {"particles", "contacts", "walls", "state", "contact_points"})
    if (wants(name)) write_collection(name);
  append_energy_row(engine);
}

void RunOutput::write_collection(const std::string& name) const {
  std::string xml =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n";
  for (std::size_t k = 0; k < times_.size(); ++k)
    xml += fmt::format("    <DataSet timestep=\"{}\" part=\"0\" file=\"{}_{:05d}.vtu\"/>\n", times_[k], name, k);
  xml += "  </Collection>\n</VTKFile>\n";
  write_text_atomically(directory_ / (name + ".pvd"), xml);
}

void RunOutput::write_particles(const Engine& engine, const std::filesystem::path& file) const {
  const World& w = engine.world();
  const std::size_t n = w.size();
  // Per-particle stress (Love–Weber, docs/MODEL.md §6), compression positive.
  const std::vector<Contact> contacts = engine.contacts();
  const std::vector<Stress> stress = particle_stresses(w, contacts, area_);
  // The walls' share of it, so that analysis can leave wall contacts out.
  std::vector<bool> grain(n);
  for (std::size_t i = 0; i < n; ++i) grain[i] = !w.is_wall[i];
  const std::vector<Stress> between_grains = particle_stresses(w, contacts, area_, grain);
  std::vector<std::vector<int>> partners(n);
  for (const Contact& c : contacts) {
    if (!c.active) continue;
    partners[static_cast<std::size_t>(c.vertex_body)].push_back(c.edge_body);
    partners[static_cast<std::size_t>(c.edge_body)].push_back(c.vertex_body);
  }
  vtkNew<vtkUnstructuredGrid> grid;
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
    if (w.is_wall[i]) continue;
    std::vector<vtkIdType> ids;
    for (Vec2 p : outline_[i]) {
      const Vec2 q = to_world(w, static_cast<int>(i), p);
      ids.push_back(points->InsertNextPoint(q.x, q.y, 0.0));
    }
    grid->InsertNextCell(VTK_POLYGON, static_cast<vtkIdType>(ids.size()), ids.data());
    id->InsertNextValue(static_cast<int>(i));
    material->InsertNextValue(w.material[i]);
    auto& p = partners[i];
    std::sort(p.begin(), p.end());
    coordination->InsertNextValue(static_cast<int>(std::unique(p.begin(), p.end()) - p.begin()));
    shape->InsertNextValue(w.shape_name[i]);
    velocity->InsertNextTuple3(w.velocity[i].x, w.velocity[i].y, 0.0);
    omega->InsertNextValue(w.angular_velocity[i]);
    kinetic->InsertNextValue(0.5 * w.mass[i] * norm2(w.velocity[i]) +
                             0.5 * w.inertia[i] * w.angular_velocity[i] * w.angular_velocity[i]);
    sigma->InsertNextTuple4(stress[i].xx, stress[i].xy, stress[i].yx, stress[i].yy);
    sigma_walls->InsertNextTuple4(stress[i].xx - between_grains[i].xx, stress[i].xy - between_grains[i].xy,
                                  stress[i].yx - between_grains[i].yx, stress[i].yy - between_grains[i].yy);
    area->InsertNextValue(area_[i]);
    centre->InsertNextTuple3(w.position[i].x, w.position[i].y, 0.0);
    radius->InsertNextValue(w.radius[i]);
  }
  grid->SetPoints(points);
  for (vtkAbstractArray* a : std::initializer_list<vtkAbstractArray*>{id, material, coordination, shape, velocity, omega,
                                                                      kinetic, sigma, sigma_walls, radius, area,
                                                                      centre})
    grid->GetCellData()->AddArray(a);
  write_grid(grid, file, engine.time());
}

void RunOutput::write_contacts(const Engine& engine, const std::filesystem::path& file) const {
  const World& w = engine.world();
  // One line per interacting pair of bodies (and periodic image), centre to
  // centre, summing its vertex–edge contacts; force on the first body.
  // Contact points are taken in the first body's frame of images.
  struct Pair {
    int a, b;
    Vec2 b_offset, force, normal_sum, point_sum, direction_sum;
    double normal = 0.0, overlap = 0.0;
    bool sliding = false;
    int contacts = 0;
  };
  std::map<std::tuple<int, int, int, int>, Pair> pairs;
  for (const Contact& c : engine.contacts()) {
    if (!c.active) continue;
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
  vtkNew<vtkUnstructuredGrid> grid;
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
  for (const auto& [key, p] : pairs) {
    // A wall's centre of mass says nothing about where it is touched: draw
    // wall contacts from the grain to the mean contact point.
    // The line is in the first body's frame, which a wall's drawing shifts.
    const Vec2 shift = drawing_shift(w, static_cast<std::size_t>(p.a));
    const Vec2 touch = p.point_sum / static_cast<double>(p.contacts) + shift;
    const Vec2 xa = w.is_wall[p.a] ? touch : w.position[p.a] + shift;
    const Vec2 xb = w.is_wall[p.b] ? touch : w.position[p.b] + p.b_offset + shift;
    const vtkIdType ids[2] = {points->InsertNextPoint(xa.x, xa.y, 0.0), points->InsertNextPoint(xb.x, xb.y, 0.0)};
    grid->InsertNextCell(VTK_LINE, 2, ids);
    first->InsertNextValue(p.a);
    second->InsertNextValue(p.b);
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
  for (vtkAbstractArray* a : std::initializer_list<vtkAbstractArray*>{first, second, sliding, count, force, magnitude,
                                                                      normal, tangential, overlap, branch,
                                                                      normal_direction})
    grid->GetCellData()->AddArray(a);
  if (rigid)
    for (vtkAbstractArray* a : std::initializer_list<vtkAbstractArray*>{percussion, normal_percussion, tangential_percussion})
      grid->GetCellData()->AddArray(a);
  write_grid(grid, file, engine.time());
}

void RunOutput::write_walls(const Engine& engine, const std::filesystem::path& file) const {
  const World& w = engine.world();
  vtkNew<vtkUnstructuredGrid> grid;
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();  // positions and branch vectors for analysis, not rounded to float
  auto id = named_ints("id", 1);
  auto part = named_ints("part", 1);  // 0 outline, 2 skeleton, 3 contact point
  auto force = named_doubles("force", 3);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!w.is_wall[i]) continue;
    const Vec2 shift = drawing_shift(w, i);
    for (int which : {0, 2}) {
      std::vector<vtkIdType> ids;
      if (which == 0) {
        for (Vec2 p : outline_[i]) {
          const Vec2 q = to_world(w, static_cast<int>(i), p) + shift;
          ids.push_back(points->InsertNextPoint(q.x, q.y, 0.0));
        }
      } else {
        for (int k = w.vertex_begin[i]; k < w.vertex_begin[i] + w.vertex_count[i]; ++k) {
          const Vec2 q = vertex_position(w, static_cast<int>(i), k) + shift;
          ids.push_back(points->InsertNextPoint(q.x, q.y, 0.0));
        }
      }
      grid->InsertNextCell(which == 0 ? VTK_POLYGON : VTK_POLY_LINE, static_cast<vtkIdType>(ids.size()), ids.data());
      id->InsertNextValue(static_cast<int>(i));
      part->InsertNextValue(which);
      force->InsertNextTuple3(w.force[i].x, w.force[i].y, 0.0);
    }
  }
  // Every vertex contact between a grain and a wall, as a vertex cell at its
  // point of application with the force on the wall: what wall stresses
  // are summed from (a grain in a corner touches two faces of one wall).
  for (const Contact& c : engine.contacts()) {
    if (!c.active || w.is_wall[c.vertex_body] == w.is_wall[c.edge_body]) continue;
    const bool wall_has_vertex = w.is_wall[c.vertex_body];
    const std::size_t wall = static_cast<std::size_t>(wall_has_vertex ? c.vertex_body : c.edge_body);
    const Vec2 at = (wall_has_vertex ? c.point : c.point - c.edge_offset) + drawing_shift(w, wall);
    const Vec2 on_wall = wall_has_vertex ? c.force : -c.force;
    const vtkIdType point = points->InsertNextPoint(at.x, at.y, 0.0);
    grid->InsertNextCell(VTK_VERTEX, 1, &point);
    id->InsertNextValue(wall_has_vertex ? c.vertex_body : c.edge_body);
    part->InsertNextValue(3);
    force->InsertNextTuple3(on_wall.x, on_wall.y, 0.0);
  }
  grid->SetPoints(points);
  for (vtkAbstractArray* a : std::initializer_list<vtkAbstractArray*>{id, part, force}) grid->GetCellData()->AddArray(a);
  write_grid(grid, file, engine.time());
}

void RunOutput::append_energy_row(const Engine& engine) {
  const EnergyLedger& l = engine.ledger();
  const World& w = engine.world();
  std::string row = fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}", engine.time(), engine.step_count(),
                                l.kinetic_translational, l.kinetic_rotational, l.elastic_normal, l.elastic_tangential,
                                l.gravitational, l.mechanical(), l.external_work, l.damping_dissipation,
                                l.sliding_dissipation, l.first_law_residual(), engine.deepest_overlap());
  for (std::size_t i = 0; i < w.size(); ++i)
    if (w.is_wall[i])
      row += fmt::format(",{},{},{},{}", w.force[i].x, w.force[i].y, w.position[i].x, w.position[i].y);
  row += "\n";
  // One write of a whole row: a run killed mid-way leaves whole rows.
  std::ofstream csv(directory_ / "energy.csv", std::ios::app);
  csv.write(row.data(), static_cast<std::streamsize>(row.size()));
  csv.flush();
  if (!csv) throw std::runtime_error((directory_ / "energy.csv").string() + ": cannot append (disk full?)");
}

}  // namespace sphero
