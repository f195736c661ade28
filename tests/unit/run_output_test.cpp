// Frames written by RunOutput, read back with VTK's own reader; and a writer
// killed mid-run leaves only whole files.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "io/run_manifest.h"
#include "io/run_output.h"
#include "io/scene.h"

namespace sphero {
namespace {

namespace fs = std::filesystem;

Engine small_engine() {
  const SceneConfig scene = parse_scene(
      "duration = 1\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e4 kt=5e3 mu=0.5 gamma_n=2\n"
      "wall = radius=0.05 points=0,10;0,0;8,0;8,10\n"
      "grains = shape=peanut.shape count=8 region=0.5,0.5,7.5,5 speed=1\n"
      "grains = shape=disk.shape count=6 region=0.5,5.5,7.5,9\n",
      "t.ini", SPHERO_DATA_DIR "/shapes");
  World w = build_world(scene);
  const EngineSettings s = resolve_engine_settings(scene, w);
  return Engine(std::move(w), s);
}

fs::path fresh_directory(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

vtkSmartPointer<vtkUnstructuredGrid> read(const fs::path& file) {
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0) << file;
  return reader->GetOutput();
}

TEST(RunOutput, FramesReadBackWithTheStateTheyWereWrittenFrom) {
  const fs::path dir = fresh_directory("sphero_run_output_test");
  Engine engine = small_engine();
  RunOutput output(dir, engine.world(), 24, {"outlines", "contacts", "walls"});
  output.write_frame(engine);
  engine.run(1500);  // 1.5 s: the grains have landed
  output.write_frame(engine);

  const auto grid = read(dir / "outlines_00001.vtu");
  ASSERT_EQ(grid->GetNumberOfCells(), 14);  // the grains; the wall is in walls_*.vtu
  auto* id = vtkIntArray::SafeDownCast(grid->GetCellData()->GetArray("id"));
  auto* velocity = vtkDoubleArray::SafeDownCast(grid->GetCellData()->GetArray("velocity"));
  auto* omega = vtkDoubleArray::SafeDownCast(grid->GetCellData()->GetArray("angular_velocity"));
  ASSERT_TRUE(id && velocity && omega);
  for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
    const int body = id->GetValue(c);
    EXPECT_EQ(velocity->GetComponent(c, 0), engine.world().velocity[body].x);
    EXPECT_EQ(velocity->GetComponent(c, 1), engine.world().velocity[body].y);
    EXPECT_EQ(omega->GetValue(c), engine.world().angular_velocity[body]);
  }
  auto* time = vtkDoubleArray::SafeDownCast(grid->GetFieldData()->GetArray("TimeValue"));
  ASSERT_NE(time, nullptr);
  EXPECT_EQ(time->GetValue(0), engine.time());

  // Contacts: one line per touching pair; their count matches the engine's.
  std::set<std::pair<int, int>> touching;
  for (const Contact& c : engine.contacts())
    if (c.active) touching.insert(std::minmax(c.vertex_body, c.edge_body));
  EXPECT_EQ(read(dir / "contacts_00001.vtu")->GetNumberOfCells(), static_cast<vtkIdType>(touching.size()));
  EXPECT_GT(touching.size(), 0u);

  // The collection lists both frames with their times.
  std::ifstream pvd(dir / "state.pvd");
  std::stringstream text;
  text << pvd.rdbuf();
  EXPECT_NE(text.str().find("timestep=\"0\" part=\"0\" file=\"state_00000.vtu\""), std::string::npos);
  EXPECT_NE(text.str().find(fmt::format("timestep=\"{}\" part=\"0\" file=\"state_00001.vtu\"", engine.time())),
            std::string::npos)
      << text.str();

  // energy.csv: a units header, then one row per frame whose ledger columns
  // are the engine's.
  std::ifstream csv(dir / "energy.csv");
  std::vector<std::string> lines;
  for (std::string line; std::getline(csv, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[1].rfind("time_s,step,kinetic_translational_J", 0), 0u);
  EXPECT_EQ(lines[3].rfind(
                fmt::format("{},{},{}", engine.time(), engine.step_count(), engine.ledger().kinetic_translational), 0),
            0u);
  fs::remove_all(dir);
}

TEST(RunOutput, AWriterKilledMidRunLeavesOnlyWholeFiles) {
  const fs::path dir = fresh_directory("sphero_kill_test");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Engine engine = small_engine();
    RunOutput output(dir, engine.world(), 256, {"outlines", "contacts", "walls"});
    for (;;) {  // frames as fast as it can, until killed
      engine.step();
      output.write_frame(engine);
    }
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  int frames = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name[0] == '.') continue;  // a temporary file the kill interrupted: never renamed into place
    if (entry.path().extension() == ".vtu") {
      read(entry.path());
      ++frames;
    }
  }
  EXPECT_GT(frames, 10);
  // Each collection names only files that exist and read.
  std::ifstream pvd(dir / "state.pvd");
  std::stringstream buffer;
  buffer << pvd.rdbuf();
  const std::string collection = buffer.str();
  const std::regex file_entry("file=\"([^\"]+)\"");
  int listed = 0;
  for (auto it = std::sregex_iterator(collection.begin(), collection.end(), file_entry); it != std::sregex_iterator();
       ++it) {
    EXPECT_TRUE(fs::exists(dir / (*it)[1].str())) << (*it)[1].str();
    ++listed;
  }
  EXPECT_GT(listed, 3);
  EXPECT_NE(collection.find("</VTKFile>"), std::string::npos);
  fs::remove_all(dir);
}

