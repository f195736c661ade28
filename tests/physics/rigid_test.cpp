// The rigid model's time loop (docs/MODEL.md §7) on whole engines: a disk's
// rebound against the derived restitution, Newton's cradle against the
// A-CD² prediction for simultaneous collisions, a spinning square hitting a
// wall (angular momentum about the contact, the wall's percussion, energy
// never rising), a heap drawn together by the attractor (dissipation ≥ 0,
// overlaps held), the first law's residual shrinking with dt, and runs
// independent of threads and restarts.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "physics/scenes.h"
#include "rigid/gauss_seidel.h"

namespace sphero {
namespace {

using test::disk;
using test::square_body;
using test::wall;

constexpr double kRadius = 0.5;

World rigid_world(std::vector<BodySpec> bodies, RigidLaw law, Vec2 gravity = {}, PeriodicCell cell = {}) {
  World w = test::world_of(std::move(bodies), test::linear_law(1.0), gravity, cell);
  w.rigid_law = {law};
  return w;
}

RigidLaw restitution_law(double e, double xi_t = 0.0) {
  RigidLaw law;
  law.restitution = e;
  law.tangential_dissipation = xi_t;
  return law;
}

// The closed forms below are checked to 1e-9 and closer: the interior
// point at 1e-9, exact to its tolerance (the default sweeps at 1e-6 are
// held to theirs: TheDefaultSweepsKeepTheClosedFormsToTheirTolerance).
EngineSettings rigid_settings(double dt, double gap = 1e-3) {
  EngineSettings s;
  s.model = Model::rigid;
  s.dt = dt;
  s.verlet_distance = 0.05;
  s.rigid.gap = gap;
  s.rigid.overlap_tolerance = gap;
  s.rigid.solver = RigidSolver::interior_point;
  s.rigid.qp_tolerance = 1e-9;
  return s;
}

// Steps until body `b`'s vertical velocity turns from falling to rising,
// and returns the velocities just before and after that step.
std::pair<Vec2, Vec2> step_through_bounce(Engine& engine, std::size_t b) {
  for (int k = 0; k < 100000; ++k) {
    const Vec2 before = engine.world().velocity[b];
    engine.step();
    const Vec2 after = engine.world().velocity[b];
    if (before.y < 0.0 && after.y > 0.0) return {before, after};
  }
  ADD_FAILURE() << "no bounce";
  return {};
}

TEST(Rigid, ADiskThrownAtAFloorReboundsWithTheRestitution) {
  for (double e : {0.0, 0.25, 0.5, 0.9, 1.0}) {
    Engine engine(rigid_world({wall({{-5, 0}, {5, 0}}, 0.1), disk({0, 2}, kRadius, {0.0, -3.0})}, restitution_law(e)),
                  rigid_settings(1e-3));
    if (e == 0.0) {
      for (int k = 0; k < 2000; ++k) engine.step();
      EXPECT_NEAR(engine.world().velocity[1].y, 0.0, 1e-12);
      EXPECT_GT(engine.world().position[1].y - 0.6, -1e-4) << "held at the floor";
      continue;
    }
    const auto [before, after] = step_through_bounce(engine, 1);
    EXPECT_NEAR(after.y, -e * before.y, 1e-9) << "e = " << e;
    EXPECT_NEAR(after.x, 0.0, 1e-12);
    if (e == 1.0) {
      EXPECT_NEAR(engine.ledger().dissipated(), 0.0, 1e-12);
    }
  }
}

TEST(Rigid, ADiskDroppedUnderGravityReboundsAsTheCollisionOfItsStepPredicts) {
  const double e = 0.6, g = 9.81, dt = 1e-3;
  Engine engine(rigid_world({wall({{-5, 0}, {5, 0}}, 0.1), disk({0, 2}, kRadius)}, restitution_law(e), {0.0, -g}),
                rigid_settings(dt));
  const auto [before, after] = step_through_bounce(engine, 1);
  // Mean-velocity stationarity with the step's impulse b = −m g dt:
  // u⁺ = ((2m − ξ) u⁻ + 2b/m·m)/(2m + ξ), ξ = 2m (1 + e)/(1 − e) (MODEL.md §7).
  const double m = engine.world().mass[1], xi = normal_dissipation_for(e, m);
  const double expected = ((2 * m - xi) * before.y + 2 * (-m * g * dt)) / (2 * m + xi);
  EXPECT_NEAR(after.y, expected, 1e-9);
  EXPECT_NEAR(after.y, -e * before.y, 2 * g * dt) << "the restitution to within the step's impulse";
}

// `s` with the default solver and tolerance (RigidSettings).
EngineSettings with_the_default_solver(EngineSettings s) {
  s.rigid.solver = RigidSettings{}.solver;
  s.rigid.qp_tolerance = RigidSettings{}.qp_tolerance;
  return s;
}

// Four equal disks in a row, touching; the first hits the others at v.
std::vector<double> cradle(RigidLaw law, bool default_solver = false) {
  const double v = 2.0;
  std::vector<BodySpec> bodies;
  for (int k = 0; k < 4; ++k) bodies.push_back(disk({2.0 * kRadius * k, 0.0}, kRadius, k == 0 ? Vec2{v, 0.0} : Vec2{}));
  // A first disk a hair's breadth from the second, the others touching.
  bodies[0].position.x -= 1e-4;
  const EngineSettings settings = rigid_settings(1e-4);
  Engine engine(rigid_world(bodies, law), default_solver ? with_the_default_solver(settings) : settings);
  for (int k = 0; k < 200; ++k) engine.step();
  std::vector<double> out;
  double momentum = 0.0;
  for (std::size_t i = 0; i < 4; ++i) {
    out.push_back(engine.world().velocity[i].x);
    momentum += engine.world().mass[i] * engine.world().velocity[i].x;
    EXPECT_NEAR(engine.world().velocity[i].y, 0.0, 1e-14);
  }
  EXPECT_NEAR(momentum, engine.world().mass[0] * v, 1e-13) << "momentum to round-off";
  return out;
}

TEST(Rigid, NewtonsCradleCollidesAllAtOnceAsTheDissipationLawPredicts) {
  // Elastic (e = 1): every contact's mean relative velocity d(x) ≥ 0 and
  // x nearest to U⁻ in the mass norm: all four means equal, v/4, so
  // U⁺ = 2x − U⁻ = (−v/2, v/2, v/2, v/2). Energy is conserved: the
  // A-CD² answer for simultaneous contacts, not the sequential one.
  const std::vector<double> elastic = cradle(restitution_law(1.0));
  EXPECT_NEAR(elastic[0], -1.0, 1e-9);
  for (int k = 1; k < 4; ++k) EXPECT_NEAR(elastic[k], 1.0, 1e-9);
  // No dissipation (ξ_n = 0): d(x) ≥ ½ d(U⁻) active at every contact gives
  // x = (5v/8, v/8, v/8, v/8) and all four leave together at v/4.
  RigidLaw plastic;
  const std::vector<double> together = cradle(plastic);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(together[k], 0.5, 1e-9);
}

// n equal disks in a row, touching: all moving together at v (`together`),
// or the first a hair's breadth behind the others at rest (a cradle);
// after `steps` steps of dt, their velocities along the row.
std::vector<double> row_of_disks(int n, double e, bool together, int steps) {
  const double v = 2.0;
  std::vector<BodySpec> bodies;
  for (int k = 0; k < n; ++k)
    bodies.push_back(disk({2.0 * kRadius * k, 0.0}, kRadius, together || k == 0 ? Vec2{v, 0.0} : Vec2{}));
  if (!together) bodies[0].position.x -= 1e-4;
  Engine engine(rigid_world(bodies, restitution_law(e)), rigid_settings(1e-4));
  const double momentum = (together ? n : 1) * engine.world().mass[0] * v;
  double kinetic = engine.ledger().kinetic();
  for (int k = 0; k < steps; ++k) {
    engine.step();
    EXPECT_LE(engine.ledger().kinetic(), kinetic * (1.0 + 1e-12)) << "energy never rises, step " << k;
    kinetic = engine.ledger().kinetic();
  }
  std::vector<double> out;
  double p = 0.0;
  for (std::size_t i = 0; i < engine.world().size(); ++i) {
    out.push_back(engine.world().velocity[i].x);
    p += engine.world().mass[i] * engine.world().velocity[i].x;
  }
  EXPECT_NEAR(p, momentum, 1e-12 * momentum) << "momentum";
  return out;
}

TEST(Rigid, RowsOfTouchingDisksMoveTogetherAndCollideWithoutAFailedProgram) {
  // The programs of touching rows bind every contact at once, with a start
  // on the constraints' bounds: they stopped runs before (CHOLMOD "not
  // positive definite").
  for (int n : {4, 5, 6, 8})
    for (double e : {0.0, 0.2}) {
      // Together, nothing collides: every disk keeps v to the compliance's
      // relative 1e-11.
      for (double u : row_of_disks(n, e, true, 200)) EXPECT_NEAR(u, 2.0, 1e-9) << n << " disks, e = " << e;
      // A cradle: the row leaves with no pair approaching another.
      const std::vector<double> after = row_of_disks(n, e, false, 200);
      for (int k = 0; k + 1 < n; ++k) EXPECT_LE(after[k], after[k + 1] + 1e-9) << n << " disks, e = " << e;
    }
}

TEST(Rigid, AWallDrivenIntoAJammedRowIsReportedWithTheBodiesThatCannotMove) {
  // Three disks touching in a row between a fixed wall and a wall named
  // `piston` driven into them: no rigid motion can make way. The sweeps'
  // percussions then all grow alike while no body moves, which a stop on
  // the bodies' velocities alone takes for convergence.
  std::vector<BodySpec> bodies{wall({{-0.55, -2}, {-0.55, 2}}, 0.05)};
  for (int k = 0; k < 3; ++k) bodies.push_back(disk({2.0 * kRadius * k, 0.0}, kRadius));
  BodySpec piston = wall({{2.55, -2}, {2.55, 2}}, 0.05);
  piston.shape.name = "piston";
  piston.constraint.held = {true, true, true};
  piston.constraint.imposed_velocity = {-0.1, 0.0, 0.0};
  bodies.push_back(piston);
  for (const RigidSolver solver : {RigidSolver::interior_point, RigidSolver::gauss_seidel})
    for (const double tolerance : {1e-9, 1e-6}) {
      EngineSettings settings = rigid_settings(1e-3);
      settings.rigid.solver = solver;
      settings.rigid.qp_tolerance = tolerance;
      Engine engine(rigid_world(bodies, restitution_law(0.2)), settings);
      try {
        for (int k = 0; k < 100; ++k) engine.step();
        ADD_FAILURE() << to_string(solver) << " at " << tolerance << ": the piston went through";
      } catch (const InstabilityError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("grains 1, 2 and 3 against walls wall0 and piston"), std::string::npos) << message;
        EXPECT_NE(message.find("step 1 "), std::string::npos) << message;
        EXPECT_NE(message.find("cannot make way"), std::string::npos) << message;
        EXPECT_EQ(message.find("CHOLMOD"), std::string::npos) << message;
        EXPECT_EQ(message.find("lower dt"), std::string::npos) << message;
      }
    }
}

RigidLaw coulomb_law(double mu, double e = 0.0) {
  RigidLaw law = restitution_law(e);
  law.friction = mu;
  return law;
}

EngineSettings gauss_seidel_settings(double dt) {
  EngineSettings s = rigid_settings(dt, 1e-4);
  s.rigid.solver = RigidSolver::gauss_seidel;
  s.rigid.qp_tolerance = 1e-9;
  return s;
}

// An incline at θ through the origin, rising to the right, and `body`
// resting on it: its lowest side (or point) `below` under its centre, a
// hair above the wall's outline.
World on_incline(BodySpec body, double below, double theta, RigidLaw law) {
  const Vec2 along{std::cos(theta), std::sin(theta)}, up{-std::sin(theta), std::cos(theta)};
  const double wall_radius = 0.05;
  body.position = (wall_radius + below + 1e-5) * up;
  body.angle = theta;
  return rigid_world({wall({-20.0 * along, 20.0 * along}, wall_radius), body}, law, {0.0, -9.81});
}

// The velocity of body 1 along the incline after `seconds` of steps.
double speed_along(Engine& engine, double theta, double seconds) {
  engine.run(std::lround(seconds / engine.settings().dt));
  return dot(engine.world().velocity[1], {std::cos(theta), std::sin(theta)});
}

TEST(Rigid, ABlockOnAnInclineSticksBelowTheFrictionAngleAndSlidesAboveIt) {
  // A square of side 1 on two corners; μ = 0.5. Below tan θ = μ it stays
  // at rest; above, it slides down with a = g (sin θ − μ cos θ), exactly at
  // each step (the friction impulse is μ times the normal one).
  const double mu = 0.5, g = 9.81, side = 1.0, radius = 0.05;
  for (const double tan_theta : {0.4, 0.6}) {
    const double theta = std::atan(tan_theta);
    Engine engine(on_incline(square_body(side, radius, {}), 0.5 * side + radius, theta, coulomb_law(mu)),
                  gauss_seidel_settings(1e-3));
    const double early = speed_along(engine, theta, 0.2), late = speed_along(engine, theta, 0.5);
    if (tan_theta < mu) {
      EXPECT_NEAR(late, 0.0, 1e-8) << "sticks";
      EXPECT_NEAR(norm(engine.world().velocity[1]), 0.0, 1e-8);
    } else {
      const double a = -g * (std::sin(theta) - mu * std::cos(theta));  // down the incline: negative
      EXPECT_NEAR((late - early) / 0.5, a, 1e-6 * g) << "slides";
      EXPECT_NEAR(engine.world().angular_velocity[1], 0.0, 1e-8) << "without tipping";
    }
    EXPECT_LE(engine.collision_stats().largest_kkt_residual, 1e-9);
  }
}

TEST(Rigid, ADiskOnARoughInclineRollsWithoutSlipping) {
  // Rolling without slipping: v = −ω R at the contact, a = g sin θ / (1 +
  // I/(m R²)) = (2/3) g sin θ for a solid disk; the sticking contact does
  // no work, so nothing is dissipated. The disk rides 1e-5 m above the
  // wall, the contact point half-way across: R is 0.5 + 5e-6, whence the
  // relative 2e-5.
  const double theta = 0.3, g = 9.81, a = -2.0 / 3.0 * g * std::sin(theta);
  Engine engine(on_incline(disk({}, kRadius), kRadius, theta, coulomb_law(1.0)), gauss_seidel_settings(1e-3));
  const double early = speed_along(engine, theta, 0.2), late = speed_along(engine, theta, 0.5);
  EXPECT_NEAR((late - early) / 0.5, a, 2e-5 * std::abs(a));
  EXPECT_NEAR(late, -engine.world().angular_velocity[1] * kRadius, 2e-5 * std::abs(late)) << "v = −ω R";
  EXPECT_LT(engine.ledger().dissipated(), 1e-6 * engine.ledger().kinetic());
}

// The relative velocity of body 1's material point at `point` along
// `direction`, the body's centre at `centre` (a fixed wall's is zero).
double point_velocity(const World& w, Vec2 centre, Vec2 point, Vec2 direction) {
  return dot(w.velocity[1] + w.angular_velocity[1] * perp(point - centre), direction);
}

// Steps `engine` until body 1 first touches something; the world just
// before that step and the one contact it made.
std::pair<World, Contact> first_touch(Engine& engine) {
  for (int k = 0; k < 20000; ++k) {
    World before = engine.world();
    engine.step();
    std::vector<Contact> touching;
    for (const Contact& c : engine.contacts())
      if (c.active) touching.push_back(c);
    if (touching.empty()) continue;
    EXPECT_EQ(touching.size(), 1u) << "one contact point";
    return {std::move(before), touching[0]};
  }
  ADD_FAILURE() << "no contact";
  return {};
}

TEST(Rigid, ACornerStrikingAFloorReboundsWithTheRestitutionWhateverXiT) {
  // A tilted square falls on one corner, whose lever arm couples the
  // normal and tangential percussions: ξ_n is set at the normal effective
  // mass that ξ_t leaves, so an impact without slip at the contact
  // rebounds with e exactly (from ξ_n at the bare normal effective mass it
  // rebounded with 0.37 to 0.65 for e = 0.5).
  const double e = 0.5;
  for (const double xi_t : {0.0, 0.5, 5.0, 500.0}) {
    BodySpec square = square_body(1.0, 0.05, {0.0, 1.5}, 0.4);
    square.velocity = {0.0, -3.0};
    Engine engine(rigid_world({wall({{-5, 0}, {5, 0}}, 0.05), square}, restitution_law(e, xi_t)), rigid_settings(1e-4));
    const auto [before, contact] = first_touch(engine);
    const Vec2 centre = before.position[1];
    EXPECT_NEAR(point_velocity(before, centre, contact.point, {1.0, 0.0}), 0.0, 1e-12) << "no slip before";
    const double n_before = point_velocity(before, centre, contact.point, {0.0, 1.0});
    EXPECT_NEAR(point_velocity(engine.world(), centre, contact.point, {0.0, 1.0}), -e * n_before, 1e-9)
        << "xi_t = " << xi_t;
  }
}

TEST(Rigid, XiTBrakesASlipAndNeverReversesIt) {
  // A disk striking a floor obliquely: its contact point slides at t⁻, and
  // the mean-velocity law P_t = −ξ_t t(x) leaves t⁺ = t⁻ (2m_t − ξ_t)/(2m_t
  // + ξ_t), m_t = 1/(1/m + R²/I). ξ_t is capped at 2m_t, where the slip
  // stops: beyond, it would come back reversed.
  for (const double xi_t : {0.0, 0.5, 5.0, 500.0}) {
    Engine engine(rigid_world({wall({{-5, 0}, {5, 0}}, 0.05), disk({0.0, 1.5}, kRadius, {2.0, -3.0})},
                              restitution_law(0.5, xi_t)),
                  rigid_settings(1e-4));
    const auto [before, contact] = first_touch(engine);
    const Vec2 centre = before.position[1];
    const double t_before = point_velocity(before, centre, contact.point, {1.0, 0.0});
    const double t_after = point_velocity(engine.world(), centre, contact.point, {1.0, 0.0});
    const double m = engine.world().mass[1], lever = norm(contact.point - centre);
    const double m_t = 1.0 / (1.0 / m + lever * lever / engine.world().inertia[1]);
    const double xi = std::min(xi_t, 2.0 * m_t);
    EXPECT_NEAR(t_after, t_before * (2.0 * m_t - xi) / (2.0 * m_t + xi), 1e-9) << "xi_t = " << xi_t;
    EXPECT_GE(t_after, -1e-12) << "never reversed";
  }
}

// 64 disks at a packing fraction of one half, restitution 1, in a box,
// stepped for 1 s.
Engine elastic_dense_box(const EngineSettings& settings) {
  std::vector<BodySpec> bodies{wall({{0, 10}, {0, 0}, {10, 0}, {10, 10}, {0, 10}}, 0.1)};
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> speed(-2.0, 2.0);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      bodies.push_back(disk({0.7 + 1.17 * i, 0.7 + 1.17 * j}, kRadius, {speed(random), speed(random)}));
  return Engine(rigid_world(bodies, restitution_law(1.0)), settings);
}

TEST(Rigid, AnElasticDenseBoxKeepsItsKineticEnergy) {
  // A pair that a collision presses across its gap collides by its law
  // (elastic), so no percussion of the step does work. Guarded as a mere
  // stop, such pairs lost 2.5% of the energy over this second.
  Engine engine = elastic_dense_box(rigid_settings(1e-3, 1e-3));
  const double kinetic = engine.ledger().kinetic();
  engine.run(1000);
  EXPECT_GT(engine.collision_stats().programs, 500);
  EXPECT_NEAR(engine.ledger().kinetic(), kinetic, 1e-9 * kinetic);
  EXPECT_GE(engine.ledger().dissipated(), -1e-12 * kinetic);
}

TEST(Rigid, TheDefaultSweepsKeepTheClosedFormsToTheirTolerance) {
  // The Gauss–Seidel sweeps at 1e-6 (RigidSettings' default): the cradles
  // of NewtonsCradleCollidesAllAtOnceAsTheDissipationLawPredicts and the
  // elastic box's energy, to a few tolerances of their velocities (2 m/s).
  ASSERT_EQ(RigidSettings{}.solver, RigidSolver::gauss_seidel);
  const double tolerance = RigidSettings{}.qp_tolerance;
  const std::vector<double> elastic = cradle(restitution_law(1.0), true);
  EXPECT_NEAR(elastic[0], -1.0, 4 * tolerance);
  for (int k = 1; k < 4; ++k) EXPECT_NEAR(elastic[k], 1.0, 4 * tolerance);
  const std::vector<double> together = cradle(RigidLaw{}, true);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(together[k], 0.5, 4 * tolerance);
  Engine box = elastic_dense_box(with_the_default_solver(rigid_settings(1e-3, 1e-3)));
  const double kinetic = box.ledger().kinetic();
  box.run(1000);
  EXPECT_NEAR(box.ledger().kinetic(), kinetic, tolerance * kinetic);
  EXPECT_GE(box.ledger().dissipated(), -tolerance * kinetic);
}

TEST(Rigid, ASpinningSquareHittingAWallKeepsItsAngularMomentumAboutTheContact) {
  for (double xi_t : {0.0, 0.5, 5.0}) {
    BodySpec square = square_body(1.0, 0.05, {0.0, 1.2}, 0.3);
    square.velocity = {1.5, -4.0};
    square.angular_velocity = 3.0;
    Engine engine(
        rigid_world({wall({{-5, 0}, {5, 0}}, 0.05), square}, restitution_law(0.4, xi_t)), rigid_settings(1e-4));
    double kinetic = engine.ledger().kinetic();
    bool hit = false;
    for (int k = 0; k < 6000; ++k) {
      const World& w = engine.world();
      const Vec2 p0 = w.mass[1] * w.velocity[1];
      const Vec2 c0 = w.position[1];
      const double spin0 = w.inertia[1] * w.angular_velocity[1];
      engine.step();
      EXPECT_LE(engine.ledger().kinetic(), kinetic + 1e-12 * kinetic) << "energy never rises, step " << k;
      kinetic = engine.ledger().kinetic();
      std::vector<Contact> touching;
      for (const Contact& c : engine.contacts())
        if (c.active) touching.push_back(c);
      if (touching.size() != 1) continue;
      hit = true;
      // The wall's percussion is the force of the step times dt, on the
      // square, at the contact point A.
      const Contact& c = touching[0];
      const Vec2 on_square = (c.vertex_body == 1 ? 1.0 : -1.0) * engine.settings().dt * c.force;
      const Vec2 p1 = w.mass[1] * w.velocity[1];
      EXPECT_NEAR(p1.x - p0.x, on_square.x, 1e-12);
      EXPECT_NEAR(p1.y - p0.y, on_square.y, 1e-12);
      // Angular momentum about A, with the centre where the collision saw it.
      const double before = spin0 + cross(c0 - c.point, p0);
      const double after = w.inertia[1] * w.angular_velocity[1] + cross(c0 - c.point, p1);
      EXPECT_NEAR(after, before, 1e-12 * (1.0 + std::abs(before)));
    }
    EXPECT_TRUE(hit);
    EXPECT_GE(engine.ledger().dissipated(), 0.0);
  }
}

// Grains at rest, drawn to the origin by the attractor.
World heap_world(int side) {
  std::vector<BodySpec> bodies;
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j) {
      const Vec2 at{1.6 * (i - 0.5 * (side - 1)), 1.6 * (j - 0.5 * (side - 1))};
      bodies.push_back((i + j) % 2 ? disk(at, kRadius) : test::regular_polygon_body(6, 0.45, 0.05, at, 0.1 * i));
    }
  World w = rigid_world(bodies, restitution_law(0.3, 0.2));
  w.attractor = {{0.0, 0.0}, 5.0};
  return w;
}

