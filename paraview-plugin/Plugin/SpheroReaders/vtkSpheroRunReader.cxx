#include "vtkSpheroRunReader.h"

#include "SpheroDisplay.h"

#include "vtkCellData.h"
#include "vtkCompositeDataSet.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkMultiBlockDataSet.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPoints.h"
#include "vtkSmartPointer.h"
#include "vtkStreamingDemandDrivenPipeline.h"
#include "vtkStringArray.h"
#include "vtkTable.h"
#include "vtkUnstructuredGrid.h"

#include "io/field_arrays.h"
#include "io/frame_grids.h"
#include "io/frame_reader.h"
#include "io/grid_check.h"
#include "io/run_manifest.h"
#include "io/state_vtu.h"
#include "io/vtu_file.h"
#include "shapes/outline_cache.h"
#include "text/message_text.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace {
// "particles_00012.vtu" -> the frame's suffix "00012.vtu" (".pvtu" for a run on ranks).
std::string frame_suffix(const std::string& file) { return file.substr(file.find('_') + 1); }
}  // namespace

struct vtkSpheroRunReader::Run {
  std::filesystem::path directory;
  int arc_resolution = 24;
  sphero::PeriodicCell cell;
  std::vector<double> times;
  std::vector<std::string> suffixes;  // per frame, "NNNNN.vtu" or "NNNNN.pvtu"
  std::vector<std::string> energy_columns;
  std::map<double, std::vector<double>> energy_rows;  // by time
};

vtkStandardNewMacro(vtkSpheroRunReader);

vtkSpheroRunReader::vtkSpheroRunReader() {
  this->SetNumberOfInputPorts(0);
  this->SetNumberOfOutputPorts(2);  // the frame, and the energy ledger over time
  sphero::plugin::warn_without_display();
}

vtkSpheroRunReader::~vtkSpheroRunReader() = default;

int vtkSpheroRunReader::FillOutputPortInformation(int port, vtkInformation* info) {
  if (port == 1) {
    info->Set(vtkDataObject::DATA_TYPE_NAME(), "vtkTable");
    return 1;
  }
  return this->Superclass::FillOutputPortInformation(port, info);
}

int vtkSpheroRunReader::CanReadFile(const char* fileName) {
  std::ifstream in(fileName ? fileName : "");
  std::string first;
  std::getline(in, first);
  return first.rfind("# Sphero run", 0) == 0 ? 1 : 0;
}

int vtkSpheroRunReader::RequestInformation(vtkInformation*, vtkInformationVector**,
                                           vtkInformationVector* outputVector) {
  try {
    auto run = std::make_unique<Run>();
    run->directory = std::filesystem::path(this->FileName).parent_path();
    const sphero::RunManifest m = sphero::read_run_manifest(this->FileName);
    run->arc_resolution = m.arc_resolution;
    run->cell = m.cell;
    const auto pvd = run->directory / sphero::frame_index_collection(run->directory);
    if (!std::filesystem::exists(pvd)) {
      throw std::runtime_error(pvd.string() + ": missing; the run wrote no frames");
    }
    for (const sphero::CollectionEntry& entry : sphero::read_collection(pvd)) {
      run->times.push_back(entry.time);
      run->suffixes.push_back(frame_suffix(entry.file));
    }
    if (run->times.empty()) {
      throw std::runtime_error(pvd.string() + ": no frames");
    }
    sphero::EnergyTable energy = sphero::read_energy_table(run->directory);
    for (auto& row : energy.rows) {
      const double time = row.front();
      run->energy_rows[time] = std::move(row);
    }
    run->energy_columns = std::move(energy.columns);
    vtkInformation* info = outputVector->GetInformationObject(0);
    info->Set(vtkStreamingDemandDrivenPipeline::TIME_STEPS(), run->times.data(), static_cast<int>(run->times.size()));
    const double range[2] = {run->times.front(), run->times.back()};
    info->Set(vtkStreamingDemandDrivenPipeline::TIME_RANGE(), range, 2);
    this->Index = std::move(run);
  } catch (const std::exception& e) {
    vtkErrorMacro(<< e.what());
    return 0;
  }
  return 1;
}

