#include "io/frame_reader.h"

#include <fmt/format.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include "io/contact_points_vtu.h"
#include "io/field_arrays.h"
#include "io/frame_piece.h"
#include "io/grid_check.h"
#include "io/packing_frame.h"
#include "io/pvtu_file.h"
#include "io/run_manifest.h"
#include "io/shape_table.h"
#include "io/state_vtu.h"
#include "io/vtu_file.h"
#include "text/csv_row.h"
#include "text/message_text.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace sphero {
namespace {

// The frames a run's particles.pvd lists; throws std::runtime_error naming
// the directory when it holds no run, or the file when it lists no frame.
std::vector<CollectionEntry> run_frames(const std::filesystem::path& run) {
  const std::filesystem::path index = run / frame_index_collection(run);
  if (!std::filesystem::exists(index))
    throw std::runtime_error(
        fmt::format("{}: no {}; is it the output directory of sphero run?", run.string(), index.filename().string()));
  std::vector<CollectionEntry> frames = read_collection(index);
  if (frames.empty())
    throw std::runtime_error(fmt::format("{}: lists no frames (the run wrote none yet?)", index.string()));
  return frames;
}

}  // namespace

int frame_count(const std::filesystem::path& run) { return static_cast<int>(run_frames(run).size()); }

int run_arc_resolution(const std::filesystem::path& run) {
  if (!std::filesystem::exists(run / "run.sphero")) return kPackingArcResolution;
  return read_run_manifest(run / "run.sphero").arc_resolution;
}

std::string frame_index_collection(const std::filesystem::path& run) {
  // Runs before light frames (manifest format 4) drew outlines in every frame.
  const bool light = std::filesystem::exists(run / "run.sphero") && read_run_manifest(run / "run.sphero").format >= 4;
  return light ? "state.pvd" : "particles.pvd";
}

std::vector<CollectionEntry> read_collection(const std::filesystem::path& pvd) {
  std::ifstream in(pvd);
  if (!in) throw std::runtime_error(pvd.string() + ": cannot read");
  std::vector<CollectionEntry> entries;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const auto t = line.find("timestep=\""), f = line.find("file=\"");
    if (line.find("<DataSet") == std::string::npos) continue;
    const auto t_end = t == std::string::npos ? t : line.find('"', t + 10);
    const auto f_end = f == std::string::npos ? f : line.find('"', f + 6);
    const auto time = t_end == std::string::npos ? std::nullopt : parse_finite(line.substr(t + 10, t_end - t - 10));
    if (!time || f_end == std::string::npos || f_end == f + 6)
      throw std::runtime_error(
          fmt::format("{}:{}: a DataSet without a finite timestep=\"...\" and a file=\"...\"; the "
                      "collection is damaged",
                      pvd.string(), number));
    entries.push_back({*time, line.substr(f + 6, f_end - f - 6)});
  }
  return entries;
}

std::size_t EnergyTable::column(const std::string& name) const {
  const auto it = std::find(columns.begin(), columns.end(), name);
  if (it == columns.end())
    throw std::runtime_error("energy.csv has no column " + name + " (an older sphero wrote it?)");
  return static_cast<std::size_t>(it - columns.begin());
}

EnergyTable read_energy_table(const std::filesystem::path& run) {
  EnergyTable table;
  std::ifstream in(run / "energy.csv");
  table.present = static_cast<bool>(in);
  const std::string file = (run / "energy.csv").string();
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const auto fields = split_csv_row(line);
    if (!fields)
      throw std::runtime_error(fmt::format("{}:{}: a quoted field left open; the file is damaged", file, number));
    const std::vector<std::string>& words = *fields;
    if (line.rfind("time_s", 0) == 0) {
      table.columns = words;
      continue;
    }
    if (table.columns.empty())
      throw std::runtime_error(fmt::format("{}:{}: a row before the header line (time_s,...)", file, number));
    if (words.size() != table.columns.size())
      throw std::runtime_error(fmt::format(
          "{}:{}: {} values for {} columns; the file is damaged", file, number, words.size(), table.columns.size()));
    std::vector<double> values;
    for (const auto& w : words) {
      if (w.empty()) {  // the columns of a wall a stage removed
        values.push_back(NAN);
        continue;
      }
      const auto value = parse_finite(w);
      if (!value)
        throw std::runtime_error(fmt::format(
            "{}:{}: '{}' is not a finite number", file, number, w.size() > 40 ? w.substr(0, 40) + "..." : w));
      values.push_back(*value);
    }
    table.rows.push_back(std::move(values));
  }
  return table;
}

