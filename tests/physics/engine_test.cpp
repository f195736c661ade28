// Whole-engine physics: conservation, friction, rolling, restitution, the
// first law with dissipation, and the time-step and instability guards.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "engine/engine_part.h"
#include "geometry/uniform.h"
#include "physics/scenes.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

using test::disk;
using test::linear_law;
using test::wall;
using test::world_of;

constexpr double kPi = std::numbers::pi;

std::vector<BodySpec> box_walls(double width, double height, double r) {
  return {wall({{0, 0}, {width, 0}, {width, height}, {0, height}, {0, 0}}, r)};
}

// A dilute, frictionless, undamped gas of non-convex particles (peanuts and
// L-shaped pebbles) in a box: returns the largest |E − E0| / E0 over a run.
double gas_energy_error(Integrator integrator, double dt, double duration) {
  std::vector<BodySpec> bodies = box_walls(16, 16, 0.05);
  const Shape peanut = read_shape_file(SPHERO_DATA_DIR "/shapes/peanut.shape");
  const Shape ell =
      make_shape("ell", SkeletonKind::polygon, {{0, 0}, {1, 0}, {1, 0.4}, {0.4, 0.4}, {0.4, 1}, {0, 1}}, 0.1);
  std::mt19937_64 g(11);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      BodySpec b;
      b.shape = (i + j) % 2 ? peanut : ell;
      b.position = {2.0 + 4.0 * i, 2.0 + 4.0 * j};
      b.angle = 2 * kPi * unit_uniform(g);
      const double heading = 2 * kPi * unit_uniform(g);
      b.velocity = 2.0 * Vec2{std::cos(heading), std::sin(heading)};
      b.angular_velocity = 2.0 * (unit_uniform(g) - 0.5);
      bodies.push_back(b);
    }
  EngineSettings s;
  s.dt = dt;
  s.integrator = integrator;
  s.verlet_distance = 0.1;
  Engine engine(world_of(bodies, linear_law(1e4)), s);
  const double e0 = engine.ledger().mechanical();
  double worst = 0.0;
  const long steps = std::lround(duration / dt);
  for (long k = 0; k < steps; ++k) {
    engine.step();
    worst = std::max(worst, std::abs(engine.ledger().mechanical() - e0) / e0);
  }
  return worst;
}

TEST(Conservation, FrictionlessGasOfNonConvexParticlesConservesEnergyToSecondOrder) {
  // Contact period 2π sqrt(m/k) ≈ 0.05 for the lightest particle (m ≈ 0.66).
  const double coarse = gas_energy_error(Integrator::velocity_verlet, 1e-3, 6.0);
  const double fine = gas_energy_error(Integrator::velocity_verlet, 5e-4, 6.0);
  std::printf(
      "velocity Verlet: max |ΔE|/E0 = %.3g (dt = 1e-3), %.3g (dt = 5e-4), ratio %.2f\n", coarse, fine, coarse / fine);
  RecordProperty("verlet_energy_error_dt_1e-3", std::to_string(coarse));
  EXPECT_LT(coarse, 5e-3);
  // Second order: halving dt divides the error by about four.
  EXPECT_GT(coarse / fine, 3.0);
}

// Runs until t_end and returns the largest |E − E0| / E0 and whether any
// contact was made.
std::pair<double, bool> energy_drift(Engine& e, double t_end) {
  const double e0 = e.ledger().mechanical();
  double worst = 0.0;
  bool touched = false;
  while (e.time() < t_end) {
    e.step();
    worst = std::max(worst, std::abs(e.ledger().mechanical() - e0) / e0);
    touched |= e.ledger().elastic() > 0.0;
  }
  return {worst, touched};
}

