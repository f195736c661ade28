#include "SpheroFrame.h"

#include "vtkCellData.h"
#include "vtkCompositeDataSet.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkInformation.h"
#include "vtkNew.h"
#include "vtkStringArray.h"

#include "io/field_arrays.h"
#include "io/frame_reader.h"
#include "io/state_vtu.h"
#include "io/vtu_file.h"

#include <algorithm>
#include <filesystem>

#include <stdexcept>

namespace sphero::plugin {

Blocks find_blocks(vtkMultiBlockDataSet* input) {
  Blocks b;
  for (unsigned int k = 0; input && k < input->GetNumberOfBlocks(); ++k) {
    if (!input->HasMetaData(k)) {
      continue;
    }
    const std::string name = input->GetMetaData(k)->Get(vtkCompositeDataSet::NAME());
    auto* grid = vtkUnstructuredGrid::SafeDownCast(input->GetBlock(k));
    if (name == "particles") {
      b.particles = grid;
    } else if (name == "contacts") {
      b.contacts = grid;
    } else if (name == "walls") {
      b.walls = grid;
    }
  }
  if (!b.particles) {
    throw std::runtime_error("the input has no 'particles' block: apply this filter to a Sphero run (run.sphero)");
  }
  return b;
}

vtkSmartPointer<vtkMultiBlockDataSet> copy_blocks(vtkMultiBlockDataSet* input, Blocks& blocks) {
  auto output = vtkSmartPointer<vtkMultiBlockDataSet>::New();
  output->SetNumberOfBlocks(input->GetNumberOfBlocks());
  for (unsigned int k = 0; k < input->GetNumberOfBlocks(); ++k) {
    vtkDataObject* block = input->GetBlock(k);
    if (!block) {
      continue;
    }
    vtkSmartPointer<vtkDataObject> copy;
    copy.TakeReference(block->NewInstance());
    copy->ShallowCopy(block);
    output->SetBlock(k, copy);
    if (input->HasMetaData(k)) {
      output->GetMetaData(k)->Copy(input->GetMetaData(k));
    }
    const std::string name = input->HasMetaData(k) ? input->GetMetaData(k)->Get(vtkCompositeDataSet::NAME()) : "";
    auto* grid = vtkUnstructuredGrid::SafeDownCast(copy);
    if (name == "particles") {
      blocks.particles = grid;
    } else if (name == "contacts") {
      blocks.contacts = grid;
    } else if (name == "walls") {
      blocks.walls = grid;
    }
  }
  output->GetFieldData()->ShallowCopy(input->GetFieldData());
  return output;
}

FilterFrame filter_frame(vtkInformationVector** inputVector) {
  auto* input = vtkMultiBlockDataSet::GetData(inputVector[0]);
  const Blocks in = find_blocks(input);
  FilterFrame f;
  // The run reader names the frame's state file, whose skeletons give the
  // exact outlines.
  vtkSmartPointer<vtkUnstructuredGrid> state;
  std::shared_ptr<const ShapeTable> shapes;
  if (auto* file = vtkStringArray::SafeDownCast(in.particles->GetFieldData()->GetAbstractArray("state_file"))) {
    const std::filesystem::path path = file->GetNumberOfValues() == 1 ? std::string(file->GetValue(0)) : std::string();
    if (!path.empty() && std::filesystem::exists(path)) {
      state = read_vtu(path);
      shapes = shape_table_of_state(state, path);
    }
  }
  f.frame = frame_from_grids(in.particles, in.contacts, in.walls, state, shapes.get());
  // The contacts block holds the other blocks' arrays too (NaN or -1):
  // what its file lacked, the reader said.
  auto& missing = f.frame.missing_arrays;
  missing.erase(
      std::remove_if(missing.begin(), missing.end(), [](const std::string& m) { return m.rfind("contacts:", 0) == 0; }),
      missing.end());
  if (in.contacts)
    if (auto* said = vtkStringArray::SafeDownCast(in.contacts->GetFieldData()->GetAbstractArray(kMissingArraysField)))
      for (vtkIdType k = 0; k < said->GetNumberOfValues(); ++k) missing.push_back(said->GetValue(k));
  refuse_missing_arrays(f.frame);
  f.output = copy_blocks(input, f.blocks);
  return f;
}

std::array<vtkFieldData*, 2> FilterFrame::summary_fields() const {
  return {output->GetFieldData(), blocks.particles->GetFieldData()};
}

int run_filter(vtkAlgorithm* filter, vtkInformationVector** inputVector, vtkInformationVector* outputVector,
               const std::function<void(FilterFrame&)>& analyse) {
  try {
    FilterFrame f = filter_frame(inputVector);
    analyse(f);
    vtkMultiBlockDataSet::GetData(outputVector)->ShallowCopy(f.output);
  } catch (const std::exception& e) {
    vtkErrorWithObjectMacro(filter, << e.what());
    return 0;
  }
  return 1;
}

analysis::Window window_from(int type, const double rectangle[4], const double circle[3]) {
  analysis::Window w;
  if (type == 1) {
    if (!(rectangle[2] > rectangle[0] && rectangle[3] > rectangle[1])) {
      throw std::runtime_error("WindowRectangle: expected x0 < x1 and y0 < y1");
    }
    w = {analysis::Window::Kind::rectangle, rectangle[0], rectangle[1], rectangle[2], rectangle[3], {}, 0.0};
  } else if (type == 2) {
    if (!(circle[2] > 0.0)) {
      throw std::runtime_error("WindowCircle: the radius must be positive");
    }
    w.kind = analysis::Window::Kind::circle;
    w.centre = {circle[0], circle[1]};
    w.radius = circle[2];
  }
  return w;
}

void add_value(vtkFieldData* fields, const std::string& name, double value) { add_values(fields, name, {value}); }

void add_values(vtkFieldData* fields, const std::string& name, const std::vector<double>& values, int components) {
  vtkNew<vtkDoubleArray> a;
  a->SetName(name.c_str());
  a->SetNumberOfComponents(components);
  for (double v : values) {
    a->InsertNextValue(v);
  }
  fields->AddArray(a);
}

void add_cell_values(vtkUnstructuredGrid* grid, const std::string& name, const std::vector<double>& values,
                     int components) {
  vtkNew<vtkDoubleArray> a;
  a->SetName(name.c_str());
  a->SetNumberOfComponents(components);
  a->SetNumberOfTuples(grid->GetNumberOfCells());
  for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
    for (int k = 0; k < components; ++k) {
      a->SetComponent(c, k, values.at(static_cast<std::size_t>(c * components + k)));
    }
  }
  grid->GetCellData()->AddArray(a);
}

}  // namespace sphero::plugin