void refuse_missing_arrays(const FrameData& data) {
  if (data.missing_arrays.empty()) return;
  std::string names;
  for (const std::string& name : data.missing_arrays) names += (names.empty() ? "" : ", ") + name;
  throw std::runtime_error(
      fmt::format("the run chose the arrays it wrote and left out {}, which the analysis reads; write them "
                  "(fields = state,contacts,walls, or name them after state: and contacts:) to analyse the run; "
                  "ParaView shows it as it is",
                  names));
}

FrameData read_frame(const std::filesystem::path& run, int frame) {
  const std::vector<CollectionEntry> frames = run_frames(run);
  if (frame < 0 || static_cast<std::size_t>(frame) >= frames.size())
    throw std::runtime_error(
        fmt::format("{}: frame {} does not exist; the run has frames 0 to {}", run.string(), frame, frames.size() - 1));
  const CollectionEntry& entry = frames[static_cast<std::size_t>(frame)];
  const std::string index = fmt::format("{:05d}", frame_number(entry));
  const auto file = [&](const char* field) { return run / frame_file(entry, field); };
  const auto read_if_there = [&](const char* field) {
    return std::filesystem::exists(file(field)) ? read_vtu(file(field)) : nullptr;
  };
  const vtkSmartPointer<vtkUnstructuredGrid> state = read_if_there("state");
  // The drawn outlines are needed only where the state lacks the analysis
  // (runs before light frames, whose files were particles_NNNNN).
  vtkSmartPointer<vtkUnstructuredGrid> particles;
  if (!state || !holds_analysis(state))
    particles = std::filesystem::exists(file("outlines")) ? read_vtu(file("outlines")) : read_vtu(file("particles"));
  const auto contacts = read_if_there("contacts"), walls = read_if_there("walls");
  const auto points_file = file("contact_points");
  try {
    const std::shared_ptr<const ShapeTable> shapes = state ? shape_table_of_state(state, file("state")) : nullptr;
    FrameData data = frame_from_grids(particles, contacts, walls, state, shapes.get(), run_arc_resolution(run));
    if (std::filesystem::exists(points_file)) data.vertex_contacts = vertex_contacts_from_grid(read_vtu(points_file));
    refuse_missing_arrays(data);
    return data;
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: frame {}: {}", run.string(), index, e.what()));
  }
}

std::string frame_extension(const std::filesystem::path& run, int frame) {
  const std::vector<CollectionEntry> frames = read_collection(run / frame_index_collection(run));
  if (frame < 0 || static_cast<std::size_t>(frame) >= frames.size()) return ".vtu";
  return frame_extension(frames[static_cast<std::size_t>(frame)]);
}

int frame_number(const CollectionEntry& frame) {
  const std::string stem = std::filesystem::path(frame.file).stem().string();
  const std::size_t underscore = stem.rfind('_');
  if (underscore == std::string::npos || underscore + 1 == stem.size()) return 0;
  const std::string digits = stem.substr(underscore + 1);
  if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  return std::stoi(digits);
}

std::string frame_file(const CollectionEntry& frame, const std::string& field) {
  return frame_stem(field, frame_number(frame)) + frame_extension(frame);
}

std::string frame_extension(const CollectionEntry& frame) {
  return std::filesystem::path(frame.file).extension() == ".pvtu" ? ".pvtu" : ".vtu";
}

void add_derived_contact_arrays(vtkUnstructuredGrid* contacts) {
  vtkCellData* cells = contacts->GetCellData();
  vtkDataArray* force = cells->GetArray("force_on_a");
  const vtkIdType n = contacts->GetNumberOfCells();
  if (force != nullptr && force->GetNumberOfComponents() == 3 && cells->GetArray("force_magnitude") == nullptr) {
    auto magnitude = named_doubles("force_magnitude", 1);
    magnitude->SetNumberOfTuples(n);
    for (vtkIdType c = 0; c < n; ++c)
      magnitude->SetValue(c, norm(Vec2{force->GetComponent(c, 0), force->GetComponent(c, 1)}));
    cells->AddArray(magnitude);
  }
  if (cells->GetArray("branch_vector") == nullptr) {
    auto branch = named_doubles("branch_vector", 3);
    branch->SetNumberOfTuples(n);
    for (vtkIdType c = 0; c < n; ++c) {
      const auto ends = cell_points(contacts, c);
      const Vec2 b = ends.size() == 2 ? ends.back() - ends.front() : Vec2{};
      branch->SetTuple3(c, b.x, b.y, 0.0);
    }
    cells->AddArray(branch);
  }
}