TEST(Conservation, SegmentsSlidingPastEachOthersEndsKeepTheirEnergy) {
  // Two rice grains lying along each other, overlapping, one sliding past
  // the other: each end passes the other's end while they still overlap.
  // A rule that drops the contact of a vertex leaving an edge at its end
  // (with the other's end counted alongside) jumps by ½ k δ² there.
  const double r = 0.2;
  for (double gap : {0.36, 0.38}) {
    SCOPED_TRACE(gap);
    BodySpec a = test::segment_body({-0.35, 0}, {0.35, 0}, r);
    BodySpec b = test::segment_body({0.45, gap}, {1.15, gap}, r);
    b.velocity = {-1.0, 0.0};
    EngineSettings s;
    s.dt = 2e-5;
    s.verlet_distance = 0.02;
    Engine e(world_of({a, b}, linear_law(2.0)), s);
    const auto [worst, touched] = energy_drift(e, 2.0);
    EXPECT_TRUE(touched);
    EXPECT_LT(worst, 1e-7);
  }
}

TEST(Conservation, ADiskSlidingThroughAShallowValleyKeepsItsEnergy) {
  // A frictionless disk sliding to and fro through the bottom of a shallow V
  // under gravity (a concave bend of a polyline): near the bottom it lies
  // beyond one edge's end on the inner side, where that edge must go on
  // counting, clamped to the bend, until the disk leaves it.
  std::vector<BodySpec> bodies{test::wall({{-3, 0.6}, {0, 0}, {3, 0.6}}, 0.05)};
  bodies.push_back(disk({-1.0, 0.2 + 0.55 / std::cos(std::atan(0.2)) - 0.08}, 0.5));
  EngineSettings s;
  s.dt = 2e-5;
  s.verlet_distance = 0.02;
  Engine e(world_of(bodies, linear_law(100.0), {0, -10}), s);
  const double e0 = e.ledger().mechanical();
  double worst = 0.0, kinetic = 0.0;
  int crossings = 0;
  double previous_x = e.world().position[1].x;
  while (e.time() < 4.0) {
    e.step();
    worst = std::max(worst, std::abs(e.ledger().mechanical() - e0));
    kinetic = std::max(kinetic, e.ledger().kinetic());
    crossings += (previous_x < 0.0) != (e.world().position[1].x < 0.0);
    previous_x = e.world().position[1].x;
  }
  EXPECT_GE(crossings, 2);  // through the bottom and back
  // Soft contacts (overlap ~ m g / k = 0.08, 15% of the radii) press the
  // disk deep enough to be still touching the edge it leaves at the bend.
  // Verlet's error is ~(omega dt)^2 = 5e-8 of the contact energy; a contact
  // dropped at the bend would cost ½ k δ² ~ 0.1 J, of ~1 J kinetic.
  EXPECT_LT(worst, 1e-6 * kinetic);
}

TEST(Conservation, ADiskSlidingOffASharpTipKeepsItsEnergy) {
  // A frictionless disk sliding along the top face of a fixed, thin
  // triangular spike (11° at its tip) under gravity and falling off the tip.
  // Near the tip the spike's lower face is within reach of the disk's
  // centre from behind, through the thin skeleton: a rule that counts it
  // loses that contact with a finite overlap where the centre leaves the
  // lower face's slab (½ k δ² ≈ 0.08 J here; cows' ears and hooves did this
  // in a dense pile). A closed polygon's edges meet vertices on their outer
  // side only.
  BodySpec spike;
  spike.shape = make_shape("spike", SkeletonKind::polygon, {{0, -0.8}, {4, 0}, {0, 0}}, 0.05);
  spike.position = mass_properties(spike.shape).centroid;
  spike.is_wall = true;
  BodySpec ball = disk({2.0, 0.55 - 0.0785}, 0.5, {1.0, 0.0});  // resting overlap m g / k
  EngineSettings s;
  s.dt = 2e-5;
  s.verlet_distance = 0.02;
  Engine e(world_of({spike, ball}, linear_law(100.0), {0, -10}), s);
  const double e0 = e.ledger().mechanical();
  double worst = 0.0, kinetic = 0.0;
  while (e.time() < 3.0) {
    e.step();
    worst = std::max(worst, std::abs(e.ledger().mechanical() - e0));
    kinetic = std::max(kinetic, e.ledger().kinetic());
  }
  EXPECT_LT(e.world().position[1].y, -1.0);  // it went over the tip and fell
  EXPECT_LT(worst, 1e-6 * kinetic);
}

