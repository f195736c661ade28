#include "run/run_start.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "io/checkpoint.h"
#include "io/frame_reader.h"
#include "io/run_manifest.h"
#include "io/stage.h"
#include "run/restart_check.h"

namespace sphero {
namespace {

// A restart continues to the scene's end: a checkpoint at or past it has
// nothing left to run, and a duration that ends before it is a mistake.
void refuse_a_restart_past_the_end(const EngineSnapshot& checkpoint, const std::vector<StagePlan>& stages,
                                   const EngineSnapshot& first, const std::string& file) {
  const long end = stages.back().end_step;
  if (checkpoint.step < end) return;
  const double end_at = end_time(stages, first.step, first.time);
  throw SceneError(fmt::format(
      "{}: the checkpoint is at t = {:.6g} s (step {}), and the scene {} at t = {:.6g} s (step {}): nothing is left to "
      "run. To continue it, {}",
      file, checkpoint.time, checkpoint.step, checkpoint.step == end ? "ends there too" : "ends before it", end_at, end,
      stages.size() == 1 ? fmt::format("give a duration above {:.6g} s (--duration)", checkpoint.time - first.time)
                         : fmt::format("lengthen stage {}'s duration", stages.back().name)));
}

// A scene's settings with the checkpoint's rigid solver and tolerance
// where the scene leaves them to their defaults: a run begun under older
// defaults restarts under its scene as it ran.
EngineSettings with_unstated_solver_of(const EngineSnapshot& checkpoint, const SceneConfig& scene,
                                       EngineSettings settings) {
  if (!scene.rigid_solver_given) settings.rigid.solver = checkpoint.settings.rigid.solver;
  if (!scene.rigid_tolerance_given) settings.rigid.qp_tolerance = checkpoint.settings.rigid.qp_tolerance;
  return settings;
}

}  // namespace

EngineSnapshot first_stage_state(const SceneConfig& scene, const std::filesystem::path& from,
                                 std::vector<BodySource>* sources, const Progress& progress) {
  EngineSnapshot state;
  if (!from.empty()) {
    state = load_checkpoint(from);
    start_stage_from(scene, state, from.string());
    state.lineage = RunLineage::begun(state.lineage.run);  // a run of its own, its parent's recorded
    return state;
  }
  state.world = build_world(scene, progress, sources);
  state.settings = resolve_engine_settings(scene, state.world);
  state.lineage = RunLineage::begun();
  return state;
}

RunStart start_run(const SceneConfig& scene, EngineSnapshot first, bool fresh, const std::filesystem::path& restart,
                   const StageVisit& check) {
  RunStart run;
  std::optional<EngineSnapshot> checkpoint;
  if (!restart.empty()) checkpoint = load_checkpoint(restart);
  bool placed = false;           // the checkpoint's stage found and checked
  bool regions_removed = false;  // by a stage so far, which the plan keeps (io/stage.h)
  run.stages = plan_stages(scene, first, [&](std::size_t k, const StagePlan& plan, const EngineSnapshot& stage) {
    if (k > 0)
      for (const RemovalSpec& r : scene.stages[k - 1].removals) regions_removed = regions_removed || r.region;
    if (check) check(k, plan, stage);
    if (k == 0) run.columns = wall_columns(stage.world);
    for (const WallColumns& wall : wall_columns(stage.world)) add_wall_columns(run.columns, wall);
    // A checkpoint belongs to the first stage that ends at or after its
    // step (the last, for a run already at its end).
    if (!checkpoint || placed || (checkpoint->step > plan.end_step && k < scene.stages.size())) return;
    placed = true;
    run.stage = k;
    check_restart(*checkpoint, stage.world, with_unstated_solver_of(*checkpoint, scene, stage.settings),
                  restart.string(), scene.source, regions_removed);
  });
  if (!checkpoint) {
    run.state = std::move(first);
    run.fresh = fresh;
    return run;
  }
  refuse_a_restart_past_the_end(*checkpoint, run.stages, first, restart.string());
  run.state = std::move(*checkpoint);
  // A restart into the folder of the checkpoint's run continues that run;
  // into another folder it is a branch, a run of its own; a checkpoint
  // written before runs had identities restarts as a run of its own.
  run.continued = run.state.lineage.run;
  if (!run.continued.known()) run.state.lineage = RunLineage::begun();
  else if (!folder_holds_run_of(scene.output_directory, restart, run.continued))
    run.state.lineage = RunLineage::begun(run.continued);
  return run;
}

int first_frame_number(const std::filesystem::path& from, double time) {
  const std::filesystem::path parent = from.has_parent_path() ? from.parent_path() : std::filesystem::path(".");
  int next = 0;
  try {
    const std::filesystem::path index = parent / frame_index_collection(parent);
    if (!std::filesystem::exists(index)) return 0;
    for (const CollectionEntry& frame : read_collection(index))
      if (frame.time < time - 1e-12 * std::abs(time)) next = frame_number(frame) + 1;
  } catch (const std::exception&) {
    return 0;  // the numbers only: the run does not need its parent's frames
  }
  return next;
}

std::unique_ptr<Engine> RunStart::engine() {
  if (!fresh) return std::make_unique<Engine>(std::move(state));
  auto engine = std::make_unique<Engine>(std::move(state.world), state.settings);
  engine->set_lineage(state.lineage);
  return engine;
}

}  // namespace sphero