bool holds_analysis(vtkUnstructuredGrid* state) {
  return state_format(state) == 2 || state->GetCellData()->GetAbstractArray("stress_compression_positive") != nullptr;
}

namespace {

double frame_time(vtkUnstructuredGrid* grid, const char* source) {
  auto* time = grid->GetFieldData()->GetArray("TimeValue");
  if (time == nullptr) return 0.0;
  if (time->GetNumberOfTuples() < 1 || time->GetNumberOfComponents() < 1 || !std::isfinite(time->GetComponent(0, 0)))
    throw std::runtime_error(fmt::format("{}: TimeValue holds no finite time; the file is damaged", source));
  return time->GetComponent(0, 0);
}

// A frame's particles from its drawn outlines (runs before light frames),
// their exact shapes from its state frame where there is one.
void add_drawn_particles(vtkUnstructuredGrid* particles, vtkUnstructuredGrid* state, const ShapeTable* shapes,
                         FrameData& data) {
  data.time = frame_time(particles, "the particles");
  const std::string p_source = "particles";
  const auto has = [&](const char* name) { return particles->GetCellData()->GetAbstractArray(name) != nullptr; };
  if (!has("id") || !has("centre_of_mass") || !has("area") || !has("stress_compression_positive") ||
      !has("coordination_number"))
    throw std::runtime_error(
        "the particles lack the arrays id, centre_of_mass, area, stress_compression_positive or "
        "coordination_number (an older sphero wrote them?); run the scene again");
  check_cell_sizes(particles, 3, kMaxGridPoints, p_source, "outline");
  vtkDataArray *id = cell_array(particles, "id", 1, true, p_source),
               *centre = cell_array(particles, "centre_of_mass", 3, true, p_source),
               *area = cell_array(particles, "area", 1, true, p_source),
               *stress = cell_array(particles, "stress_compression_positive", 4, true, p_source),
               *coordination = cell_array(particles, "coordination_number", 1, true, p_source),
               *kinetic = cell_array(particles, "kinetic_energy", 1, false, p_source),
               *wall_stress = cell_array(particles, "stress_from_walls", 4, false, p_source),
               *radius = cell_array(particles, "sphero_radius", 1, false, p_source),
               *velocity = cell_array(particles, "velocity", 3, false, p_source),
               *angular_velocity = cell_array(particles, "angular_velocity", 1, false, p_source),
               *material = cell_array(particles, "material", 1, false, p_source);
  auto* shape = vtkStringArray::SafeDownCast(particles->GetCellData()->GetAbstractArray("shape"));
  if (shape != nullptr && shape->GetNumberOfValues() != particles->GetNumberOfCells())
    throw std::runtime_error("the particles' array 'shape' does not hold one name per particle; the file is damaged");
  for (vtkIdType c = 0; c < particles->GetNumberOfCells(); ++c) {
    data.outlines.push_back(cell_points(particles, c));
    ParticleRecord p;
    p.id = cell_int(id, c);
    p.centre = {centre->GetComponent(c, 0), centre->GetComponent(c, 1)};
    p.area = area->GetTuple1(c);
    p.radius = radius ? radius->GetTuple1(c) : 0.0;
    for (int k = 0; k < 4; ++k) {
      p.stress[static_cast<std::size_t>(k)] = stress->GetComponent(c, k);
      if (wall_stress) p.wall_stress[static_cast<std::size_t>(k)] = wall_stress->GetComponent(c, k);
    }
    p.coordination = cell_int(coordination, c);
    p.kinetic_energy = kinetic ? kinetic->GetTuple1(c) : 0.0;
    if (velocity) p.velocity = {velocity->GetComponent(c, 0), velocity->GetComponent(c, 1)};
    if (angular_velocity) p.angular_velocity = angular_velocity->GetTuple1(c);
    if (shape != nullptr) p.shape = shape->GetValue(c);
    if (material) p.material = cell_int(material, c);
    data.particles.push_back(p);
  }
  if (state) {
    data.states = state_records_from_grid(state, "the state frame", shapes);
    std::vector<int> ids;
    for (const StateRecord& r : data.states) ids.push_back(r.id);
    add_exact_shapes(data, bodies_of_states(data.states, "the state frame"), ids);
  }
}

void add_contacts(vtkUnstructuredGrid* contacts, FrameData& data) {
  if (contacts) {
    const std::string source = "contacts";
    check_cell_sizes(contacts, 2, 2, source, "contact line");
    vtkDataArray* magnitude = cell_array(contacts, "force_magnitude", 1, false, source);
    vtkDataArray* sliding = cell_array(contacts, "sliding", 1, false, source);
    vtkDataArray *body_a = cell_array(contacts, "body_a", 1, false, source),
                 *body_b = cell_array(contacts, "body_b", 1, false, source);
    vtkDataArray* normal = cell_array(contacts, "contact_normal", 3, false, source);
    vtkDataArray* force = cell_array(contacts, "force_on_a", 3, false, source);
    vtkDataArray* normal_force = cell_array(contacts, "normal_force", 1, false, source);
    vtkDataArray* tangential_force = cell_array(contacts, "tangential_force", 1, false, source);
    vtkDataArray* overlap = cell_array(contacts, "overlap", 1, false, source);
    vtkDataArray* count = cell_array(contacts, "vertex_contacts", 1, false, source);
    for (vtkIdType c = 0; c < contacts->GetNumberOfCells(); ++c) {
      const auto ends = cell_points(contacts, c);
      data.pairs.push_back(
          {body_a ? cell_int(body_a, c) : -1, body_b ? cell_int(body_b, c) : -1, ends.back() - ends.front(),
           normal ? Vec2{normal->GetComponent(c, 0), normal->GetComponent(c, 1)} : Vec2{},
           force ? Vec2{force->GetComponent(c, 0), force->GetComponent(c, 1)} : Vec2{},
           normal_force ? normal_force->GetTuple1(c) : 0.0, tangential_force ? tangential_force->GetTuple1(c) : 0.0,
           overlap ? overlap->GetTuple1(c) : 0.0, count ? cell_int(count, c) : 0});
      const Vec2 force_on_a = data.pairs.back().force;
      data.forces.push_back({ends.front(), ends.back(), magnitude ? magnitude->GetTuple1(c) : norm(force_on_a),
                             sliding ? sliding->GetTuple1(c) != 0.0 : false});
    }
  }
}

void add_walls(vtkUnstructuredGrid* walls, FrameData& data) {
  if (walls) {
    const std::string source = "walls";
    check_cell_sizes(walls, 1, kMaxGridPoints, source, "wall cell");
    vtkDataArray* part = cell_array(walls, "part", 1, false, source);
    vtkDataArray* wall_id = cell_array(walls, "id", 1, false, source);
    vtkDataArray* force = cell_array(walls, "force", 3, false, source);
    vtkDataArray* grain = cell_array(walls, "grain", 1, false, source);
    std::vector<WallContact> touches;
    std::vector<int> touched;
    for (vtkIdType c = 0; c < walls->GetNumberOfCells(); ++c) {
      const int kind = part ? cell_int(part, c) : 2;
      const int wall = wall_id ? cell_int(wall_id, c) : -1;
      const Vec2 f = force ? Vec2{force->GetComponent(c, 0), force->GetComponent(c, 1)} : Vec2{};
      if (kind == 0) data.wall_outlines.push_back(cell_points(walls, c));
      if (kind == 2) data.walls.push_back({wall, cell_points(walls, c), f, {}});
      if (kind == 3) {
        touches.push_back({cell_points(walls, c).front(), f, grain ? cell_int(grain, c) : -1});
        touched.push_back(wall);
      }
    }
    for (std::size_t k = 0; k < touches.size(); ++k)
      for (WallRecord& w : data.walls)
        if (w.id == touched[k]) w.contacts.push_back(touches[k]);
  }
}

}  // namespace

