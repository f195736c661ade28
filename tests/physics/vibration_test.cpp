// Vibrating and tapping walls (Vibration, engine/wall_vibration.h): the
// wall on its sine at every step's end in every stepper, a grain that
// leaves a tapped floor at the phase where the floor falls faster than
// gravity and flies as a projectile, and the first law with the drive's
// work.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "engine/engine.h"
#include "engine/wall_vibration.h"
#include "physics/scenes.h"

namespace sphero {
namespace {

using test::disk;
using test::wall;

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.81;

BodySpec tapping_floor(double amplitude, double frequency, double tap_interval) {
  BodySpec floor = wall({{-5, 0}, {5, 0}}, 0.1);
  floor.constraint.held = {true, true, true};
  floor.constraint.vibration.amplitude = {0.0, amplitude};
  floor.constraint.vibration.frequency = frequency;
  floor.constraint.vibration.tap_interval = tap_interval;
  return floor;
}

World with_rigid_law(World w, double restitution) {
  RigidLaw law;
  law.restitution = restitution;
  w.rigid_law = {law};
  return w;
}

EngineSettings rigid_settings(double dt, bool events) {
  EngineSettings s;
  s.model = Model::rigid;
  s.dt = dt;
  s.verlet_distance = 0.01;
  s.rigid.gap = 1e-4;
  s.rigid.overlap_tolerance = 1e-3;
  s.rigid.events = events;
  return s;
}

EngineSettings soft_settings(double dt, Integrator integrator) {
  EngineSettings s;
  s.dt = dt;
  s.integrator = integrator;
  s.verlet_distance = 0.01;
  return s;
}

TEST(Vibration, TheDisplacementIsASineContinuouslyOrOneCyclePerTap) {
  Vibration v{{0.0, 0.2}, 4.0, 0.0, {}};
  EXPECT_NEAR(vibration_displacement(v, 1.0 / 16).y, 0.2, 1e-15);
  EXPECT_NEAR(vibration_displacement(v, 10.0 + 3.0 / 16).y, -0.2, 1e-13);
  v.tap_interval = 1.0;
  EXPECT_NEAR(vibration_displacement(v, 7.0 + 1.0 / 16).y, 0.2, 1e-13);
  EXPECT_EQ(vibration_displacement(v, 7.5).y, 0.0);   // at rest between taps
  EXPECT_EQ(vibration_displacement(v, 7.25).y, 0.0);  // the cycle ends at 1/f
}

TEST(Vibration, SettingsThatNoStepperCanFollowAreRefused) {
  BodyConstraint c;
  c.held = {true, true, true};
  c.vibration = {{0.0, 0.1}, 2.0, 0.4, {}};  // taps closer than a cycle
  EXPECT_THROW(check_vibration(c), std::invalid_argument);
  c.vibration.tap_interval = 0.5;
  EXPECT_NO_THROW(check_vibration(c));
  c.vibration.frequency = -1.0;
  EXPECT_THROW(check_vibration(c), std::invalid_argument);
  c.vibration.frequency = NAN;
  EXPECT_THROW(check_vibration(c), std::invalid_argument);
  const BodyConstraint plate = pressure_plate(1.0, 1.0, {0, -1});
  c = plate;
  c.vibration = {{0.0, 0.1}, 2.0, 0.0, {}};  // along the pressure
  EXPECT_THROW(check_vibration(c), std::invalid_argument);
  c.vibration.amplitude = {0.1, 0.0};  // across it
  EXPECT_NO_THROW(check_vibration(c));
}

// Every stepper leaves the floor exactly on its sine at each step's end
// (the chord between them), whatever it does in between.
TEST(Vibration, EachStepperKeepsTheWallOnItsSineAtTheStepEnds) {
  const double a = 0.3, f = 2.5, dt = 1e-3;
  const auto check = [&](World w, EngineSettings s, const char* name) {
    SCOPED_TRACE(name);
    Engine e(std::move(w), s);
    const double y0 = e.world().position[0].y;
    for (int k = 1; k <= 1500; ++k) {
      e.step();
      const double expected = y0 + vibration_displacement(e.world().constraint[0].vibration, e.time()).y;
      ASSERT_NEAR(e.world().position[0].y, expected, 1e-12) << "step " << k;
    }
    EXPECT_EQ(e.world().position[0].x, 0.0);
  };
  const auto bodies = [&] { return std::vector<BodySpec>{tapping_floor(a, f, 0.5), disk({0.0, 3.0}, 0.5)}; };
  check(test::world_of(bodies(), test::linear_law(1e4)), soft_settings(dt, Integrator::velocity_verlet), "verlet");
  check(test::world_of(bodies(), test::linear_law(1e4)), soft_settings(dt, Integrator::gear), "gear");
  check(with_rigid_law(test::world_of(bodies(), test::linear_law(1.0)), 0.0), rigid_settings(dt, false), "rigid steps");
  check(with_rigid_law(test::world_of(bodies(), test::linear_law(1.0)), 0.0), rigid_settings(dt, true), "rigid events");
}

// A disk resting on a floor tapped at Γ = a ω² / g = 2 rides it until the
// floor decelerates faster than gravity, at phase asin(1/Γ) = π/6, and then
// flies: its highest point is the take-off height plus v²/2g, 1.25 a above
// where it rested. Below Γ = 1 it never leaves the floor.
double highest_flight(World w, EngineSettings s, double amplitude, double frequency) {
  Engine e(std::move(w), s);
  const double rest = e.world().position[1].y;
  double highest = -INFINITY;
  const long steps = static_cast<long>(std::round(2.0 / frequency / s.dt));
  for (long k = 0; k < steps; ++k) {
    e.step();
    highest = std::max(highest, e.world().position[1].y - rest);
  }
  return highest / amplitude;
}

TEST(Vibration, ADiskLeavesATappedFloorAtTheRightPhaseAndFliesAsAProjectile) {
  const double f = 2.0, omega = 2.0 * kPi * f;
  const double dt = 2e-5;
  for (const double gamma : {0.5, 2.0}) {
    const double a = gamma * kG / (omega * omega);
    const double takeoff = gamma > 1.0 ? std::asin(1.0 / gamma) : kPi / 2;
    const double apex = gamma > 1.0 ? std::sin(takeoff) + gamma * std::pow(std::cos(takeoff), 2) / 2.0 : 1.0;
    const auto bodies = [&] {
      return std::vector<BodySpec>{tapping_floor(a, f, 4.0 / f), disk({0.0, 0.1 + 0.5 + 1e-5}, 0.5)};
    };
    for (const bool events : {false, true}) {
      SCOPED_TRACE(events ? "events" : "steps");
      const World w = with_rigid_law(test::world_of(bodies(), test::linear_law(1.0), {0.0, -kG}), 0.0);
      EXPECT_NEAR(highest_flight(w, rigid_settings(dt, events), a, f), apex, 2e-3) << "Γ = " << gamma;
    }
    // Soft contacts: stiff enough that the contact's own period (about
    // 6 ms) is short against the tap's 0.5 s, and damped near critically
    // (ζ = 0.85), so that the floor's jump in velocity as the tap starts
    // does not bounce the disk off it.
    SCOPED_TRACE("soft");
    const World soft = test::world_of(bodies(), test::linear_law(1e6, 1500.0), {0.0, -kG});
    EXPECT_NEAR(highest_flight(soft, soft_settings(dt, Integrator::velocity_verlet), a, f), apex, 1e-2)
        << "Γ = " << gamma;
  }
}

// Hexagons on a floor tapped at Γ = 3 with friction and damping: the
// ledger's external work includes what the drive spends on the floor's
// own inertia and against the grains, so the first law closes, and its
// residual falls with the time step.
double first_law_residual_share(double dt) {
  std::vector<BodySpec> bodies{
      tapping_floor(0.1, 3.0, 0.5), wall({{-5, 0}, {-5, 6}}, 0.1), wall({{5, 0}, {5, 6}}, 0.1)};
  for (int row = 0; row < 3; ++row)
    for (int k = 0; k < 7; ++k)
      bodies.push_back(test::regular_polygon_body(6, 0.5, 0.1, {-3.9 + 1.3 * k + 0.3 * (row % 2), 0.8 + 1.2 * row}));
  const World w = test::world_of(bodies, test::linear_law(1e5, 5.0, 5e4, 0.5), {0.0, -kG});
  Engine e(w, soft_settings(dt, Integrator::velocity_verlet));
  e.run(static_cast<long>(std::round(1.5 / dt)));
  EXPECT_GT(e.ledger().external_work, 10.0);
  return std::abs(e.ledger().first_law_residual()) / e.ledger().external_work;
}

TEST(Vibration, TheFirstLawClosesWithTheDrivesWork) {
  const double coarse = first_law_residual_share(1e-4), fine = first_law_residual_share(2.5e-5);
  EXPECT_LT(coarse, 2e-3);
  EXPECT_LT(fine, coarse / 3.0);
}

}  // namespace
}  // namespace sphero
