// Shape outlines written as .vtu and read back with VTK's own reader.
#include <gtest/gtest.h>

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolygon.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <filesystem>
#include <numbers>

#include "io/shape_outlines_vtu.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

TEST(OutlineVtu, RoundTripKeepsCellsAndExactAreas) {
  const std::vector<Shape> shapes{read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape"),
                                  read_shape_file(SPHERO_DATA_DIR "/shapes/disk.shape"),
                                  read_shape_file(SPHERO_DATA_DIR "/shapes/peanut.shape")};
  const auto dir = std::filesystem::temp_directory_path() / "sphero_outline_vtu_test";
  std::filesystem::create_directories(dir);
  const auto file = dir / "shapes.vtu";
  write_shape_outlines_vtu(file, shapes, 512);
  // Nothing but the file itself is left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);

  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  vtkUnstructuredGrid* grid = reader->GetOutput();
  // One outline and one skeleton cell per shape; these have no holes.
  ASSERT_EQ(grid->GetNumberOfCells(), 6);
  auto* part = vtkIntArray::SafeDownCast(grid->GetCellData()->GetArray("part"));
  auto* area = vtkDoubleArray::SafeDownCast(grid->GetCellData()->GetArray("area"));
  auto* id = vtkIntArray::SafeDownCast(grid->GetCellData()->GetArray("shape_id"));
  ASSERT_TRUE(part && area && id);
  for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
    const Shape& shape = shapes[id->GetValue(c)];
    EXPECT_DOUBLE_EQ(area->GetValue(c), mass_properties(shape).area);
    if (part->GetValue(c) != static_cast<int>(OutlinePart::outline)) continue;
    // The drawn outline's polygon area converges to the exact area from
    // inside (chords cut the arcs): relative error 1 − sin θ/θ ≈ θ²/6 = 2.5e-5
    // for chords of θ = 2π/512.
    auto* polygon = vtkPolygon::SafeDownCast(grid->GetCell(c));
    ASSERT_NE(polygon, nullptr);
    double drawn = 0.0;  // shoelace over the cell's own points
    vtkPoints* points = polygon->GetPoints();
    for (vtkIdType k = 0, n = points->GetNumberOfPoints(); k < n; ++k) {
      double p[3], q[3];
      points->GetPoint(k, p);
      points->GetPoint((k + 1) % n, q);
      drawn += 0.5 * (p[0] * q[1] - q[0] * p[1]);
    }
    EXPECT_LT(drawn, area->GetValue(c));
    EXPECT_NEAR(drawn, area->GetValue(c), 3e-5 * area->GetValue(c));
  }
  std::filesystem::remove_all(dir);
}

TEST(OutlineVtu, SharpPolygonOutlineIsThePolygon) {
  const std::vector<Shape> shapes{make_shape("tri", SkeletonKind::polygon, {{0, 0}, {4, 0}, {0, 3}}, 0.0)};
  const vtkSmartPointer<vtkUnstructuredGrid> grid = make_shape_outlines_grid(shapes, 64);
  ASSERT_EQ(grid->GetNumberOfCells(), 2);  // outline + skeleton
  EXPECT_EQ(grid->GetCell(0)->GetNumberOfPoints(), 3);
}

TEST(OutlineVtu, UnwritablePathIsAnErrorAndLeavesNothing) {
  const std::vector<Shape> shapes{read_shape_file(SPHERO_DATA_DIR "/shapes/disk.shape")};
  EXPECT_THROW(write_shape_outlines_vtu("/no/such/dir/shapes.vtu", shapes, 64), std::exception);
}

}  // namespace
}  // namespace sphero