FrameData frame_from_grids(vtkUnstructuredGrid* particles, vtkUnstructuredGrid* contacts, vtkUnstructuredGrid* walls,
                           vtkUnstructuredGrid* state, const ShapeTable* shapes, int arc_resolution) {
  FrameData data;
  if (particles) {
    add_drawn_particles(particles, state, shapes, data);
  } else {
    if (!state || !holds_analysis(state))
      throw std::runtime_error("no particles, and no state frame that holds its grains' stresses");
    data.states = state_records_from_grid(state, "the state frame", shapes);
    add_particles_from_states(data, arc_resolution);
    data.time = frame_time(state, "the state frame");
  }
  add_contacts(contacts, data);
  add_walls(walls, data);
  // Runs of light frames only: older runs' files read as they always did.
  // A contacts grid of no cells (none written, or none to write) lacks
  // nothing the analysis would read.
  const bool light = state != nullptr && state_format(state) == 2;
  for (const auto& [field, grid] : {std::pair{"state", state}, std::pair{"contacts", contacts}})
    if (light && grid != nullptr && grid->GetNumberOfCells() > 0)
      for (const std::string& name : missing_analysed_arrays(grid, field))
        data.missing_arrays.push_back(std::string(field) + ":" + name);
  return data;
}

namespace {

// Adds `fields` (values in the order of `ids`) to the frame's file `file`,
// whole or in pieces; a cell whose id is not among them (a wall in a state
// frame) gets NaN.
void add_fields_to(const std::filesystem::path& file, const std::vector<int>& ids,
                   const std::vector<ParticleField>& fields) {
  std::unordered_map<int, std::size_t> value_of;
  for (std::size_t k = 0; k < ids.size(); ++k) value_of.emplace(ids[k], k);
  const std::vector<std::filesystem::path> pieces =
      file.extension() == ".pvtu" ? pvtu_pieces(file) : std::vector<std::filesystem::path>{file};
  std::vector<vtkSmartPointer<vtkUnstructuredGrid>> grids;
  for (const auto& piece : pieces) {
    vtkSmartPointer<vtkUnstructuredGrid> grid = read_vtu(piece);
    vtkDataArray* id = cell_array(grid, "id", 1, true, piece.string());
    for (const ParticleField& f : fields) {
      auto array = named_doubles(f.name.c_str(), f.components);
      array->SetNumberOfTuples(grid->GetNumberOfCells());
      for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
        const auto found = value_of.find(cell_int(id, c));
        for (int j = 0; j < f.components; ++j)
          array->SetComponent(
              c, j,
              found == value_of.end()
                  ? NAN
                  : f.values[found->second * static_cast<std::size_t>(f.components) + static_cast<std::size_t>(j)]);
      }
      grid->GetCellData()->RemoveArray(f.name.c_str());
      grid->GetCellData()->AddArray(array);
    }
    grids.push_back(grid);
  }
  for (std::size_t k = 0; k < pieces.size(); ++k) write_vtu_atomically(pieces[k], grids[k]);
  if (file.extension() == ".pvtu") {
    const std::vector<ArrayLayout> layout = layout_of(grids.front());
    std::vector<std::string> names;
    for (const auto& piece : pieces) names.push_back(piece.lexically_relative(file.parent_path()).string());
    write_pvtu_atomically(file, layout, names);
  }
}

}  // namespace

