// run_scene SCENE.ini FOLDER [--KEY VALUE ...]: runs a scene (its keys
// overridden as on sphero run's command line) through its stages into a new
// FOLDER as `sphero run` does, with the run driver: frames, energy.csv,
// checkpoints at the scene's interval and final.ckpt; a stop request
// (Ctrl-C) ends it with its last good state saved.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/checkpoint.h"
#include "io/folder_lock.h"
#include "io/run_output.h"
#include "io/scene.h"
#include "run/checkpoint_observer.h"
#include "run/frame_observers.h"
#include "run/run_driver.h"
#include "run/run_start.h"
#include "run/serial_run.h"
#include "run/stage_plan.h"
#include "run/stop_request.h"

int main(int argc, char** argv) {
  if (argc < 3 || argc % 2 == 0) {
    std::fprintf(stderr, "usage: run_scene SCENE.ini FOLDER [--KEY VALUE ...]\n");
    return 2;
  }
  try {
    const std::filesystem::path folder = argv[2];
    std::vector<std::string> overrides{"--output", folder.string()};
    overrides.insert(overrides.end(), argv + 3, argv + argc);
    const sphero::SceneConfig scene = sphero::read_scene(argv[1], overrides);
    // A new run from the scene's world (no --from, no --restart).
    sphero::RunStart start = sphero::start_run(scene, sphero::first_stage_state(scene, {}), true, {});
    const auto engine_of = [](sphero::EngineSnapshot state) {
      return std::make_unique<sphero::Engine>(std::move(state));
    };
    sphero::SerialRun run(start.engine(), engine_of);
    sphero::RunDriver driver(run, start.stages, start.stage);
    // A new folder, claimed for this run alone, then its files.
    if (std::filesystem::exists(folder) && !std::filesystem::is_empty(folder)) {
      std::fprintf(stderr, "run_scene: %s already holds files; give a new folder\n", folder.c_str());
      return 2;
    }
    std::filesystem::create_directories(folder);
    sphero::FolderLock claim = sphero::FolderLock::claim(folder, "run_scene", false, {});
    sphero::RunOutput output(folder, start.columns, run.engine().world().cell, scene.arc_resolution,
                             sphero::run_fields(scene).all, std::nullopt, run.engine().lineage());
    output.hold(std::move(claim));
    sphero::SerialFrames frames(run, output, false);
    sphero::CheckpointObserver checkpoints(run, folder / "checkpoint.ckpt");
    driver.observe(frames);
    driver.observe(checkpoints);
    sphero::stop_on_signals();
    driver.start();
    const sphero::RunOutcome outcome = driver.run();
    if (outcome.ending != sphero::RunOutcome::Ending::finished) {
      std::fprintf(stderr, "run_scene: stopped at t = %g s; its last good state is in %s\n", run.time(),
                   checkpoints.path().c_str());
      return 3;
    }
    sphero::save_checkpoint(folder / "final.ckpt", run.engine().snapshot());
    std::printf("run %s: %d frames, %ld steps, t = %.6g s\n", run.engine().lineage().run.text().c_str(),
                output.frames_written(), run.step_count(), run.time());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "run_scene: %s\n", e.what());
    return 1;
  }
}