namespace {
// Field data every block carries: the frame's time, its index and the
// energy ledger's row.
void add_frame_fields(vtkFieldData* fields, double time, int frame, const std::vector<std::string>& columns,
                      const std::vector<double>* row) {
  vtkNew<vtkDoubleArray> t;
  t->SetName("TimeValue");
  t->InsertNextValue(time);
  fields->AddArray(t);
  vtkNew<vtkDoubleArray> f;
  f->SetName("frame");
  f->InsertNextValue(frame);
  fields->AddArray(f);
  for (std::size_t k = 1; row && k < columns.size() && k < row->size(); ++k) {
    vtkNew<vtkDoubleArray> a;
    a->SetName(columns[k].c_str());
    a->InsertNextValue((*row)[k]);
    fields->AddArray(a);
  }
}

// Gives every block each cell array another block has, filled with NaN
// (floating point), -1 (integers, Sphero's "none") or "" (names), so that
// the run as opened colours by any array over all its blocks instead of
// ParaView's "(partial)". No two blocks use one name for different things.
void share_cell_arrays(vtkMultiBlockDataSet* output) {
  std::map<std::string, vtkAbstractArray*> named;
  for (unsigned int b = 0; b < output->GetNumberOfBlocks(); ++b) {
    vtkCellData* cells = vtkUnstructuredGrid::SafeDownCast(output->GetBlock(b))->GetCellData();
    for (int k = 0; k < cells->GetNumberOfArrays(); ++k) {
      vtkAbstractArray* a = cells->GetAbstractArray(k);
      named.emplace(a->GetName(), a);
    }
  }
  for (unsigned int b = 0; b < output->GetNumberOfBlocks(); ++b) {
    auto* grid = vtkUnstructuredGrid::SafeDownCast(output->GetBlock(b));
    vtkCellData* cells = grid->GetCellData();
    for (const auto& [name, like] : named) {
      if (cells->GetAbstractArray(name.c_str())) {
        continue;
      }
      auto filler = vtk::TakeSmartPointer(like->NewInstance());
      filler->SetName(name.c_str());
      filler->SetNumberOfComponents(like->GetNumberOfComponents());
      filler->SetNumberOfTuples(grid->GetNumberOfCells());
      if (auto* numbers = vtkDataArray::SafeDownCast(filler)) {
        const int type = numbers->GetDataType();
        numbers->Fill(type == VTK_DOUBLE || type == VTK_FLOAT ? std::nan("") : -1.0);
      } else if (auto* names = vtkStringArray::SafeDownCast(filler)) {
        for (vtkIdType k = 0; k < names->GetNumberOfValues(); ++k) {
          names->SetValue(k, "");
        }
      }
      cells->AddArray(filler);
    }
  }
}

// energy.csv as a table: a column per quantity, a row per frame, in time order.
void fill_ledger_table(vtkTable* table, const std::vector<std::string>& columns,
                       const std::map<double, std::vector<double>>& rows) {
  for (std::size_t k = 0; k < columns.size(); ++k) {
    vtkNew<vtkDoubleArray> column;
    column->SetName(columns[k].c_str());
    for (const auto& [time, row] : rows) {
      column->InsertNextValue(k == 0 ? time : (k < row.size() ? row[k] : std::nan("")));
    }
    table->AddColumn(column);
  }
}

// The particles' outlines regenerated from the state frame's skeletons at
// `resolution`; cell data and field data kept from the written grid.
vtkSmartPointer<vtkUnstructuredGrid> regenerate_outlines(vtkUnstructuredGrid* written,
                                                         const std::filesystem::path& state_file, int resolution) {
  std::vector<int> ids;
  const std::vector<sphero::BodySpec> bodies = sphero::read_state_vtu(state_file, &ids);
  vtkDataArray* id = written->GetCellData()->GetArray("id");
  if (!id) {
    throw std::runtime_error("the particles have no id array");
  }
  std::unordered_map<long, std::size_t> body_of;  // ids have gaps where a stage removed bodies
  for (std::size_t k = 0; k < ids.size(); ++k) {
    body_of.emplace(ids[k], k);
  }
  sphero::OutlineCache outlines(resolution);
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->Allocate(written->GetNumberOfCells());
  for (vtkIdType c = 0; c < written->GetNumberOfCells(); ++c) {
    const auto found = body_of.find(static_cast<long>(id->GetTuple1(c)));
    if (found == body_of.end()) {
      throw std::runtime_error(state_file.string() + ": has no body " + std::to_string(id->GetTuple1(c)));
    }
    const sphero::BodySpec& b = bodies[found->second];
    std::vector<vtkIdType> ids;
    for (const sphero::Vec2 p : outlines.outline(b.shape)) {
      const sphero::Vec2 q = b.position + sphero::rotated(p, b.angle);
      ids.push_back(points->InsertNextPoint(q.x, q.y, 0.0));
    }
    grid->InsertNextCell(VTK_POLYGON, static_cast<vtkIdType>(ids.size()), ids.data());
  }
  grid->SetPoints(points);
  grid->GetCellData()->ShallowCopy(written->GetCellData());
  grid->GetFieldData()->ShallowCopy(written->GetFieldData());
  return grid;
}
}  // namespace