TEST(Conservation, GearConservesEnergyAndConvergesWithDt) {
  const double coarse = gas_energy_error(Integrator::gear, 1e-3, 6.0);
  const double fine = gas_energy_error(Integrator::gear, 5e-4, 6.0);
  std::printf("Gear: max |ΔE|/E0 = %.3g (dt = 1e-3), %.3g (dt = 5e-4), ratio %.2f\n", coarse, fine, coarse / fine);
  RecordProperty("gear_energy_error_dt_1e-3", std::to_string(coarse));
  EXPECT_LT(coarse, 5e-2);
  EXPECT_GT(coarse / fine, 1.8);  // at least first order across contact onsets
}

// A rounded unit square resting on a flat wall, gravity tilted by θ so that
// "downhill" is +x: the block on an incline.
Engine block_on_incline(double theta, double mu) {
  std::vector<BodySpec> bodies{wall({{-50, 0}, {50, 0}}, 0.05), test::square_body(1.0, 0.05, {0, 0.6})};
  ContactLaw law = linear_law(1e5, 0.0, 5e4, mu);
  const double m = 1.0 + 4 * 0.05 + kPi * 0.0025;
  law.gamma_n = 0.5 * 2.0 * std::sqrt(m * law.kn);  // settle the bounce quickly
  EngineSettings s;
  s.dt = 2e-4;
  s.verlet_distance = 0.05;
  return Engine(world_of(bodies, law, 10.0 * Vec2{std::sin(theta), -std::cos(theta)}), s);
}

TEST(Conservation, TheAttractorsFieldIsConservativeInBothIntegrators) {
  // Two disks orbiting and bouncing off each other in a central field of
  // constant magnitude: the field's potential m g |x − c| closes the books
  // (to second order in dt for Verlet), and its force points at the centre.
  for (Integrator integrator : {Integrator::velocity_verlet, Integrator::gear}) {
    std::vector<double> drift;
    for (double dt : {2e-4, 1e-4}) {
      World w =
          test::world_of({test::disk({3, 0}, 0.5, {0, 2}), test::disk({-3, 0.2}, 0.5, {0, -2})}, test::linear_law(1e5));
      w.attractor = {{0.0, 0.0}, 2.0};
      EngineSettings s;
      s.dt = dt;
      s.integrator = integrator;
      s.verlet_distance = 0.05;
      Engine engine(std::move(w), s);
      EXPECT_NEAR(engine.world().force[0].x, -2.0 * engine.world().mass[0], 1e-12);
      EXPECT_NEAR(engine.world().force[0].y, 0.0, 1e-12);
      EXPECT_NEAR(engine.ledger().gravitational,
                  2.0 * (3.0 * engine.world().mass[0] + std::hypot(3.0, 0.2) * engine.world().mass[1]), 1e-12);
      double worst = 0.0;
      for (int k = 0; k < static_cast<int>(std::lround(6.0 / dt)); ++k) {
        engine.step();
        worst = std::max(worst, std::abs(engine.ledger().mechanical() - engine.ledger().initial_mechanical));
      }
      drift.push_back(worst / engine.ledger().initial_mechanical);
    }
    EXPECT_LT(drift[0], 1e-4) << to_string(integrator);
    if (integrator == Integrator::velocity_verlet) {
      EXPECT_GT(drift[0] / drift[1], 3.0) << "second order";
    }
  }
}

