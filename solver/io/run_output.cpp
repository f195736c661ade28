#include "io/run_output.h"

#include "io/field_arrays.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "io/atomic_file.h"
#include "io/collection_file.h"
#include "io/frame_reader.h"
#include "io/run_manifest.h"
#include "io/wall_labels.h"
#include "text/message_text.h"

namespace sphero {

std::vector<std::string> in_frame_order(const std::vector<std::string>& fields);

namespace {

// Whether wall i is pushed by an imposed force: a pressure plate, or a
// packing's plate from before plates kept their pressure.
bool loaded(const World& w, std::size_t i) {
  const BodyConstraint& c = w.constraint[i];
  return c.inward != Vec2{} || (!c.holds_all() && c.imposed_force != Vec2{});
}

// The imposed force on wall i's free translations, as the engine applies it.
Vec2 load_on(const World& w, std::size_t i) {
  const BodyConstraint& c = w.constraint[i];
  return {c.held[dof_x] ? 0.0 : c.imposed_force.x, c.held[dof_y] ? 0.0 : c.imposed_force.y};
}

// The force the grains exert on wall i. The soft model's total force holds
// the wall's own loads too (EngineCore::apply_loads); the rigid model books
// none on walls.
Vec2 grains_force_on(const Engine& engine, std::size_t i) {
  const World& w = engine.world();
  if (engine.settings().model == Model::rigid) return w.force[i];
  return w.force[i] - body_force(w, i) - load_on(w, i);
}

// Every frame holds the state: frames are found by it.
std::vector<std::string> with_state(std::vector<std::string> fields) {
  if (std::find(fields.begin(), fields.end(), "state") == fields.end()) fields.push_back("state");
  return in_frame_order(fields);
}

}  // namespace

std::vector<std::string> in_frame_order(const std::vector<std::string>& fields) {
  std::vector<std::string> ordered;
  for (const std::string& name : kFrameFields)
    if (std::find(fields.begin(), fields.end(), name) != fields.end()) ordered.push_back(name);
  return ordered;
}

std::string index_field(const std::vector<std::string>& fields) {
  std::string index = "walls";
  for (const char* name : {"outlines", "contacts", "state"})
    if (std::find(fields.begin(), fields.end(), name) != fields.end()) index = name;
  return index;
}

bool add_wall_columns(std::vector<WallColumns>& columns, const WallColumns& wall) {
  for (WallColumns& c : columns)
    if (c.number == wall.number) {
      const bool had = c.loaded || !wall.loaded;
      c.loaded = c.loaded || wall.loaded;
      return had;
    }
  throw std::logic_error(fmt::format("energy.csv: a stage's wall {} the run did not have", wall.number));
}

std::vector<WallColumns> wall_columns(const World& w) {
  std::vector<WallColumns> walls;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (w.is_wall[i]) walls.push_back({w.id[i], wall_label(w, i, w.id[i]), loaded(w, i)});
  std::sort(walls.begin(), walls.end(), [](const auto& a, const auto& b) { return a.number < b.number; });
  return walls;
}

RunOutput::RunOutput(std::filesystem::path directory, const World& w, int arc_resolution,
                     std::vector<std::string> fields, std::optional<double> resume_at, const RunLineage& lineage)
    : RunOutput(std::move(directory), wall_columns(w), w.cell, arc_resolution, std::move(fields), resume_at, lineage) {}

RunOutput::RunOutput(std::filesystem::path directory, std::vector<WallColumns> walls, const PeriodicCell& cell,
                     int arc_resolution, std::vector<std::string> fields, std::optional<double> resume_at,
                     const RunLineage& lineage, bool event_columns)
    : directory_(std::move(directory)),
      fields_(with_state(std::move(fields))),
      walls_(std::move(walls)),
      event_columns_(event_columns),
      arc_resolution_(arc_resolution),
      frame_fields_(fields_) {
  continues_ = resume_at && holds_a_run();  // before anything is written: it may refuse the folder
  // Rows keep their numbers: a continued run appends to its table.
  if (continues_ && std::filesystem::exists(directory_ / kShapeTableFile))
    shapes_ = read_shape_table(directory_ / kShapeTableFile);
  shapes_written_ = shapes_.size();
  // The manifest ParaView's Sphero reader opens: what the run holds.
  write_text_atomically(directory_ / "run.sphero", run_manifest_text({kRunManifestFormat, arc_resolution, fields_, cell,
                                                                      kShapeTableFile, lineage}));
  if (continues_) {
    resume(*resume_at, energy_header());
    return;
  }
  std::ofstream csv(directory_ / "energy.csv");
  csv << "# energies in J (per unit thickness), time in s, forces in N (per unit thickness), positions in m; "
         "deepest_overlap_so_far: the run's deepest overlap up to that time, over the contact's two sphero-radii; "
         "events_flown_body_steps, time_stepped_body_steps (stepping = events): the grains' steps since the run "
         "began flown by events and time-stepped; "
         "WALL_fx_N, WALL_fy_N: the force the grains exert on the wall; WALL_load_fx_N, WALL_load_fy_N: the load "
         "imposed on a pressure plate\n";
  csv << energy_header() << "\n";
  if (!csv) throw std::runtime_error((directory_ / "energy.csv").string() + ": cannot write");
}

std::string RunOutput::energy_header() const {
  std::string header =
      "time_s,step,kinetic_translational_J,kinetic_rotational_J,elastic_normal_J,elastic_tangential_J,"
      "gravitational_J,mechanical_J,external_work_J,damping_dissipation_J,sliding_dissipation_J,"
      "first_law_residual_J,deepest_overlap_so_far";
  if (event_columns_) header += ",events_flown_body_steps,time_stepped_body_steps";
  for (const WallColumns& wall : walls_) {
    header += fmt::format(",{0}_fx_N,{0}_fy_N,{0}_x_m,{0}_y_m", wall.label);
    if (wall.loaded) header += fmt::format(",{0}_load_fx_N,{0}_load_fy_N", wall.label);
  }
  return header;
}

std::filesystem::path RunOutput::frames_collection() const { return directory_ / (index_field(fields_) + ".pvd"); }

bool RunOutput::holds_a_run() const {
  const auto pvd = frames_collection(), energy = directory_ / "energy.csv";
  const bool frames = std::filesystem::exists(pvd), log = std::filesystem::exists(energy);
  const auto part_only = [](const std::filesystem::path& missing, const char* beside) {
    return std::runtime_error(
        fmt::format("{}: missing, beside the {} of the run to continue; continue in the run's own "
                    "folder, or into a new --output folder",
                    missing.string(), beside));
  };
  if (frames && !log) throw part_only(energy, "frames");
  if (log && !frames) throw part_only(pvd, "energy.csv");
  return frames;
}

void RunOutput::resume(double time, const std::string& header) {
  // Frames up to the checkpoint's time stay; later ones (written after the
  // checkpoint by the interrupted run) are superseded.
  const std::vector<CollectionEntry> frames = read_collection(frames_collection());  // every timestep finite
  if (!frames.empty()) first_number_ = frame_number(frames.front());
  for (const CollectionEntry& frame : frames)
    if (frame.time <= time * (1.0 + 1e-12)) {
      times_.push_back(frame.time);
      extensions_.push_back(frame_extension(frame));
    }
  frame_ = static_cast<int>(times_.size());
  // Which kept frames hold each field: those its collection names.
  held_.assign(times_.size(), {});
  // (Or whose file is there: a run killed between rewriting two
  // collections has listed its last frame in only some of them.)
  for (const std::string& name : fields_) {
    std::vector<std::string> files;
    if (std::filesystem::exists(directory_ / (name + ".pvd")))
      for (const CollectionEntry& entry : read_collection(directory_ / (name + ".pvd"))) files.push_back(entry.file);
    for (std::size_t k = 0; k < times_.size(); ++k)
      if (const std::string file = frame_stem(name, first_number_ + static_cast<int>(k)) + extensions_[k];
          std::find(files.begin(), files.end(), file) != files.end() || std::filesystem::exists(directory_ / file))
        held_[k].push_back(name);
  }
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
        throw std::runtime_error(
            fmt::format("{}:{}: a row that does not start with a time; the run's energy.csv is "
                        "damaged (continue into a new --output folder)",
                        energy.string(), line_number));
      if (*row_time > time * (1.0 + 1e-12)) break;
    } else if (line.rfind("time_s", 0) == 0 && line != header) {
      throw std::runtime_error(
          fmt::format("{}:{}: the columns differ from those this run writes (an older Sphero wrote "
                      "them?); continue into a new --output folder",
                      energy.string(), line_number));
    }
    kept += line + "\n";
  }
  write_text_atomically(directory_ / "energy.csv", kept);
}