TEST(Rigid, AHeapDrawnByTheAttractorDissipatesAndKeepsItsOverlapsSmall) {
  Engine engine(heap_world(8), rigid_settings(2e-3));
  double dissipated = 0.0;
  for (int k = 0; k < 1500; ++k) {
    engine.step();
    EXPECT_GE(engine.ledger().damping_dissipation, dissipated - 1e-12) << "a collision created energy at step " << k;
    dissipated = engine.ledger().damping_dissipation;
  }
  EXPECT_GT(dissipated, 0.5 * (engine.ledger().initial_mechanical - engine.ledger().mechanical()));
  EXPECT_LT(engine.deepest_overlap(), 0.02) << "as a fraction of the two sphero-radii";
  EXPECT_GT(engine.collision_stats().programs, 100);
  EXPECT_LE(engine.collision_stats().largest_kkt_residual, 1e-9);
  // Compact: every grain within a few diameters of the centre.
  for (std::size_t i = 0; i < engine.world().size(); ++i) EXPECT_LT(norm(engine.world().position[i]), 6.0);
}

// 16 × 16 hexagons on a square grid about the origin, turned apart, drawn
// to it by the attractor and solved by Gauss–Seidel at 1e-6.
Engine attracted_hexagons(const RigidLaw& law) {
  std::vector<BodySpec> bodies;
  constexpr int kSide = 16;
  for (int i = 0; i < kSide; ++i)
    for (int j = 0; j < kSide; ++j)
      bodies.push_back(test::regular_polygon_body(
          6, 0.45, 0.05, {1.3 * (i - 0.5 * (kSide - 1)), 1.3 * (j - 0.5 * (kSide - 1))}, 0.37 * (i * kSide + j)));
  World w = rigid_world(bodies, law);
  w.attractor = {{0.0, 0.0}, 10.0};
  EngineSettings s = gauss_seidel_settings(2e-3);
  s.rigid.qp_tolerance = 1e-6;
  return Engine(std::move(w), s);
}

