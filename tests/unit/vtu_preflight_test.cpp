// The checks before VTK reads a .vtu: what Sphero writes passes them, and
// each kind of damage is refused with its own words before VTK sees it.
#include <gtest/gtest.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "io/grid_check.h"
#include "io/scene.h"
#include "io/state_vtu.h"
#include "io/vtu_preflight.h"

namespace sphero {
namespace {

std::string refusal(const std::filesystem::path& file) {
  try {
    check_vtu_before_reading(file);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

class VtuPreflight : public ::testing::Test {
 protected:
  void SetUp() override {
    const SceneConfig scene = parse_scene(
        "duration = 1\nlaw = 0 0 linear kn=1e4\nwall = radius=0.05 points=0,0;13,0\n"
        "grains = shape=cow.shape count=3 region=0.3,0.3,12.7,4.5\n",
        "t.ini", SPHERO_DATA_DIR "/shapes");
    write_state_vtu(file_, build_world(scene), 0.5);
    std::ifstream in(file_, std::ios::binary);
    bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  void TearDown() override { std::filesystem::remove(file_); }

  // The state file with `damage` done to its bytes, as a file.
  std::string refusal_after(const std::function<void(std::string&)>& damage) {
    std::string damaged = bytes_;
    damage(damaged);
    std::ofstream(file_, std::ios::binary) << damaged;
    return refusal(file_);
  }
  std::size_t appended_start() const { return bytes_.find('_', bytes_.find("<AppendedData")) + 1; }

  // One file per test: ctest runs the tests of this fixture at once.
  const std::filesystem::path file_ =
      std::filesystem::temp_directory_path() /
      (std::string("sphero_preflight_") + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".vtu");
  std::string bytes_;
};

TEST_F(VtuPreflight, WhatSpheroWritesPasses) {
  EXPECT_EQ(refusal(file_), "");
  EXPECT_EQ(read_state_vtu(file_).size(), 4u);
}

TEST_F(VtuPreflight, ADamagedCompressedBlockIsRefusedByName) {
  const std::string words = refusal_after([&](std::string& b) {
    const std::size_t shape = b.find("offset=\"", b.find("Name=\"shape\"")) + 8;
    const std::size_t at = appended_start() + std::stoul(b.substr(shape)) + 16;  // past 4 header words
    for (std::size_t k = at; k < at + 6; ++k) b[k] = static_cast<char>(b[k] ^ 0x5A);
  });
  EXPECT_NE(words.find("the array 'shape': block 0 does not decompress to its"), std::string::npos) << words;
}

TEST_F(VtuPreflight, AnImpossibleExpansionIsRefusedBeforeAllocating) {
  const std::string words = refusal_after([&](std::string& b) {
    const std::size_t at = appended_start();  // the first array: 1 block, its size, the last block's size
    const std::uint32_t huge = 1u << 30;
    b.replace(at + 4, 4, reinterpret_cast<const char*>(&huge), 4);
    b.replace(at + 8, 4, reinterpret_cast<const char*>(&huge), 4);
  });
  EXPECT_NE(words.find("more than vtkLZ4DataCompressor gives"), std::string::npos) << words;
}

TEST_F(VtuPreflight, ElementsVtkWouldTakeForArraysAreRefused) {
  EXPECT_NE(refusal_after([](std::string& b) {
              b.replace(b.find("<CellData>"), 10, "<CellData><FieldData/>");
            }).find("an element '<FieldData/>' among the CellData arrays"),
            std::string::npos);
  EXPECT_NE(refusal_after([](std::string& b) {
              b.replace(b.find("Name=\"material\""), 15, "Name=\"shape\"");
            }).find("two CellData arrays named 'shape'"),
            std::string::npos);
}

TEST_F(VtuPreflight, CountsAndStructureAreCheckedBeforeAnythingIsAllocated) {
  EXPECT_NE(refusal_after([](std::string& b) {
              const std::size_t at = b.find("NumberOfCells=\"") + 15;
              b.replace(at, b.find('"', at) - at, "2000000000");
            }).find("announces 2000000000 cells"),
            std::string::npos);
  EXPECT_NE(refusal_after([](std::string& b) {
              b.replace(b.find("<Piece"), 6, "<Piece/><Piece");
            }).find("more than one <Piece>"),
            std::string::npos);
  EXPECT_NE(
      refusal_after([](std::string& b) { b.resize(b.size() / 2); }).find("the file is damaged"), std::string::npos);
}

// Ids, counts and flags a damaged file holds as numbers no int can hold
// come back as −1 (which every reader then refuses by name), not as
// whatever an out-of-range conversion gives.
TEST(GridCheck, CellIntegersOutOfRangeComeBackAsMinusOne) {
  vtkNew<vtkDoubleArray> values;
  for (double x : {3.0, -5.0, 2147483647.0, 1e300, -1e300, 2147483648.0, std::nan("")}) values->InsertNextValue(x);
  const int expected[] = {3, -5, 2147483647, -1, -1, -1, -1};
  for (vtkIdType c = 0; c < values->GetNumberOfTuples(); ++c) EXPECT_EQ(cell_int(values, c), expected[c]) << c;
}

}  // namespace
}  // namespace sphero