void RunOutput::number_shapes_from(const std::filesystem::path& parent) {
  if (continues_ || frame_ > 0 || !std::filesystem::exists(parent / kShapeTableFile)) return;
  try {
    shapes_ = read_shape_table(parent / kShapeTableFile);
  } catch (const std::runtime_error&) {
    return;  // the numbers only: the frames name this run's own table either way
  }
}

void RunOutput::set_frame_fields(std::vector<std::string> fields) {
  for (const std::string& f : file_fields(fields))
    if (!wants(f))
      throw std::logic_error(fmt::format("frames of field {}, which the run's output was not opened for", f));
  frame_fields_ = std::move(fields);
}

bool RunOutput::wants(const std::string& field) const {
  return std::find(fields_.begin(), fields_.end(), field) != fields_.end();
}

void RunOutput::write_frame(const Engine& engine) { write_frame(engine, engine.ledger()); }

void RunOutput::write_frame(const Engine& engine, const EnergyLedger& ledger) {
  // Drawn anew when a stage or Python has added or removed bodies (shapes
  // the drawing may lack, bodies at other indices).
  const std::pair<std::size_t, int> bodies{engine.world().size(), engine.world().next_id};
  if (!grids_ || grids_bodies_ != bodies) {
    grids_.emplace(engine.world(), arc_resolution_, &shapes_, single_precision_);
    grids_bodies_ = bodies;
  }
  // Before any frame names them.
  if (shapes_.size() != shapes_written_ || !std::filesystem::exists(directory_ / kShapeTableFile)) {
    write_shape_table(directory_ / kShapeTableFile, shapes_);
    shapes_written_ = shapes_.size();
  }
  grids_->write(engine, FramePiece{}, frame_fields_, directory_, next_frame_number());
  list_frame(".vtu", energy_row(engine, ledger, engine.deepest_overlap()));
}