// Hexagons drawn into a compact heap, solved by Gauss–Seidel at 1e-6: the
// sweeps converge although a pressed face's contacts trade percussion
// among themselves for thousands of sweeps (the bodies' velocities stand
// still meanwhile, and the sweeps are measured by them).
TEST(Rigid, GaussSeidelGathersAHeapOfHexagonsWithoutAStalledProgram) {
  Engine engine = attracted_hexagons(restitution_law(0.2, 0.5));
  for (int k = 0; k < 800; ++k) ASSERT_NO_THROW(engine.step()) << "step " << k;
  EXPECT_LE(engine.collision_stats().largest_kkt_residual, 1e-6);
  for (std::size_t i = 0; i < engine.world().size(); ++i) EXPECT_LT(norm(engine.world().position[i]), 10.0);
}

// The same heap with Coulomb friction: a frictional program may have many
// answers, and the sweeps of a compact one wander above 1e-6; they stop at
// their best residual within kStalledAcceptance tolerances instead of
// stopping the run, and no collision makes energy.
TEST(Rigid, AFrictionalHeapGathersThoughSomeOfItsProgramsStall) {
  Engine engine = attracted_hexagons(coulomb_law(0.5, 0.2));
  double dissipated = 0.0;
  for (int step = 0; step < 500; ++step) {
    ASSERT_NO_THROW(engine.step()) << "step " << step;
    // D ≥ 0 at every collision, to the programs' tolerance.
    ASSERT_GE(engine.ledger().dissipated(), dissipated - 1e-6 * (1.0 + dissipated)) << "step " << step;
    dissipated = engine.ledger().dissipated();
  }
  const CollisionStats stats = engine.collision_stats();
  EXPECT_GT(stats.stalled, 0) << "the case this test is for";
  EXPECT_LE(stats.largest_kkt_residual, kStalledAcceptance * 1e-6);
  for (std::size_t i = 0; i < engine.world().size(); ++i) EXPECT_LT(norm(engine.world().position[i]), 10.0);
}