TEST(Friction, BlockSticksWhenTanThetaIsBelowMu) {
  const double theta = 10.0 * kPi / 180.0;  // tan θ = 0.176 < μ = 0.3
  Engine e = block_on_incline(theta, 0.3);
  e.run(10000);  // 2 s
  EXPECT_LT(std::abs(e.world().velocity[1].x), 1e-4);
  EXPECT_LT(std::abs(e.world().position[1].x), 2e-3);  // only the tangential springs' give
}

TEST(Friction, BlockSlidesWithAccelerationGTimesSinMinusMuCos) {
  const double theta = 25.0 * kPi / 180.0, mu = 0.3;
  Engine e = block_on_incline(theta, mu);
  e.run(2500);  // 0.5 s: the bounce has died out
  const double v1 = e.world().velocity[1].x, t1 = e.time();
  e.run(2500);
  const double v2 = e.world().velocity[1].x, t2 = e.time();
  const double expected = 10.0 * (std::sin(theta) - mu * std::cos(theta));
  EXPECT_NEAR((v2 - v1) / (t2 - t1), expected, 0.01 * expected);
}

TEST(Friction, DiskEndsRollingWithoutSlippingAtTwoThirdsOfItsSpeed) {
  // Kicked at v0 without spin on a rough floor: friction trades speed for
  // spin until v = ω r; for a disk (I = m r²/2) that is v = 2 v0 / 3.
  const double r = 0.5, v0 = 2.0;
  const double m = kPi * r * r;
  ContactLaw law = linear_law(1e5, 0.0, 5e4, 0.5);
  law.gamma_n = 0.5 * 2.0 * std::sqrt(m * law.kn);
  // Without tangential damping the stuck contact rings on its spring at
  // ~ μ g sqrt(m_eff / k_t) (here 0.035) forever.
  law.gamma_t = 0.5 * 2.0 * std::sqrt(m / 3.0 * law.kt);
  const double resting = m * 10.0 / law.kn;
  std::vector<BodySpec> bodies{wall({{-10, 0}, {50, 0}}, 0.05), disk({0, r + 0.05 - resting}, r, {v0, 0})};
  EngineSettings s;
  s.dt = 2e-4;
  s.verlet_distance = 0.05;
  Engine e(world_of(bodies, law, {0, -10}), s);
  e.run(5000);  // 1 s; slipping stops after v0 / (3 μ g) ≈ 0.13 s
  const double v = e.world().velocity[1].x, omega = e.world().angular_velocity[1];
  EXPECT_NEAR(v, 2.0 * v0 / 3.0, 0.01 * v0);
  // No slip at the contact: v + ω × (R − x) = 0 with R about r below the centre.
  EXPECT_NEAR(v + omega * r, 0.0, 0.01 * v0);
}

TEST(Restitution, HeadOnCollisionMatchesTheDampedOscillatorPrediction) {
  // Linear spring–dashpot with reduced mass m* and damping ratio ζ:
  // e = exp(−π ζ / sqrt(1 − ζ²)).
  const double r = 0.5, m = kPi * r * r, reduced = m / 2, kn = 1e4;
  for (double zeta : {0.05, 0.2, 0.5}) {
    SCOPED_TRACE(zeta);
    const double gamma = 2.0 * zeta * std::sqrt(reduced * kn);
    std::vector<BodySpec> bodies{disk({0, 0}, r, {1, 0}), disk({1.2, 0}, r, {-1, 0})};
    EngineSettings s;
    s.dt = 1e-5;
    s.verlet_distance = 0.02;
    Engine e(world_of(bodies, linear_law(kn, gamma)), s);
    while (e.time() < 0.5) e.step();
    const double separating = e.world().velocity[1].x - e.world().velocity[0].x;
    const double predicted = std::exp(-kPi * zeta / std::sqrt(1 - zeta * zeta));
    EXPECT_NEAR(separating / 2.0, predicted, 2e-3 * predicted);
    // First law: what the dashpot took is the kinetic energy lost.
    EXPECT_NEAR(e.ledger().first_law_residual(), 0.0, 1e-3 * e.ledger().damping_dissipation);
  }
}

