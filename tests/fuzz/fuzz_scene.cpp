// libFuzzer target: any bytes as a scene, then the world it builds (shapes
// from the library beside the scenes) and its later stages applied to that
// world in turn.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/scene.h"
#include "io/stage.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const sphero::SceneConfig scene =
        sphero::parse_scene(std::string(reinterpret_cast<const char*>(data), size), "fuzz.ini", SPHERO_SCENES_DIR);
    sphero::EngineSnapshot state;
    state.world = sphero::build_world(scene);
    state.settings = sphero::resolve_engine_settings(scene, state.world);
    for (const sphero::StageSpec& stage : scene.stages) sphero::apply_stage(stage, state);
  } catch (const std::exception&) {
  }
  return 0;
}