TEST(Rigid, ALooserToleranceStopsTheProgramsSoonerAndStillDissipates) {
  // rigid_tolerance reaches the interior point: its programs stop at the
  // looser residual, in fewer iterations, and no collision makes energy.
  CollisionStats stats[2];
  double residual[2];
  const double tolerance[2] = {1e-9, 1e-6};
  for (int k = 0; k < 2; ++k) {
    EngineSettings s = rigid_settings(2e-3);
    s.rigid.qp_tolerance = tolerance[k];
    Engine engine(heap_world(8), s);
    double dissipated = 0.0;
    for (int step = 0; step < 600; ++step) {
      engine.step();
      EXPECT_GE(engine.ledger().damping_dissipation, dissipated - 1e-12)
          << "tolerance " << tolerance[k] << ", step " << step;
      dissipated = engine.ledger().damping_dissipation;
    }
    stats[k] = engine.collision_stats();
    residual[k] = std::abs(engine.ledger().first_law_residual()) / engine.ledger().initial_mechanical;
    EXPECT_LE(stats[k].largest_kkt_residual, tolerance[k]);
  }
  const auto per_program = [](const CollisionStats& c) { return double(c.iterations) / double(c.group_programs); };
  EXPECT_LT(per_program(stats[1]), 0.9 * per_program(stats[0]));
  EXPECT_LT(residual[1], 1e-3) << "the first law, relative to the initial energy";
  EXPECT_LT(residual[0], 1e-3);
}