void add_particle_fields(const std::filesystem::path& run, int frame, const std::vector<ParticleField>& fields) {
  const std::vector<CollectionEntry> frames = run_frames(run);
  if (frame < 0 || static_cast<std::size_t>(frame) >= frames.size())
    throw std::runtime_error(fmt::format("{}: frame {} does not exist", run.string(), frame));
  const CollectionEntry& entry = frames[static_cast<std::size_t>(frame)];
  // The fields' values come in the order of read_frame's particles; each
  // file takes its cells' values by id.
  std::vector<int> ids;
  for (const ParticleRecord& p : read_frame(run, frame).particles) ids.push_back(p.id);
  for (const ParticleField& f : fields)
    if (f.components < 1 || f.values.size() != ids.size() * static_cast<std::size_t>(f.components))
      throw std::runtime_error(fmt::format("{}: frame {}: field {} has {} values for {} particles of {} components",
                                           run.string(), frame, f.name, f.values.size(), ids.size(), f.components));
  // The drawn outlines, for ParaView without the plugin; the state, which
  // the plugin draws the particles from.
  bool added = false;
  for (const char* field : {"outlines", "particles", "state"}) {
    const auto file = run / frame_file(entry, field);
    if (!std::filesystem::exists(file)) continue;
    if (std::string(field) == "state" && !holds_analysis(read_vtu(file))) continue;
    add_fields_to(file, ids, fields);
    added = true;
  }
  if (!added)
    throw std::runtime_error(fmt::format("{}: frame {} has no file to add particle fields to", run.string(), frame));
}

}  // namespace sphero
