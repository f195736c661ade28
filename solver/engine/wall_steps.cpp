#include "engine/wall_steps.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "engine/wall_label.h"

namespace sphero {
namespace {

// The fastest any point of wall i moves under its imposed motion.
double fastest_imposed_speed(const World& w, std::size_t i) {
  const BodyConstraint& c = w.constraint[i];
  const std::array<double, 3> steady = c.steady_imposed_velocity();
  double speed = std::hypot(c.held[dof_x] ? steady[0] : 0.0, c.held[dof_y] ? steady[1] : 0.0);
  if (c.held[dof_rotation]) speed += std::abs(steady[2]) * w.bounding_radius[i];
  if (c.vibration.on()) speed += 2.0 * std::numbers::pi * c.vibration.frequency * norm(c.vibration.amplitude);
  return speed;
}

std::string thinnest_layer(double bound) {
  return fmt::format("{:g} m, {:g} times the smallest grain's sphero-radius ({:g} m)", bound, kWallStepFraction,
                     bound / kWallStepFraction);
}

}  // namespace

double wall_step_bound(const World& w) {
  double thinnest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!w.is_wall[i] && w.radius[i] > 0.0) thinnest = std::min(thinnest, w.radius[i]);
  return kWallStepFraction * thinnest;
}

std::string wall_step_problem(const World& w, std::size_t i, int number, double moved, double bound, double dt) {
  if (!(moved > bound)) return {};
  return fmt::format("wall {} moves {:g} m in one step of {:g} s, more than {}: it could pass through grains unseen",
                     wall_label(w, i, number), moved, dt, thinnest_layer(bound));
}

std::string wall_speed_problem(const World& w, double dt) {
  const double bound = wall_step_bound(w);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!w.is_wall[i]) continue;
    const double speed = fastest_imposed_speed(w, i);
    if (const std::string problem = wall_step_problem(w, i, static_cast<int>(i), speed * dt, bound, dt);
        !problem.empty())
      return fmt::format(
          "{} (at {:g} m/s); lower dt to at most {:g} s or slow the wall", problem, speed, bound / speed);
  }
  return {};
}

void check_wall_steps(const World& w, const EngineSettings& settings) {
  const double dt = settings.dt;
  // Events time a moving wall's contacts as a grain's: no speed passes
  // through a grain (the steps they hand over are checked then).
  const bool swept = settings.model == Model::rigid && settings.rigid.events;
  if (const std::string problem = swept ? std::string() : wall_speed_problem(w, dt); !problem.empty())
    throw std::invalid_argument(problem);
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!w.is_wall[i]) continue;
    const Vibration& v = w.constraint[i].vibration;
    if (v.on() && 1.0 / (v.frequency * dt) < kFewestStepsPerCycle)
      throw std::invalid_argument(fmt::format(
          "wall {} vibrates at {:g} Hz, {:g} steps of {:g} s a cycle, fewer than the {:g} that follow its motion; "
          "lower dt to at most {:g} s or the frequency",
          wall_label(w, i, static_cast<int>(i)), v.frequency, 1.0 / (v.frequency * dt), dt, kFewestStepsPerCycle,
          1.0 / (kFewestStepsPerCycle * v.frequency)));
  }
}

}  // namespace sphero