TEST(Rigid, TheFirstLawsResidualShrinksWithTheTimeStep) {
  // A disk dropped on a floor, bouncing: ΔK = xᵀb − D exactly at each
  // collision; free flight at u⁺ (symplectic Euler) leaves ½ m g² dt² per step.
  std::vector<double> residual;
  double scale = 0.0;
  for (double dt : {2e-3, 1e-3, 5e-4}) {
    Engine engine(
        rigid_world({wall({{-5, 0}, {5, 0}}, 0.1), disk({0, 2}, kRadius)}, restitution_law(0.7), {0.0, -9.81}),
        rigid_settings(dt));
    engine.run(static_cast<long>(std::lround(1.5 / dt)));
    residual.push_back(std::abs(engine.ledger().first_law_residual()));
    scale = engine.ledger().initial_mechanical;
  }
  EXPECT_LT(residual[0], 0.02 * scale);
  EXPECT_NEAR(residual[0] / residual[1], 2.0, 0.6) << "first order";
  EXPECT_NEAR(residual[1] / residual[2], 2.0, 0.6) << "first order";
}

TEST(Rigid, RunsAreTheSameBitsWhateverTheThreadsAndAcrossARestart) {
  EngineSettings s = rigid_settings(2e-3);
  Engine one(heap_world(6), s);
  s.threads = 3;
  Engine three(heap_world(6), s);
  one.run(300);
  three.run(300);
  Engine restored(one.snapshot());
  one.run(300);
  three.run(300);
  restored.run(300);
  for (const Engine* e : {&three, &restored}) {
    EXPECT_EQ(e->world().position, one.world().position);
    EXPECT_EQ(e->world().velocity, one.world().velocity);
    EXPECT_EQ(e->world().angular_velocity, one.world().angular_velocity);
    EXPECT_EQ(e->ledger().damping_dissipation, one.ledger().damping_dissipation);
  }
}