TEST(RunManifest, APeriodicCellReadsBackAsItWasWritten) {
  const fs::path dir = fs::temp_directory_path() / "sphero_run_manifest";
  fs::remove_all(dir);
  fs::create_directories(dir);
  RunManifest written;
  written.arc_resolution = 12;
  written.fields = {"outlines", "state"};
  written.shapes = "shapes.vtu";
  written.cell.periodic = {true, false};
  written.cell.low = {0.0, -10.0}, written.cell.size = {20.0, 50.0};
  written.lineage = RunLineage::begun(RunIdentity::fresh());
  std::ofstream(dir / "run.sphero") << run_manifest_text(written);
  const RunManifest read = read_run_manifest(dir / "run.sphero");
  EXPECT_EQ(read.format, kRunManifestFormat);
  EXPECT_EQ(read.arc_resolution, 12);
  EXPECT_EQ(read.fields, written.fields);
  EXPECT_EQ(read.cell.periodic, written.cell.periodic);
  EXPECT_EQ(read.cell.low, written.cell.low);
  EXPECT_EQ(read.cell.size, written.cell.size);
  EXPECT_EQ(read.shapes, written.shapes);
  EXPECT_EQ(read.lineage, written.lineage);
  EXPECT_EQ(run_in_folder(dir), written.lineage.run);
  // A format-2 manifest (no periodic line) reads as not periodic.
  std::ofstream(dir / "old.sphero") << "# Sphero run\nformat = 2\narc_resolution = 16\nfields = particles\n";
  const RunManifest old = read_run_manifest(dir / "old.sphero");
  EXPECT_EQ(old.format, 2);
  EXPECT_FALSE(old.cell.periodic[0] || old.cell.periodic[1]);
  EXPECT_FALSE(old.lineage.run.known() || old.lineage.parent.known());
  for (const auto& [line, words] : std::vector<std::pair<std::string, std::string>>{
           {"arc_resolution = 2", "old.sphero:2: arc_resolution must be a whole number from 3 to 4096"},
           {"cell = 5,0,1,1", "cell must be X0,Y0,X1,Y1 with X0 < X1 and Y0 < Y1"},
           {"periodic = xy", "periodic must be none, x, y or x,y"},
           {"run = 0123", "run must be a run's identity, 32 hexadecimal digits, not '0123'"},
           {"parent = 00000000000000000000000000000000", "parent must be a run's identity"},
           {"run = 0123456789ABCDEF0123456789abcdef", "run must be a run's identity"}}) {
    std::ofstream(dir / "old.sphero") << "# Sphero run\n" << line << "\n";
    try {
      read_run_manifest(dir / "old.sphero");
      ADD_FAILURE() << "accepted " << line;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  }
}

// A run's identity is 128 bits from the system's random source, written
// as 32 hexadecimal digits and read back; anything else is no identity.
TEST(RunIdentity, IsFreshEachTimeAndReadsBackFromItsText) {
  const RunIdentity a = RunIdentity::fresh(), b = RunIdentity::fresh();
  EXPECT_TRUE(a.known());
  EXPECT_NE(a, b);
  EXPECT_EQ(a.text().size(), 32u);
  EXPECT_EQ(RunIdentity::parse(a.text()), a);
  EXPECT_EQ(RunIdentity{}.text(), "unknown");
  for (const char* bad : {"", "unknown", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdefa",
                          "0123456789abcdef0123456789abcdeg", "-123456789abcdef0123456789abcdef"})
    EXPECT_FALSE(RunIdentity::parse(bad)) << bad;
  const RunLineage branch = RunLineage::begun(a);
  EXPECT_EQ(branch.parent, a);
  EXPECT_TRUE(branch.run.known() && branch.run != a);
}

}  // namespace
}  // namespace sphero