TEST(Diagnostics, DeepestOverlapIsTheUndampedOscillatorsAmplitude) {
  // Two disks meeting head-on at relative speed 2 (no damping): the overlap
  // peaks at v_rel sqrt(m* / kn), reported as a fraction of r1 + r2.
  const double r = 0.5, m = kPi * r * r, reduced = m / 2, kn = 1e4;
  std::vector<BodySpec> bodies{disk({0, 0}, r, {1, 0}), disk({1.2, 0}, r, {-1, 0})};
  EngineSettings s;
  s.dt = 1e-5;
  s.verlet_distance = 0.02;
  Engine e(world_of(bodies, linear_law(kn)), s);
  while (e.time() < 0.5) e.step();
  const double amplitude = 2.0 * std::sqrt(reduced / kn);
  EXPECT_NEAR(e.deepest_overlap(), amplitude / (2 * r), 1e-4 * amplitude);
  // At the turning point: a quarter period after first touch (at t = 0.1).
  EXPECT_NEAR(e.deepest_overlap_time(), 0.1 + 0.25 * 2 * kPi * std::sqrt(reduced / kn), 2e-5);
}

// Two disks meeting head-on at relative speed 2, stepped by Gear.
Engine disks_meeting_with_gear() {
  std::vector<BodySpec> bodies{disk({0, 0}, 0.5, {1, 0}), disk({1.2, 0}, 0.5, {-1, 0})};
  EngineSettings s;
  s.dt = 1e-4;
  s.verlet_distance = 0.02;
  s.integrator = Integrator::gear;
  return Engine(world_of(bodies, linear_law(1e4)), s);
}

TEST(Diagnostics, GearStampsTheDeepestOverlapWithTheStepsEnd) {
  // Both of Gear's passes (the predicted state and the corrected one) look
  // at the state at the step's end: a new deepest overlap bears that time.
  Engine e = disks_meeting_with_gear();
  int deeper = 0;
  while (e.time() < 0.3) {
    const double before = e.deepest_overlap();
    e.step();
    if (e.deepest_overlap() == before) continue;
    ++deeper;
    EXPECT_EQ(e.deepest_overlap_time(), e.time()) << "step " << e.step_count();
  }
  EXPECT_GT(deeper, 10);
}

TEST(Diagnostics, ThePassMadeAgainReplacesTheLastOnesDeepestOverlap) {
  // A part of a world on ranks makes Gear's last pass again once its ghosts
  // are corrected: what the first attempt met is forgotten, what the
  // deepest overlap was before it is kept.
  Engine e = disks_meeting_with_gear();
  e.run(1500);
  const double deepest = e.deepest_overlap(), at = e.deepest_overlap_time();
  ASSERT_GT(deepest, 0.0);
  World& w = EnginePart(e).world_to_refresh();
  const Vec2 was = w.position[1];
  w.position[1].x = w.position[0].x + 0.5;  // far deeper than the collision went
  e.evaluate_forces_now();
  EXPECT_GT(e.deepest_overlap(), 0.4);
  w.position[1] = was;
  EnginePart(e).evaluate_last_pass_again();
  EXPECT_EQ(e.deepest_overlap(), deepest);
  EXPECT_EQ(e.deepest_overlap_time(), at);
}