TEST(Rigid, AMovingWallsWorkIsBookedAsExternalWork) {
  // A piston at constant velocity hits a disk at rest: the disk leaves
  // with (1 + e) times the piston's speed, and the piston's work closes
  // the first law (no gravity, so no time-stepping residual).
  BodySpec piston = wall({{-1, -2}, {-1, 2}}, 0.1);
  piston.constraint.held = {true, true, true};
  piston.constraint.imposed_velocity = {1.0, 0.0, 0.0};
  Engine engine(rigid_world({piston, disk({0.5, 0}, kRadius)}, restitution_law(0.5)), rigid_settings(1e-3));
  engine.run(1000);
  EXPECT_NEAR(engine.world().velocity[1].x, 1.5, 1e-9);
  EXPECT_GT(engine.ledger().external_work, 0.0);
  EXPECT_NEAR(engine.ledger().first_law_residual(), 0.0, 1e-12);
}

TEST(Rigid, TwoDisksCollideAcrossAPeriodicBoundary) {
  // In a cell periodic along x, two disks meet through the seam; elastic
  // and head-on, equal masses swap velocities, and momentum is kept.
  PeriodicCell cell;
  cell.periodic = {true, false};
  cell.low = {0.0, -5.0};
  cell.size = {10.0, 10.0};
  for (double e : {1.0, 0.5}) {
    Engine engine(rigid_world({disk({0.8, 0.0}, kRadius, {-2.0, 0.0}), disk({9.2, 0.0}, kRadius, {1.0, 0.0})},
                              restitution_law(e), {}, cell),
                  rigid_settings(1e-3));
    engine.run(400);
    const World& w = engine.world();
    EXPECT_NEAR(w.velocity[0].x + w.velocity[1].x, -1.0, 1e-12) << "momentum, e = " << e;
    // After: the relative velocity reversed and scaled by e (3 m/s apart).
    EXPECT_NEAR(w.velocity[0].x - w.velocity[1].x, 3.0 * e, 1e-9) << "e = " << e;
    EXPECT_NEAR(w.velocity[0].y, 0.0, 1e-12);
  }
}

TEST(Rigid, WallsPushedByAPressureAreRefusedByName) {
  BodySpec plate = wall({{-1, -2}, {-1, 2}}, 0.1);
  plate.constraint = pressure_plate(10.0, 4.0, {1.0, 0.0});
  EXPECT_THROW(
      {
        try {
          Engine engine(rigid_world({plate, disk({0.5, 0}, kRadius)}, restitution_law(0.5)), rigid_settings(1e-3));
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("imposed velocities only"), std::string::npos) << e.what();
          throw;
        }
      },
      std::invalid_argument);
}

}  // namespace
}  // namespace sphero
