// How far a wall may move in one time step. Contacts see a grain only while
// the wall's outline overlaps its rounded layer, so a wall that crosses more
// than a fraction of the thinnest layer in one step can pass through grains
// unseen (docs/SCENES.md, "How fast a wall may move").
#pragma once

#include <string>

#include "engine/engine_settings.h"
#include "engine/world.h"

namespace sphero {

// The fraction of the smallest grain's sphero-radius a wall may cross in a
// step, and the fewest steps a vibration's cycle may take.
inline constexpr double kWallStepFraction = 0.5;
inline constexpr double kFewestStepsPerCycle = 20.0;

// kWallStepFraction of the smallest positive sphero-radius among the
// grains: infinite without grains, or where every grain's is zero.
double wall_step_bound(const World& w);

// Refuses, with std::invalid_argument naming the wall and the numbers, an
// imposed wall motion (steady velocity, vibration, rotation) whose fastest
// point crosses more than wall_step_bound in one step of settings.dt
// (except with stepping = events, which sweeps walls exactly), and a
// vibration of fewer than kFewestStepsPerCycle steps a cycle. Pressure
// plates move as the grains let them: the run checks their every step.
void check_wall_steps(const World& w, const EngineSettings& settings);

// Empty, or what is wrong with the first wall whose imposed motion's
// fastest point crosses more than wall_step_bound in a time step of `dt`,
// with the dt that would do.
std::string wall_speed_problem(const World& w, double dt);

// Empty, or what is wrong with wall i, number `number` in the run, having
// moved `moved` in one step (a pressure plate's check after each step).
std::string wall_step_problem(const World& w, std::size_t i, int number, double moved, double bound, double dt);

}  // namespace sphero
