// The time-step limit and the instability checks (engine/stability.h): a
// refused step names its numbers, an unstable run stops with a message.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "physics/scenes.h"

namespace sphero {
namespace {

using test::disk;
using test::linear_law;
using test::world_of;

TEST(TimeStep, TooLargeIsRefusedWithTheNumbers) {
  std::vector<BodySpec> bodies{disk({0, 0}, 0.5), disk({2, 0}, 0.5)};
  EngineSettings s;
  s.dt = 0.1;
  s.verlet_distance = 0.05;
  try {
    Engine e(world_of(bodies, linear_law(1e4)), s);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& err) {
    const std::string message = err.what();
    EXPECT_NE(message.find("dt = 0.1 is above a tenth of the shortest contact period"), std::string::npos) << message;
    EXPECT_NE(message.find("k_n = 10000"), std::string::npos) << message;
  }
  s.allow_large_time_step = true;
  EXPECT_NO_THROW(Engine(world_of(bodies, linear_law(1e4)), s));
}

// A floor driven at 1 m/s under disks of sphero-radius 0.5 with dt 1e-3 s:
// 1 mm a step, well within half the radius; at 300 m/s, 0.3 m, beyond it.
TEST(WallSteps, AWallThatCrossesMoreThanHalfTheThinnestLayerInAStepIsRefused) {
  const auto engine_with = [](Vec2 velocity, Vibration vibration) {
    BodySpec floor = test::wall({{-5, 0}, {5, 0}}, 0.1);
    floor.constraint.imposed_velocity = {velocity.x, velocity.y, 0.0};
    floor.constraint.vibration = vibration;
    EngineSettings s;
    s.dt = 1e-3;
    s.verlet_distance = 0.05;
    return Engine(world_of({floor, disk({0, 1}, 0.5)}, linear_law(1e4)), s);
  };
  EXPECT_NO_THROW(engine_with({0, 1}, {}));
  EXPECT_NO_THROW(engine_with({0, 240}, {}));  // 0.24 m a step
  try {
    engine_with({0, 300}, {});
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("wall wall0 moves 0.3 m in one step of 0.001 s, more than 0.25 m"), std::string::npos)
        << message;
    EXPECT_NE(message.find("lower dt to at most 0.000833333 s"), std::string::npos) << message;
  }
  // A vibration: its peak speed 2π f A counts, and so do its steps a cycle.
  Vibration shaken;
  shaken.frequency = 10.0, shaken.amplitude = {0.0, 5.0};  // 314 m/s at its peak
  EXPECT_THROW(engine_with({}, shaken), std::invalid_argument);
  shaken.frequency = 60.0, shaken.amplitude = {0.0, 1e-4};  // 16.7 steps a cycle
  try {
    engine_with({}, shaken);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("fewer than the 20 that follow its motion"), std::string::npos) << e.what();
  }
  shaken.frequency = 40.0;
  EXPECT_NO_THROW(engine_with({}, shaken));
}

TEST(Instability, AForcedHugeTimeStepStopsWithAMessage) {
  std::vector<BodySpec> bodies{disk({0, 0}, 0.5, {1, 0}), disk({1.05, 0}, 0.5, {-1, 0})};
  EngineSettings s;
  s.dt = 0.05;  // the contact period is 0.056
  s.verlet_distance = 0.05;
  s.allow_large_time_step = true;
  Engine e(world_of(bodies, linear_law(1e4)), s);
  try {
    e.run(1000);
    FAIL() << "no instability detected";
  } catch (const InstabilityError& err) {
    const std::string message = err.what();
    EXPECT_NE(message.find("unstable at step"), std::string::npos) << message;
    EXPECT_NE(message.find("body"), std::string::npos) << message;
    EXPECT_NE(message.find("time step"), std::string::npos) << message;
  }
}

// The energy check's bound is a hundred times the energy given; from half
// of it on, a run checks its exact ledger instead of its running sums.
TEST(Instability, TheEnergyCheckLooksAtTheExactLedgerNearItsBound) {
  EnergyLedger l;
  l.initial_mechanical = 1.0;
  l.gravitational = 0.0;
  l.kinetic_translational = 40.0;
  EXPECT_FALSE(near_energy_bound(l, 0.0));
  l.kinetic_translational = 60.0;
  EXPECT_TRUE(near_energy_bound(l, 0.0));
  EXPECT_FALSE(near_energy_bound(l, 1.0));  // the vibrating walls' energy counts as given
  const World w = world_of({disk({0, 0}, 0.5)}, linear_law(1e4));
  StabilityContext run;
  EXPECT_NO_THROW(check_energy(w, l, 0, run));
  l.elastic_normal = 41.0;  // 101 held for 1 given
  EXPECT_THROW(check_energy(w, l, 0, run), InstabilityError);
}

TEST(TimeStep, TheDefaultIsAFifthOfTheLargestAccepted) {
  const World w = world_of({disk({0, 0}, 0.5), disk({2, 0}, 0.5)}, linear_law(1e4));
  EngineSettings s;
  s.dt = default_time_step(w);
  s.verlet_distance = 0.05;
  // 2π sqrt(m / k) with m = π 0.5² (density 1): a fiftieth of it.
  const double period = 2.0 * std::numbers::pi * std::sqrt(std::numbers::pi * 0.25 / 1e4);
  EXPECT_NEAR(s.dt, period / 50.0, 1e-12 * period);
  EXPECT_NEAR(check_time_step(w, s), period / 10.0, 1e-12 * period);
}

}  // namespace
}  // namespace sphero