void RunOutput::add_frame_of_pieces(const std::vector<PieceLayout>& layouts, int pieces, const EnergyRow& row) {
  for (const PieceLayout& layout : layouts) {
    std::vector<std::string> names;
    const int number = next_frame_number();
    for (int k = 0; k < pieces; ++k) names.push_back(FramePiece{k, pieces, {}, {}}.file_name(layout.field, number));
    write_pvtu_atomically(directory_ / (frame_stem(layout.field, number) + ".pvtu"), layout.cell_arrays, names);
  }
  list_frame(".pvtu", row);
}

void RunOutput::list_frame(const std::string& extension, const EnergyRow& row) {
  times_.push_back(row.time);
  extensions_.push_back(extension);
  held_.push_back(frame_fields_);
  ++frame_;
  for (const std::string& name : kFrameFields)
    if (wants(name)) write_collection(name);
  append_energy_row(row);
}

void RunOutput::write_collection(const std::string& name) const {
  std::vector<CollectionEntry> entries;
  for (std::size_t k = 0; k < times_.size(); ++k)
    if (std::find(held_[k].begin(), held_[k].end(), name) != held_[k].end())
      entries.push_back({times_[k], frame_stem(name, first_number_ + static_cast<int>(k)) + extensions_[k]});
  write_collection_atomically(directory_ / (name + ".pvd"), entries);
}

EnergyRow energy_row(const Engine& engine, const EnergyLedger& ledger, double deepest_overlap) {
  EnergyRow row{engine.time(), engine.step_count(), ledger, deepest_overlap, engine.body_steps(), {}};
  const World& w = engine.world();
  for (std::size_t i = 0; i < w.size(); ++i)  // in the order of their ids, which rise with the index
    if (w.is_wall[i]) row.walls.push_back({w.id[i], grains_force_on(engine, i), w.position[i], load_on(w, i)});
  return row;
}

void RunOutput::append_energy_row(const EnergyRow& r) {
  const EnergyLedger& l = r.ledger;
  std::string row = fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}", r.time, r.step, l.kinetic_translational,
                                l.kinetic_rotational, l.elastic_normal, l.elastic_tangential, l.gravitational,
                                l.mechanical(), l.external_work, l.damping_dissipation, l.sliding_dissipation,
                                l.first_law_residual(), r.deepest_overlap);
  if (event_columns_) row += fmt::format(",{},{}", r.body_steps.flown, r.body_steps.time_stepped);
  std::size_t next = 0;  // both in the order of the walls' numbers
  for (const WallColumns& columns : walls_) {
    if (next == r.walls.size() || r.walls[next].number != columns.number) {
      row += columns.loaded ? ",,,,,," : ",,,,";  // a wall a stage removed
      continue;
    }
    const EnergyRow::Wall& wall = r.walls[next++];
    row += fmt::format(",{},{},{},{}", wall.force.x, wall.force.y, wall.position.x, wall.position.y);
    if (columns.loaded) row += fmt::format(",{},{}", wall.load.x, wall.load.y);
  }
  if (next != r.walls.size())
    throw std::logic_error(fmt::format("energy.csv: a row with wall {} the header lacks", r.walls[next].number));
  row += "\n";
  // One write of a whole row: a run killed mid-way leaves whole rows.
  std::ofstream csv(directory_ / "energy.csv", std::ios::app);
  csv.write(row.data(), static_cast<std::streamsize>(row.size()));
  csv.flush();
  if (!csv) throw std::runtime_error((directory_ / "energy.csv").string() + ": cannot append (disk full?)");
}

}  // namespace sphero