namespace {
// A light run's particles (io/frame_reader.h): drawn from the state frame
// and the run's shape table at `resolution`, with the arrays of a drawn
// outlines file, and any other array of the state (those `sphero analyze
// --add-fields` writes) taken by id.
vtkSmartPointer<vtkUnstructuredGrid> particles_from_state(vtkUnstructuredGrid* state,
                                                          const std::filesystem::path& state_file, int resolution) {
  const auto shapes = sphero::shape_table_of_state(state, state_file);
  const sphero::FrameData data = sphero::frame_from_grids(nullptr, nullptr, nullptr, state, shapes.get(), resolution);
  vtkSmartPointer<vtkUnstructuredGrid> grid = sphero::field_grid("outlines", data);
  std::unordered_map<int, vtkIdType> cell_of;
  vtkDataArray* state_id = sphero::cell_array(state, "id", 1, true, state_file.string());
  for (vtkIdType c = 0; c < state->GetNumberOfCells(); ++c) {
    cell_of.emplace(sphero::cell_int(state_id, c), c);
  }
  vtkCellData* from = state->GetCellData();
  for (int k = 0; k < from->GetNumberOfArrays(); ++k) {
    vtkAbstractArray* a = from->GetAbstractArray(k);
    if (grid->GetCellData()->GetAbstractArray(a->GetName())) {
      continue;
    }
    auto copy = vtk::TakeSmartPointer(a->NewInstance());
    copy->SetName(a->GetName());
    copy->SetNumberOfComponents(a->GetNumberOfComponents());
    copy->SetNumberOfTuples(static_cast<vtkIdType>(data.particles.size()));
    for (std::size_t p = 0; p < data.particles.size(); ++p) {
      const auto found = cell_of.find(data.particles[p].id);
      if (found == cell_of.end()) {
        throw std::runtime_error(state_file.string() + ": its ids are not whole numbers >= 0; the file is damaged");
      }
      copy->SetTuple(static_cast<vtkIdType>(p), found->second, a);
    }
    grid->GetCellData()->AddArray(copy);
  }
  sphero::add_time_value(grid, data.time);
  return grid;
}
}  // namespace

namespace {
void mark_missing_arrays(vtkUnstructuredGrid* grid, const std::string& field) {
  vtkNew<vtkStringArray> missing;
  missing->SetName(sphero::kMissingArraysField);
  for (const std::string& name : sphero::missing_analysed_arrays(grid, field)) {
    missing->InsertNextValue(field + ":" + name);
  }
  grid->GetFieldData()->AddArray(missing);
}
}  // namespace

