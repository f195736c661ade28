// libFuzzer target: any bytes as a scene, then the world it builds (shapes
// from the library beside the scenes).
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/scene.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const sphero::SceneConfig scene =
        sphero::parse_scene(std::string(reinterpret_cast<const char*>(data), size), "fuzz.ini", SPHERO_SCENES_DIR);
    (void)sphero::build_world(scene);
  } catch (const std::exception&) {
  }
  return 0;
}
