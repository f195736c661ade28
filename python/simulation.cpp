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

Simulation::Busy::Busy(const Simulation& s) : simulation_(s) {
  std::thread::id none{};
  if (!s.runner_.compare_exchange_strong(none, std::this_thread::get_id()))
    throw std::runtime_error(
        "this Simulation is already running (run() was called again, from another thread or a callback); one run "
        "at a time: wait for it, or make a Simulation per thread");
}

Simulation::Busy::~Busy() { simulation_.runner_.store(std::thread::id{}); }

void Simulation::require_idle() const {
  const std::thread::id runner = runner_.load();
  if (runner != std::thread::id{} && runner != std::this_thread::get_id())
    throw std::runtime_error(
        "this Simulation is running in another thread; read its state between runs (a callback of run() may)");
}

FrameData Simulation::frame() const {
  const TemporaryFolder folder;
  RunOutput(
      folder.path, engine_.world(), arc_resolution_, {"particles", "contacts", "walls", "state", "contact_points"})
      .write_frame(engine_);
  return read_frame(folder.path, 0);
}

}  // namespace sphero::python
