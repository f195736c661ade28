#include "simulation.h"

#include <unistd.h>

#include <string>

#include "app/opencl_backend.h"
#include "io/frame_reader.h"
#include "io/run_output.h"

namespace sphero::python {
namespace {

// The engine as `sphero run` makes it, on the backend the scene asks for.
Engine engine_of(const SceneConfig& scene) {
  World world = build_world(scene);
  const EngineSettings settings = resolve_engine_settings(scene, world);
  Engine engine(std::move(world), settings);
  if (scene.backend == Backend::opencl) app::use_opencl_backend(engine, scene.source);
  return engine;
}

// A folder of our own under the system's temporary one, removed on leaving.
struct TemporaryFolder {
  std::filesystem::path path;
  TemporaryFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "sphero-frame-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot make a temporary folder for the frame");
    path = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

Simulation::Simulation(const SceneConfig& scene) : engine_(engine_of(scene)), arc_resolution_(scene.arc_resolution) {}

FrameData Simulation::frame() const {
  const TemporaryFolder folder;
  RunOutput(
      folder.path, engine_.world(), arc_resolution_, {"particles", "contacts", "walls", "state", "contact_points"})
      .write_frame(engine_);
  return read_frame(folder.path, 0);
}

}  // namespace sphero::python