int vtkSpheroRunReader::RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector) {
  if (!this->Index) {
    vtkErrorMacro(<< this->FileName << ": not a readable Sphero run");
    return 0;
  }
  const Run& run = *this->Index;
  vtkInformation* info = outputVector->GetInformationObject(0);
  vtkMultiBlockDataSet* output = vtkMultiBlockDataSet::GetData(info);
  // The last frame at or before the requested time.
  std::size_t frame = run.times.size() - 1;
  if (info->Has(vtkStreamingDemandDrivenPipeline::UPDATE_TIME_STEP())) {
    const double t = info->Get(vtkStreamingDemandDrivenPipeline::UPDATE_TIME_STEP());
    const auto after = std::upper_bound(run.times.begin(), run.times.end(), t * (1.0 + 1e-12) + 1e-300);
    frame = after == run.times.begin() ? 0 : static_cast<std::size_t>(after - run.times.begin()) - 1;
  }
  try {
    const double time = run.times[frame];
    const auto row = run.energy_rows.find(time);
    const std::vector<double>* energies = row == run.energy_rows.end() ? nullptr : &row->second;
    const char* names[4] = {"particles", "contacts", "walls", "contact_points"};
    output->SetNumberOfBlocks(4);
    bool light_frame = false;  // of a run of light frames, which may have chosen its arrays
    for (unsigned int block = 0; block < 4; ++block) {
      const auto state = run.directory / ("state_" + run.suffixes[frame]);
      vtkSmartPointer<vtkUnstructuredGrid> state_grid;
      if (block == 0 && std::filesystem::exists(state)) {
        state_grid = sphero::read_vtu(state);
      }
      // A light run's particles are drawn here; ArcResolution 0 draws them
      // at the run's arc_resolution, as sphero analyze does.
      const bool light = state_grid && sphero::holds_analysis(state_grid);
      if (block == 0) light_frame = state_grid && sphero::state_format(state_grid) == 2;
      const auto file = run.directory / (std::string(names[block]) + "_" + run.suffixes[frame]);
      vtkSmartPointer<vtkUnstructuredGrid> grid;
      if (light) {
        grid =
            particles_from_state(state_grid, state, this->ArcResolution > 0 ? this->ArcResolution : run.arc_resolution);
      } else if (std::filesystem::exists(file)) {
        grid = sphero::read_vtu(file);
      } else {
        grid = vtkSmartPointer<vtkUnstructuredGrid>::New();  // the run did not write this field
      }
      // ArcResolution 0: the outlines as the run drew them (at the scene's
      // arc_resolution), so that every number equals sphero analyze's.
      if (block == 0 && !light && this->ArcResolution > 0) {
        if (!std::filesystem::exists(state)) {
          throw std::runtime_error(state.string() +
                                   ": missing; outlines can be regenerated only from a run that "
                                   "wrote state frames (fields = ...,state); set ArcResolution to 0");
        }
        grid = regenerate_outlines(grid, state, this->ArcResolution);
      }
      if (block == 1) {
        // What the run left out of its contacts, said before the blocks
        // share their arrays (as NaN or -1) and hide it from the filters.
        if (light_frame && grid->GetNumberOfCells() > 0) mark_missing_arrays(grid, "contacts");
        // What a light run leaves to its readers, for colouring and tubes.
        sphero::add_derived_contact_arrays(grid);
      }
      add_frame_fields(grid->GetFieldData(), time, static_cast<int>(frame), run.energy_columns, energies);
      if (block == 0 && std::filesystem::exists(state)) {
        // Where the Sphero filters find the exact skeletons (the exact
        // packing fraction clips the outlines' arcs, not these polygons).
        vtkNew<vtkStringArray> exact;
        exact->SetName("state_file");
        exact->InsertNextValue(state.string());
        grid->GetFieldData()->AddArray(exact);
      }
      if (block == 0 && (run.cell.periodic[0] || run.cell.periodic[1])) {
        // Where the Sphero filters find the periodic cell (coarse-grained
        // fields wrap across it): periodic x, y, then x0, y0, width, height.
        const sphero::PeriodicCell& c = run.cell;
        vtkNew<vtkDoubleArray> cell;
        cell->SetName("periodic_cell");
        for (double v : {double(c.periodic[0]), double(c.periodic[1]), c.low.x, c.low.y, c.size.x, c.size.y}) {
          cell->InsertNextValue(v);
        }
        grid->GetFieldData()->AddArray(cell);
      }
      output->SetBlock(block, grid);
      output->GetMetaData(block)->Set(vtkCompositeDataSet::NAME(), names[block]);
    }
    share_cell_arrays(output);
    fill_ledger_table(vtkTable::GetData(outputVector, 1), run.energy_columns, run.energy_rows);
    add_frame_fields(output->GetFieldData(), time, static_cast<int>(frame), run.energy_columns, energies);
    output->GetInformation()->Set(vtkDataObject::DATA_TIME_STEP(), time);
  } catch (const std::exception& e) {
    vtkErrorMacro(<< e.what());
    return 0;
  }
  return 1;
}

void vtkSpheroRunReader::PrintSelf(ostream& os, vtkIndent indent) {
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FileName: " << this->FileName << "\n";
  os << indent << "ArcResolution: " << this->ArcResolution << "\n";
}
