// A frame written in pieces (io/frame_piece.h, io/pvtu_file.h) reads back
// as the same frame written whole; damaged .pvtu files are refused by name.
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkVariant.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "io/frame_reader.h"
#include "io/run_manifest.h"
#include "io/run_output.h"
#include "io/scene.h"
#include "io/state_vtu.h"
#include "io/vtu_file.h"

namespace sphero {
namespace {

namespace fs = std::filesystem;

constexpr int kPieces = 3;
const std::vector<std::string> kAllFields = {"outlines", "contacts", "walls", "contact_points", "state"};

Engine settled_engine() {
  const SceneConfig scene = parse_scene(
      "duration = 1\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e4 kt=5e3 mu=0.5 gamma_n=2\n"
      "wall = radius=0.05 points=0,10;0,0;8,0;8,10\n"
      "grains = shape=peanut.shape count=8 region=0.5,0.5,7.5,5 speed=1\n"
      "grains = shape=disk.shape count=14 region=0.5,5.5,7.5,9.5\n",
      "t.ini", SPHERO_DATA_DIR "/shapes");
  World w = build_world(scene);
  const EngineSettings s = resolve_engine_settings(scene, w);
  Engine engine(std::move(w), s);
  while (engine.time() < 4.0) engine.run(500);  // the grains have landed and touch
  return engine;
}

// One per test: ctest runs the tests of this file side by side.
fs::path fresh_directory(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / (name + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Grains dealt to the pieces in turn (so no piece holds a run of bodies),
// the walls to piece 0.
FramePiece piece_of(const World& w, int index) {
  FramePiece piece{index, kPieces, std::vector<std::uint8_t>(w.size()), {}};
  for (std::size_t i = 0; i < w.size(); ++i)
    piece.written[i] = w.is_wall[i] ? index == 0 : static_cast<int>(i % kPieces) == index;
  return piece;
}

// The engine's frame written whole into one directory and in pieces into another.
struct TwoWays {
  fs::path whole, pieces;
};
TwoWays write_both_ways(const Engine& engine) {
  TwoWays dirs{fresh_directory("sphero_frame_whole"), fresh_directory("sphero_frame_pieces")};
  RunOutput whole(dirs.whole, engine.world(), 24, kAllFields);
  whole.write_frame(engine);
  RunOutput pieces(dirs.pieces, engine.world(), 24, kAllFields);
  // Every rank names the rows of one table (run/shape_agreement.h).
  ShapeTable shapes;
  const FrameGrids grids(engine.world(), 24, &shapes);
  write_shape_table(dirs.pieces / kShapeTableFile, shapes);
  std::vector<PieceLayout> layouts;
  for (int k = kPieces - 1; k >= 0; --k)
    layouts = grids.write(engine, piece_of(engine.world(), k), kAllFields, dirs.pieces, 0);
  pieces.add_frame_of_pieces(layouts, kPieces, energy_row(engine, engine.ledger(), engine.deepest_overlap()));
  return dirs;
}

TEST(FramePieces, ReadBackAsTheWholeFrameRecordForRecord) {
  const Engine engine = settled_engine();
  const TwoWays dirs = write_both_ways(engine);
  ASSERT_TRUE(fs::exists(dirs.pieces / "outlines_00000.pvtu"));
  ASSERT_TRUE(fs::exists(dirs.pieces / "outlines_00000_2.vtu"));
  EXPECT_EQ(frame_extension(dirs.pieces, 0), ".pvtu");
  const FrameData a = read_frame(dirs.whole, 0), b = read_frame(dirs.pieces, 0);
  ASSERT_EQ(a.particles.size(), 22u);
  ASSERT_EQ(b.particles.size(), a.particles.size());
  EXPECT_EQ(b.time, a.time);
  for (std::size_t k = 0; k < a.particles.size(); ++k) {
    EXPECT_EQ(b.particles[k].id, a.particles[k].id);
    EXPECT_EQ(b.particles[k].centre, a.particles[k].centre);
    EXPECT_EQ(b.particles[k].stress, a.particles[k].stress);
    EXPECT_EQ(b.particles[k].wall_stress, a.particles[k].wall_stress);
    EXPECT_EQ(b.particles[k].coordination, a.particles[k].coordination);
    EXPECT_EQ(b.outlines[k], a.outlines[k]);
    EXPECT_EQ(b.exact_shapes[k].shape.vertices, a.exact_shapes[k].shape.vertices);
  }
  ASSERT_GT(a.pairs.size(), 15u);
  ASSERT_EQ(b.pairs.size(), a.pairs.size());
  for (std::size_t k = 0; k < a.pairs.size(); ++k) {
    EXPECT_EQ(b.pairs[k].body_a, a.pairs[k].body_a);
    EXPECT_EQ(b.pairs[k].body_b, a.pairs[k].body_b);
    EXPECT_EQ(b.pairs[k].force, a.pairs[k].force);
    EXPECT_EQ(b.forces[k].a, a.forces[k].a);
  }
  ASSERT_EQ(b.vertex_contacts.size(), a.vertex_contacts.size());
  for (std::size_t k = 0; k < a.vertex_contacts.size(); ++k) {
    EXPECT_EQ(b.vertex_contacts[k].vertex_body, a.vertex_contacts[k].vertex_body);
    EXPECT_EQ(b.vertex_contacts[k].vertex, a.vertex_contacts[k].vertex);
    EXPECT_EQ(b.vertex_contacts[k].edge, a.vertex_contacts[k].edge);
    EXPECT_EQ(b.vertex_contacts[k].force, a.vertex_contacts[k].force);
  }
  ASSERT_EQ(b.walls.size(), 1u);
  ASSERT_GT(a.walls[0].contacts.size(), 5u);
  ASSERT_EQ(b.walls[0].contacts.size(), a.walls[0].contacts.size());
  for (std::size_t k = 0; k < a.walls[0].contacts.size(); ++k) {
    EXPECT_EQ(b.walls[0].contacts[k].grain, a.walls[0].contacts[k].grain);
    EXPECT_EQ(b.walls[0].contacts[k].force, a.walls[0].contacts[k].force);
  }
  EXPECT_EQ(b.walls[0].force, a.walls[0].force);
}

// Every field's pieces make the whole frame's grid: the same points, cells
// and cell arrays in the same order.
TEST(FramePieces, PiecesReadBackAsTheWholeGrid) {
  const Engine engine = settled_engine();
  const TwoWays dirs = write_both_ways(engine);
  for (const std::string& field : kAllFields) {
    const auto whole = read_vtu(dirs.whole / (field + "_00000.vtu"));
    const auto merged = read_vtu(dirs.pieces / (field + "_00000.pvtu"));
    ASSERT_GT(whole->GetNumberOfCells(), 0) << field;
    ASSERT_EQ(merged->GetNumberOfCells(), whole->GetNumberOfCells()) << field;
    // Cell by cell the same points (a piece holds its own copy of a
    // contact line's shared grain centre).
    for (vtkIdType c = 0; c < whole->GetNumberOfCells(); ++c) {
      ASSERT_EQ(merged->GetCellType(c), whole->GetCellType(c));
      vtkNew<vtkIdList> a, b;
      whole->GetCellPoints(c, a);
      merged->GetCellPoints(c, b);
      ASSERT_EQ(b->GetNumberOfIds(), a->GetNumberOfIds()) << field << " cell " << c;
      for (vtkIdType p = 0; p < a->GetNumberOfIds(); ++p)
        for (int k = 0; k < 3; ++k)
          ASSERT_EQ(merged->GetPoint(b->GetId(p))[k], whole->GetPoint(a->GetId(p))[k]) << field << " cell " << c;
    }
    vtkCellData* w = whole->GetCellData();
    // The pieces hold every constraint array of a state; the whole frame
    // those some body uses, the others reading as zero.
    for (int a = 0; a < merged->GetCellData()->GetNumberOfArrays(); ++a) {
      vtkDataArray* y = merged->GetCellData()->GetArray(a);
      if (y == nullptr || w->GetAbstractArray(y->GetName()) != nullptr) continue;
      ASSERT_EQ(field, "state") << y->GetName();
      for (vtkIdType v = 0; v < y->GetNumberOfValues(); ++v) ASSERT_EQ(y->GetVariantValue(v).ToDouble(), 0.0);
    }
    for (int a = 0; a < w->GetNumberOfArrays(); ++a) {
      vtkAbstractArray* x = w->GetAbstractArray(a);
      vtkAbstractArray* y = merged->GetCellData()->GetAbstractArray(x->GetName());
      ASSERT_NE(y, nullptr) << field << " " << x->GetName();
      ASSERT_EQ(y->GetNumberOfValues(), x->GetNumberOfValues());
      for (vtkIdType v = 0; v < x->GetNumberOfValues(); ++v)
        ASSERT_EQ(y->GetVariantValue(v), x->GetVariantValue(v)) << field << " " << x->GetName() << " " << v;
    }
  }
}

// Bodies of one shape share one drawing: each grain is drawn with its own
// shape's outline and area (peanuts and disks, in pieces and whole).
TEST(FramePieces, EachGrainIsDrawnWithItsOwnShape) {
  const Engine engine = settled_engine();
  const World& w = engine.world();
  const TwoWays dirs = write_both_ways(engine);
  for (const fs::path& file : {dirs.whole / "outlines_00000.vtu", dirs.pieces / "outlines_00000.pvtu"}) {
    const auto grid = read_vtu(file);
    vtkDataArray* id = grid->GetCellData()->GetArray("id");
    vtkDataArray* area = grid->GetCellData()->GetArray("area");
    ASSERT_NE(id, nullptr);
    ASSERT_NE(area, nullptr);
    ASSERT_EQ(grid->GetNumberOfCells(), 22);
    for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
      const auto i = static_cast<std::size_t>(id->GetTuple1(c));
      EXPECT_NEAR(area->GetTuple1(c), w.mass[i] / w.density[i], 1e-9 * w.mass[i] / w.density[i])
          << file << " grain " << i;
      vtkIdType count = 0;
      const vtkIdType* points = nullptr;
      grid->GetCellPoints(c, count, points);
      for (vtkIdType k = 0; k < count; ++k) {
        const double* p = grid->GetPoint(points[k]);
        EXPECT_LE(norm(Vec2{p[0], p[1]} - w.position[i]), w.bounding_radius[i] * (1 + 1e-9)) << file << " grain " << i;
      }
    }
  }
}

TEST(FramePieces, StateInPiecesIsAPackingInBodyOrder) {
  const Engine engine = settled_engine();
  const TwoWays dirs = write_both_ways(engine);
  const std::vector<BodySpec> a = read_state_vtu(dirs.whole / "state_00000.vtu");
  const std::vector<BodySpec> b = read_state_vtu(dirs.pieces / "state_00000.pvtu");
  ASSERT_EQ(b.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(b[i].position, a[i].position) << i;
    EXPECT_EQ(b[i].is_wall, a[i].is_wall) << i;
    EXPECT_EQ(b[i].shape.vertices, a[i].shape.vertices) << i;
    EXPECT_TRUE(b[i].constraint == a[i].constraint) << i;
    EXPECT_TRUE(a[i].constraint == engine.world().constraint[i]) << i;
  }
}

// The whole frame holds the constraint arrays some body needs (the wall
// is held, nothing else is imposed); every piece holds all five, so that
// the pieces agree with the .pvtu that names them.
TEST(FramePieces, AWholeStateHoldsOnlyTheConstraintArraysInUse) {
  const Engine engine = settled_engine();
  const TwoWays dirs = write_both_ways(engine);
  const std::vector<std::string> constraints = {"held", "imposed_velocity", "imposed_force", "vibration", "plate"};
  const auto whole = read_vtu(dirs.whole / "state_00000.vtu");
  for (const std::string& name : constraints)
    EXPECT_EQ(whole->GetCellData()->GetArray(name.c_str()) != nullptr, name == "held") << name;
  for (int k = 0; k < kPieces; ++k) {
    const auto piece = read_vtu(dirs.pieces / ("state_00000_" + std::to_string(k) + ".vtu"));
    for (const std::string& name : constraints)
      EXPECT_NE(piece->GetCellData()->GetArray(name.c_str()), nullptr) << name << " " << k;
  }
}

TEST(FramePieces, FieldsAddedByTheAnalysisGoToEachParticlesPiece) {
  const Engine engine = settled_engine();
  const TwoWays dirs = write_both_ways(engine);
  const FrameData frame = read_frame(dirs.pieces, 0);
  ParticleField twice_id{"twice_id", 1, {}};
  for (const ParticleRecord& p : frame.particles) twice_id.values.push_back(2.0 * p.id);
  add_particle_fields(dirs.pieces, 0, {twice_id});
  const auto grid = read_vtu(dirs.pieces / "outlines_00000.pvtu");
  vtkDataArray* id = grid->GetCellData()->GetArray("id");
  vtkDataArray* added = grid->GetCellData()->GetArray("twice_id");
  ASSERT_NE(added, nullptr);
  for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) EXPECT_EQ(added->GetTuple1(c), 2.0 * id->GetTuple1(c));
  // The state, which the plugin draws the particles from, holds them too:
  // NaN for the walls.
  const auto state = read_vtu(dirs.pieces / "state_00000.pvtu");
  vtkDataArray *state_id = state->GetCellData()->GetArray("id"), *wall = state->GetCellData()->GetArray("wall"),
               *in_state = state->GetCellData()->GetArray("twice_id");
  ASSERT_NE(in_state, nullptr);
  for (vtkIdType c = 0; c < state->GetNumberOfCells(); ++c) {
    if (wall->GetTuple1(c) != 0.0) EXPECT_TRUE(std::isnan(in_state->GetTuple1(c)));
    else EXPECT_EQ(in_state->GetTuple1(c), 2.0 * state_id->GetTuple1(c));
  }
}

void expect_refused(const fs::path& pvtu, const std::string& words) {
  try {
    read_vtu(pvtu);
    ADD_FAILURE() << pvtu << " was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(pvtu.filename().string()), std::string::npos) << e.what();
  }
}

void write_text(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

TEST(FramePieces, DamagedSummariesAreRefusedByName) {
  const Engine engine = settled_engine();
  const fs::path dir = write_both_ways(engine).pieces;
  const std::string head = "<VTKFile type=\"PUnstructuredGrid\"><PUnstructuredGrid>";
  write_text(dir / "none.pvtu", head + "</PUnstructuredGrid></VTKFile>");
  expect_refused(dir / "none.pvtu", "names no piece");
  write_text(dir / "missing.pvtu", head + "<Piece Source=\"outlines_00000_7.vtu\"/></PUnstructuredGrid></VTKFile>");
  expect_refused(dir / "missing.pvtu", "outlines_00000_7.vtu is missing");
  write_text(dir / "outside.pvtu", head + "<Piece Source=\"../elsewhere.vtu\"/></PUnstructuredGrid></VTKFile>");
  expect_refused(dir / "outside.pvtu", "is not a .vtu beside the file");
  write_text(dir / "unclosed.pvtu", head + "<Piece Source=\"outlines_00000_0.vtu/></PUnstructuredGrid></VTKFile>");
  expect_refused(dir / "unclosed.pvtu", "without Source");
  write_text(dir / "mixed.pvtu", head +
                                     "<Piece Source=\"outlines_00000_0.vtu\"/><Piece Source=\"contacts_00000_1.vtu\"/>"
                                     "<Piece Source=\"outlines_00000_2.vtu\"/></PUnstructuredGrid></VTKFile>");
  expect_refused(dir / "mixed.pvtu", "do not belong together");
  // Pieces say which they are: one copied over another, or a frame's
  // pieces under a name of another frame, are refused.
  fs::copy_file(dir / "outlines_00000_0.vtu", dir / "copy.vtu");
  write_text(dir / "copied.pvtu", head +
                                      "<Piece Source=\"outlines_00000_0.vtu\"/><Piece Source=\"copy.vtu\"/>"
                                      "<Piece Source=\"outlines_00000_2.vtu\"/></PUnstructuredGrid></VTKFile>");
  expect_refused(dir / "copied.pvtu", "its pieces outlines_00000_0.vtu and copy.vtu are both piece 0 of the frame");
  write_text(dir / "outlines_00004.pvtu",
             head +
                 "<Piece Source=\"outlines_00000_0.vtu\"/><Piece Source=\"outlines_00000_1.vtu\"/>"
                 "<Piece Source=\"outlines_00000_2.vtu\"/></PUnstructuredGrid></VTKFile>");
  expect_refused(dir / "outlines_00004.pvtu", "its piece outlines_00000_0.vtu is of frame 0, the file of frame 4");
  write_text(dir / "two.pvtu", head +
                                   "<Piece Source=\"outlines_00000_0.vtu\"/><Piece Source=\"outlines_00000_1.vtu\"/>"
                                   "</PUnstructuredGrid></VTKFile>");
  expect_refused(dir / "two.pvtu", "says it is piece 0 of 3, but the file names 2 pieces");
  write_text(dir / "other.pvtu", "<VTKFile type=\"UnstructuredGrid\"></VTKFile>");
  expect_refused(dir / "other.pvtu", "not a parallel unstructured grid");
}

// Pieces say whose run they are: a frame's pieces of two runs, or of
// another run than the folder's run.sphero names, are refused by name.
TEST(FramePieces, PiecesOfAnotherRunAreRefusedByName) {
  const Engine engine = settled_engine();
  const RunIdentity ours = RunIdentity::fresh(), theirs = RunIdentity::fresh();
  const fs::path dir = fresh_directory("sphero_frame_runs");
  ShapeTable shapes;
  const FrameGrids grids(engine.world(), 24, &shapes);
  write_shape_table(dir / kShapeTableFile, shapes);
  const auto write_pieces = [&](const RunIdentity& second) {
    std::vector<PieceLayout> layouts;
    for (int k = 0; k < kPieces; ++k) {
      FramePiece piece = piece_of(engine.world(), k);
      piece.run = k == 1 ? second : ours;
      layouts = grids.write(engine, piece, {"state"}, dir, 0);
    }
    write_pvtu_atomically(dir / "state_00000.pvtu", layouts[0].cell_arrays,
                          {"state_00000_0.vtu", "state_00000_1.vtu", "state_00000_2.vtu"});
  };
  write_pieces(theirs);
  expect_refused(dir / "state_00000.pvtu", "its piece state_00000_1.vtu is of run " + theirs.text() +
                                               ", its piece state_00000_0.vtu of run " + ours.text());
  write_pieces(ours);
  EXPECT_GT(read_vtu(dir / "state_00000.pvtu")->GetNumberOfCells(), 0);
  RunManifest manifest;
  manifest.lineage.run = ours;
  write_text(dir / "run.sphero", run_manifest_text(manifest));
  EXPECT_GT(read_vtu(dir / "state_00000.pvtu")->GetNumberOfCells(), 0);
  manifest.lineage.run = theirs;
  write_text(dir / "run.sphero", run_manifest_text(manifest));
  expect_refused(dir / "state_00000.pvtu", "its piece state_00000_0.vtu is of run " + ours.text() +
                                               ", the folder's run.sphero of run " + theirs.text());
}

}  // namespace
}  // namespace sphero
