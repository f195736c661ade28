// Sphero's own .vtu writer: what it writes, VTK's reader reads back value
// for value (every array type a frame uses, strings, field data, several
// compressed blocks, an empty grid), and a scene's choice of arrays is
// parsed and applied as docs/SCENES.md says.
#include <gtest/gtest.h>
#include <unistd.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkIdTypeArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <filesystem>
#include <string>

#include "io/field_arrays.h"
#include "io/vtu_file.h"

namespace sphero {
namespace {

namespace fs = std::filesystem;

class VtuWriter : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(folder_); }
  void TearDown() override { fs::remove_all(folder_); }

  // Written by write_vtu_atomically, read by VTK's own reader (no checks of
  // Sphero's between them).
  vtkSmartPointer<vtkUnstructuredGrid> round_trip(vtkUnstructuredGrid* grid) {
    const fs::path file = folder_ / "grid.vtu";
    write_vtu_atomically(file, grid);
    vtkNew<vtkXMLUnstructuredGridReader> reader;
    reader->SetFileName(file.c_str());
    reader->Update();
    EXPECT_EQ(reader->GetErrorCode(), 0);
    read_vtu(file);  // Sphero's checks pass it too
    return reader->GetOutput();
  }

  fs::path folder_ = fs::temp_directory_path() / ("sphero-vtu-writer-" + std::to_string(::getpid()));
};

template <class Array>
vtkNew<Array> filled(const char* name, int components, vtkIdType tuples, double scale) {
  vtkNew<Array> a;
  a->SetName(name);
  a->SetNumberOfComponents(components);
  a->SetNumberOfTuples(tuples);
  for (vtkIdType k = 0; k < tuples * components; ++k)
    a->SetValue(k, static_cast<typename Array::ValueType>(scale * static_cast<double>(k % 97) - 3));
  return a;
}

void expect_same_arrays(vtkFieldData* written, vtkFieldData* read) {
  ASSERT_EQ(written->GetNumberOfArrays(), read->GetNumberOfArrays());
  for (int k = 0; k < written->GetNumberOfArrays(); ++k) {
    vtkAbstractArray* w = written->GetAbstractArray(k);
    vtkAbstractArray* r = read->GetAbstractArray(w->GetName());
    ASSERT_NE(r, nullptr) << w->GetName();
    // vtkIdType arrays are Int64 in a file, as VTK's writer has them.
    const int type = w->GetDataType() == VTK_ID_TYPE ? VTK_LONG_LONG : w->GetDataType();
    EXPECT_EQ(r->GetDataType(), type) << w->GetName();
    ASSERT_EQ(r->GetNumberOfComponents(), w->GetNumberOfComponents()) << w->GetName();
    ASSERT_EQ(r->GetNumberOfValues(), w->GetNumberOfValues()) << w->GetName();
    for (vtkIdType v = 0; v < w->GetNumberOfValues(); ++v)
      ASSERT_EQ(r->GetVariantValue(v), w->GetVariantValue(v)) << w->GetName() << " value " << v;
  }
}

vtkSmartPointer<vtkUnstructuredGrid> mixed_grid(vtkIdType cells) {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  for (vtkIdType k = 0; k < 4 * cells; ++k)
    points->InsertNextPoint(0.1 * static_cast<double>(k), 1.0 / (static_cast<double>(k) + 1.0), 0.0);
  grid->SetPoints(points);
  for (vtkIdType c = 0; c < cells; ++c) {
    const vtkIdType polygon[4] = {4 * c, 4 * c + 1, 4 * c + 2, 4 * c + 3}, line[2] = {4 * c, 4 * c + 2};
    if (c % 3 == 0) grid->InsertNextCell(VTK_POLYGON, 4, polygon);
    if (c % 3 == 1) grid->InsertNextCell(VTK_LINE, 2, line);
    if (c % 3 == 2) grid->InsertNextCell(VTK_VERTEX, 1, polygon);
  }
  grid->GetCellData()->AddArray(filled<vtkIntArray>("id", 1, cells, 1.0));
  grid->GetCellData()->AddArray(filled<vtkDoubleArray>("velocity", 3, cells, 0.123456789));
  grid->GetCellData()->AddArray(filled<vtkFloatArray>("single", 4, cells, 0.3f));
  grid->GetCellData()->AddArray(filled<vtkIdTypeArray>("wide", 1, cells, 1e9));
  grid->GetCellData()->AddArray(filled<vtkUnsignedCharArray>("flags", 1, cells, 1.0));
  vtkNew<vtkStringArray> names;
  names->SetName("shape");
  for (vtkIdType c = 0; c < cells; ++c) names->InsertNextValue(c % 2 ? "cow" : "");
  grid->GetCellData()->AddArray(names);
  grid->GetPointData()->AddArray(filled<vtkDoubleArray>("at_points", 2, 4 * cells, 2.5));
  add_time_value(grid, 1.0 / 3.0);
  vtkNew<vtkStringArray> table;
  table->SetName("shape_table");
  table->InsertNextValue("shapes.vtu");
  grid->GetFieldData()->AddArray(table);
  return grid;
}

