#include "run/stage_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "io/run_output.h"
#include "io/stage.h"

namespace sphero {
namespace {

// The steps between writes of `interval` seconds (0: none).
long every(double interval, double dt, const std::string& key) {
  return interval > 0.0 ? std::max(1L, steps_in(interval, dt, key)) : 0;
}

}  // namespace

long steps_in(double seconds, double dt, const std::string& key) {
  constexpr double kMostSteps = 1e12;
  const double steps = seconds / dt;
  if (!(steps >= 0.0 && steps <= kMostSteps))
    throw std::invalid_argument(fmt::format(
        "{} = {} s with dt = {} s is {} steps; a run takes at most {:g} (shorten {} or lengthen dt)", key, seconds, dt,
        std::isfinite(steps) ? fmt::format("{:.6g}", steps) : "more than 1e308", kMostSteps, key));
  return std::lround(steps);
}

RunFields run_fields(const SceneConfig& scene) {
  RunFields fields;
  fields.per_stage.push_back(scene.fields);
  for (const StageSpec& stage : scene.stages)
    fields.per_stage.push_back(stage.fields.value_or(fields.per_stage.back()));
  std::vector<std::string> any_stage;
  for (const auto& stage : fields.per_stage) any_stage.insert(any_stage.end(), stage.begin(), stage.end());
  fields.all = in_frame_order(any_stage);
  // The field every frame is found by (RunOutput's frames collection).
  const std::string index = index_field(fields.all);
  if (std::find(fields.all.begin(), fields.all.end(), index) == fields.all.end()) return fields;
  for (std::size_t k = 0; k < fields.per_stage.size(); ++k) {
    const auto& stage = fields.per_stage[k];
    if (std::find(stage.begin(), stage.end(), index) != stage.end()) continue;
    const std::string where =
        k == 0 ? fmt::format("{}: fields", scene.source)
               : fmt::format("{}: stage {}: fields", scene.stages[k - 1].at.where, scene.stages[k - 1].name);
    throw SceneError(fmt::format(
        "{} leaves out {}, which every frame of the run is found by (another stage writes it): keep it", where, index));
  }
  return fields;
}

std::vector<StagePlan> plan_stages(const SceneConfig& scene, const EngineSnapshot& start, const StageVisit& visit) {
  const RunFields fields = run_fields(scene);
  std::vector<StagePlan> plans;
  StagePlan first;
  first.name = "first";
  first.first_step = start.step;
  try {
    first.end_step = start.step + steps_in(scene.duration, start.settings.dt, "duration");
    first.frame_every = every(scene.output_interval, start.settings.dt, "output_interval");
    first.checkpoint_every = every(scene.checkpoint_interval, start.settings.dt, "checkpoint_interval");
  } catch (const std::invalid_argument& e) {
    throw SceneError(scene.source + ": " + e.what());
  }
  first.dt = start.settings.dt;
  first.fields = fields.per_stage.front();
  plans.push_back(first);
  if (visit) visit(0, plans.back(), start);
  if (scene.stages.empty()) return plans;
  EngineSnapshot state;  // the world and settings only: all a stage reads or changes
  state.world = start.world;
  state.settings = start.settings;
  double output_interval = scene.output_interval, checkpoint_interval = scene.checkpoint_interval;
  for (const StageSpec& stage : scene.stages) {
    apply_stage(stage, state, Placing::unplaced);
    if (stage.output_interval) output_interval = *stage.output_interval;
    if (stage.checkpoint_interval) checkpoint_interval = *stage.checkpoint_interval;
    const std::string where = fmt::format("stage {}'s ", stage.name);
    StagePlan plan;
    plan.spec = &stage;
    plan.name = stage.name;
    plan.first_step = plans.back().end_step;
    try {
      plan.end_step = plan.first_step + steps_in(stage.duration, state.settings.dt, where + "duration");
      plan.frame_every = every(output_interval, state.settings.dt, where + "output_interval");
      plan.checkpoint_every = every(checkpoint_interval, state.settings.dt, where + "checkpoint_interval");
    } catch (const std::invalid_argument& e) {
      throw SceneError(scene.source + ": " + e.what());
    }
    plan.dt = state.settings.dt;
    plan.fields = fields.per_stage[plans.size()];
    plans.push_back(plan);
    if (visit) visit(plans.size() - 1, plans.back(), state);
  }
  return plans;
}

double end_time(const std::vector<StagePlan>& stages, long step, double time) {
  for (const StagePlan& s : stages)
    if (s.end_step > step) time += static_cast<double>(s.end_step - std::max(step, s.first_step)) * s.dt;
  return time;
}

bool frame_at(const StagePlan& stage, long step, bool last_stage) {
  if (step == stage.end_step) return last_stage;
  return (step - stage.first_step) % stage.frame_every == 0;
}

bool checkpoint_at(const StagePlan& stage, long step) {
  return stage.checkpoint_every > 0 && (step - stage.first_step) % stage.checkpoint_every == 0;
}

}  // namespace sphero