TEST(FirstLaw, CompressedFrictionalDampedAssemblyClosesTheBalance) {
  // 24 disks under gravity in a box whose lid comes down at constant speed:
  // work of the lid + gravity's release = ΔE + damping + sliding.
  std::vector<BodySpec> bodies{wall({{0, 8}, {0, 0}, {6, 0}, {6, 8}}, 0.05)};
  BodySpec lid = wall({{-1, 4.6}, {7, 4.6}}, 0.05);
  lid.density = 1e-6;  // its weight would only add a constant term to the work
  lid.constraint.held = {true, true, true};
  lid.constraint.imposed_velocity = {0.0, -0.6, 0.0};
  bodies.push_back(lid);
  std::mt19937_64 g(5);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j)
      bodies.push_back(disk({0.55 + 0.98 * i, 0.6 + 1.0 * j}, 0.42 + 0.06 * unit_uniform(g),
                            {unit_uniform(g) - 0.5, unit_uniform(g) - 0.5}));
  ContactLaw law = linear_law(1e4, 20.0, 5e3, 0.4, 2.0);
  EngineSettings s;
  s.dt = 1e-4;
  s.verlet_distance = 0.05;
  Engine e(world_of(bodies, law, {0, -10}), s);
  e.run(20000);  // 2 s: the lid comes down from 4.6 to 3.4 onto the settling pile
  const EnergyLedger& l = e.ledger();
  std::printf("first law: W_ext %.5g, ΔE %.5g, damping %.5g, sliding %.5g, residual %.3g\n", l.external_work,
              l.mechanical() - l.initial_mechanical, l.damping_dissipation, l.sliding_dissipation,
              l.first_law_residual());
  ASSERT_GT(l.external_work, 0.0);
  ASSERT_GT(l.sliding_dissipation, 0.0);
  ASSERT_GT(l.damping_dissipation, 0.0);
  const double scale = l.external_work + l.dissipated();
  // Measured: 4e-5 of the scale at dt = 1e-4, second order in dt.
  EXPECT_LT(std::abs(l.first_law_residual()), 1e-3 * scale);
}

TEST(Determinism, SameInputSameBits) {
  const auto final_state = [] {
    std::vector<BodySpec> bodies = box_walls(8, 8, 0.05);
    std::mt19937_64 g(3);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j)
        bodies.push_back(test::regular_polygon_body(5, 0.5, 0.1, {1.0 + 1.5 * i, 1.0 + 1.5 * j}, unit_uniform(g)));
    EngineSettings s;
    s.dt = 1e-4;
    s.verlet_distance = 0.05;
    Engine e(world_of(bodies, linear_law(1e4, 5.0, 5e3, 0.5)), s);
    e.run(3000);
    return e.world().position;
  };
  const auto a = final_state(), b = final_state();
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].x, b[i].x);
    EXPECT_EQ(a[i].y, b[i].y);
  }
}

TEST(Dynamics, OrientationsAgreeWithTheLibraryCosineAndSine) {
  // The step's own (cos θ, sin θ) against libm, over turns a grain makes in
  // a long run, at the quadrant edges, and beyond 10⁵ rad (libm itself):
  // within 2.5e-16, unit length, and the same bits each time.
  std::vector<double> angles{0.0, -0.0, 1e-300, -1e-20, 3e-9};
  for (int k = -8; k <= 8; ++k)
    for (double nudge : {-1e-15, 0.0, 1e-15}) angles.push_back(k * std::numbers::pi / 4 + nudge);
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> turn(-1e5, 1e5), small(-7.0, 7.0);
  for (int k = 0; k < 100000; ++k) angles.push_back(k % 2 ? turn(random) : small(random));
  angles.push_back(3e5);
  angles.push_back(-2.5e7);
  double worst = 0.0;
  for (double a : angles) {
    const Vec2 o = orientation_at(a);
    worst = std::max({worst, std::abs(o.x - std::cos(a)), std::abs(o.y - std::sin(a))});
    EXPECT_NEAR(norm2(o), 1.0, 1e-15) << a;
    const Vec2 again = orientation_at(a);
    EXPECT_TRUE(again == o);
  }
  EXPECT_LT(worst, 2.5e-16);
  EXPECT_TRUE(std::isnan(orientation_at(NAN).x));
}

}  // namespace
}  // namespace sphero