void expect_same_grid(vtkUnstructuredGrid* written, vtkUnstructuredGrid* read) {
  ASSERT_EQ(read->GetNumberOfPoints(), written->GetNumberOfPoints());
  ASSERT_EQ(read->GetNumberOfCells(), written->GetNumberOfCells());
  for (vtkIdType p = 0; p < written->GetNumberOfPoints(); ++p)
    for (int k = 0; k < 3; ++k) ASSERT_EQ(read->GetPoint(p)[k], written->GetPoint(p)[k]);
  vtkNew<vtkIdList> a, b;
  for (vtkIdType c = 0; c < written->GetNumberOfCells(); ++c) {
    ASSERT_EQ(read->GetCellType(c), written->GetCellType(c));
    written->GetCellPoints(c, a);
    read->GetCellPoints(c, b);
    ASSERT_EQ(b->GetNumberOfIds(), a->GetNumberOfIds());
    for (vtkIdType k = 0; k < a->GetNumberOfIds(); ++k) ASSERT_EQ(b->GetId(k), a->GetId(k));
  }
  expect_same_arrays(written->GetCellData(), read->GetCellData());
  expect_same_arrays(written->GetPointData(), read->GetPointData());
  expect_same_arrays(written->GetFieldData(), read->GetFieldData());
}

TEST_F(VtuWriter, VtkReadsBackEveryValue) {
  const auto grid = mixed_grid(30);
  expect_same_grid(grid, round_trip(grid));
}

TEST_F(VtuWriter, ArraysOfManyBlocksReadBack) {
  const auto grid = mixed_grid(20000);  // 480 kB of velocities: several 64 KiB blocks
  expect_same_grid(grid, round_trip(grid));
}

TEST_F(VtuWriter, UniformCellsAndColumnsReadBack) {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  for (int k = 0; k < 6; ++k) points->InsertNextPoint(k, -k, 0.0);
  grid->SetPoints(points);
  set_uniform_cells(grid, VTK_LINE, 3, 2);
  IntColumn id("id", 3);
  DoubleColumn force("force", 3, 3);
  for (int k = 0; k < 3; ++k) id.set(k, 10 + k), force.set(k, {k + 0.5, -1.0 * k, 0.0});
  add_columns(grid, {&id, &force});
  const auto read = round_trip(grid);
  expect_same_grid(grid, read);
  vtkNew<vtkIdList> ends;
  read->GetCellPoints(2, ends);
  EXPECT_EQ(ends->GetId(0), 4);
  EXPECT_EQ(ends->GetId(1), 5);
  EXPECT_EQ(read->GetCellData()->GetArray("force")->GetComponent(2, 0), 2.5);
}

TEST_F(VtuWriter, AnEmptyGridReadsBack) {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  grid->SetPoints(points);
  grid->GetCellData()->AddArray(filled<vtkDoubleArray>("velocity", 3, 0, 1.0));
  const auto read = round_trip(grid);
  EXPECT_EQ(read->GetNumberOfPoints(), 0);
  EXPECT_EQ(read->GetNumberOfCells(), 0);
  ASSERT_NE(read->GetCellData()->GetArray("velocity"), nullptr);
}

TEST(FieldChoice, ArraysFollowTheirFieldUpToTheNextField) {
  EXPECT_EQ(parse_field_choice("state:velocity,angular_velocity,contacts,walls"),
            (std::vector<std::string>{"state", "state:velocity", "state:angular_velocity", "contacts", "walls"}));
  EXPECT_EQ(
      parse_field_choice("contacts:all,particles"), (std::vector<std::string>{"contacts", "contacts:all", "outlines"}));
  EXPECT_EQ(parse_field_choice("state,contacts"), (std::vector<std::string>{"state", "contacts"}));
}

TEST(FieldChoice, UnknownFieldsAndArraysAreRefusedByName) {
  const auto refusal = [](const std::string& text) {
    try {
      parse_field_choice(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refusal("velocity,state").find("unknown field 'velocity'"), std::string::npos);
  const std::string array = refusal("state:speed");
  EXPECT_NE(array.find("the field state has no array 'speed'"), std::string::npos) << array;
  EXPECT_NE(array.find("angular_velocity"), std::string::npos) << array;
  EXPECT_NE(refusal("walls:velocity").find("the field walls has no array 'velocity'"), std::string::npos);
  EXPECT_NE(refusal("state:,contacts").find("'state:' names no array"), std::string::npos);
  EXPECT_NE(refusal("contacts,speed").find("contacts:force_magnitude"), std::string::npos);  // how to write it
}

TEST(FieldChoice, AFileKeepsWhatItsReadersNeed) {
  const std::vector<std::string> chosen = chosen_arrays({"state", "state:velocity"}, "state");
  EXPECT_EQ(chosen, (std::vector<std::string>{"position", "id", "shape", "material", "wall", "angle", "density", "held",
                                              "imposed_velocity", "imposed_force", "vibration", "plate", "velocity"}));
  const std::vector<std::string> contacts = chosen_arrays({"state", "contacts"}, "contacts");
  EXPECT_EQ(std::count(contacts.begin(), contacts.end(), "force_magnitude"), 0);  // derived on reading
  EXPECT_EQ(std::count(contacts.begin(), contacts.end(), "force_on_a"), 1);
  const std::vector<std::string> all = chosen_arrays({"contacts", "contacts:all"}, "contacts");
  EXPECT_EQ(std::count(all.begin(), all.end(), "branch_vector"), 1);

  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  for (const char* name : {"id", "velocity", "angular_velocity", "stress_compression_positive"})
    grid->GetCellData()->AddArray(filled<vtkDoubleArray>(name, 1, 2, 1.0));
  keep_chosen_arrays(grid, {"state", "state:velocity"}, "state");
  EXPECT_EQ(grid->GetCellData()->GetNumberOfArrays(), 2);
  EXPECT_NE(grid->GetCellData()->GetArray("id"), nullptr);
  EXPECT_NE(grid->GetCellData()->GetArray("velocity"), nullptr);
  EXPECT_EQ(missing_analysed_arrays(grid, "state"),
            (std::vector<std::string>{
                "angular_velocity", "coordination_number", "stress_compression_positive", "stress_from_walls"}));
}

}  // namespace
}  // namespace sphero
