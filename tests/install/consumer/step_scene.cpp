// step_scene SCENE.ini STEPS: reads a scene as `sphero run` does, steps it
// with the engine and prints what a user would check.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "engine/engine.h"
#include "io/scene.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: step_scene SCENE.ini STEPS\n");
    return 2;
  }
  try {
    const sphero::SceneConfig scene = sphero::read_scene(argv[1]);
    sphero::World world = sphero::build_world(scene);
    const sphero::EngineSettings settings = sphero::resolve_engine_settings(scene, world);
    sphero::Engine engine(std::move(world), settings);
    engine.run(std::atol(argv[2]));
    const sphero::EnergyLedger& ledger = engine.ledger();
    std::printf("bodies %zu steps %ld time %.6g kinetic %.6g first_law_residual %.3g\n", engine.world().size(),
                engine.step_count(), engine.time(), ledger.kinetic_translational + ledger.kinetic_rotational,
                ledger.first_law_residual());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "step_scene: %s\n", e.what());
    return 1;
  }
}
