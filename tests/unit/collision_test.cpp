// One collision instant of rigid bodies (A-CD²): restitution as derived in
// docs/MODEL.md, momentum and angular momentum conserved where no outside
// percussion acts, the energy balance K⁺ − K⁻ = xᵀb − D with D ≥ 0, and a
// body at rest on a floor kept there by the percussion of its weight.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "rigid/collision.h"

namespace sphero {
namespace {

RigidBodyState disk(Vec2 centre, Vec2 velocity, double mass = 2.0, double radius = 0.5) {
  RigidBodyState b;
  b.mass = mass;
  b.inertia = 0.5 * mass * radius * radius;
  b.centre = centre;
  b.velocity = velocity;
  return b;
}

CollisionContact on_floor(int body, Vec2 point, double xi_n, double xi_t = 0.0) {
  CollisionContact c;
  c.body = body;
  c.point = point;
  c.normal = {0.0, 1.0};
  c.normal_dissipation = xi_n;
  c.tangential_dissipation = xi_t;
  return c;
}

double kinetic(const std::vector<RigidBodyState>& bodies, const CollisionResult& r) {
  double k = 0.0;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    k += 0.5 * bodies[i].mass * norm2(r.velocity[i]) +
         0.5 * bodies[i].inertia * r.angular_velocity[i] * r.angular_velocity[i];
  return k;
}

double kinetic(const std::vector<RigidBodyState>& bodies) {
  double k = 0.0;
  for (const RigidBodyState& b : bodies)
    k += 0.5 * b.mass * norm2(b.velocity) + 0.5 * b.inertia * b.angular_velocity * b.angular_velocity;
  return k;
}

TEST(Collision, RestitutionOfADiskOnAFloorIsTheDerivedOne) {
  for (double e : {0.0, 0.3, 0.5, 0.9, 0.999}) {
    const std::vector<RigidBodyState> bodies{disk({0, 0.5}, {0.0, -3.0})};
    const double xi = normal_dissipation_for(e, bodies[0].mass);
    EXPECT_NEAR(restitution(xi, bodies[0].mass), e, 1e-15);
    const CollisionResult r = resolve_collisions(bodies, {on_floor(0, {0, 0}, xi)});
    ASSERT_TRUE(r.program.converged) << r.program.kkt_residual;
    EXPECT_NEAR(r.velocity[0].y, 3.0 * e, 1e-9) << "e = " << e;
    EXPECT_NEAR(r.velocity[0].x, 0.0, 1e-12);
    // All the kinetic energy lost is dissipated, none created.
    EXPECT_NEAR(r.dissipated, kinetic(bodies) - kinetic(bodies, r), 1e-9);
    EXPECT_GE(r.dissipated, -1e-12);
  }
}

TEST(Collision, BelowTwiceTheEffectiveMassTheDiskStops) {
  const std::vector<RigidBodyState> bodies{disk({0, 0.5}, {0.0, -3.0})};
  for (double xi : {0.0, 1.0, 4.0}) {  // 2m = 4
    const CollisionResult r = resolve_collisions(bodies, {on_floor(0, {0, 0}, xi)});
    EXPECT_NEAR(r.velocity[0].y, 0.0, 1e-9) << "xi = " << xi;
    EXPECT_NEAR(restitution(xi, bodies[0].mass), 0.0, 0.0);
  }
}

// Gravity's impulse over a step pushes a resting disk into the floor: the
// floor's percussion takes it, the disk stays at rest.
TEST(Collision, ADiskAtRestOnAFloorStaysThere) {
  std::vector<RigidBodyState> bodies{disk({0, 0.5}, {0.0, 0.0})};
  const double dt = 1e-3;
  bodies[0].impulse = {0.0, -bodies[0].mass * 9.81 * dt};
  const CollisionResult r = resolve_collisions(bodies, {on_floor(0, {0, 0}, 3.0)});
  ASSERT_TRUE(r.program.converged);
  EXPECT_NEAR(r.velocity[0].y, 0.0, 1e-9);
  EXPECT_NEAR(r.normal_percussion[0], bodies[0].mass * 9.81 * dt, 1e-9);
  // Without the floor the same impulse is free fall.
  const CollisionResult free = resolve_collisions(bodies, {});
  EXPECT_NEAR(free.velocity[0].y, -9.81 * dt, 1e-12);
}

TEST(Collision, MoreBindingContactsThanFreedomsShareThePercussionAsTheirCompliancesSay) {
  // A unit square at rest on a floor touching it at three points of its
  // lower side, x = −½, 0, ½: three binding rows for the two freedoms they
  // constrain (y and ω), so the rigid percussions are not unique. The
  // compliant program's are: z minimises Σ ε_k z_k² with Σ z = W (the
  // weight's impulse) and Σ x_k z_k = 0, and ε_k ∝ 1/m_k = 1/m + x_k²/I:
  // 1 at the middle, 2.5 at the corners (I = m/6), so the corners take
  // 2W/9 each and the middle 5W/9.
  RigidBodyState square = disk({0.0, 0.5}, {0.0, 0.0}, 1.0);
  square.inertia = 1.0 / 6.0;
  const double dt = 1e-3, W = 9.81 * dt;
  square.impulse = {0.0, -W};
  std::vector<CollisionContact> contacts;
  for (double x : {-0.5, 0.0, 0.5}) contacts.push_back(on_floor(0, {x, 0.0}, 0.0));
  const CollisionResult r = resolve_collisions({square}, contacts);
  ASSERT_TRUE(r.program.converged);
  EXPECT_TRUE(r.jammed.empty());
  EXPECT_NEAR(r.velocity[0].y, 0.0, 1e-12);
  EXPECT_NEAR(r.angular_velocity[0], 0.0, 1e-12);
  EXPECT_NEAR(r.normal_percussion[0], 2.0 * W / 9.0, 1e-9 * W);
  EXPECT_NEAR(r.normal_percussion[1], 5.0 * W / 9.0, 1e-9 * W);
  EXPECT_NEAR(r.normal_percussion[2], 2.0 * W / 9.0, 1e-9 * W);
}

TEST(Collision, ABodyPushedByAWallIntoAnotherWallIsReportedJammed) {
  // A disk touching a fixed floor and a ceiling coming down at 1 m/s: no
  // rigid velocity keeps both contacts from closing.
  std::vector<RigidBodyState> bodies{disk({0.0, 0.5}, {0.0, 0.0})};
  CollisionContact floor = on_floor(0, {0.0, 0.0}, 0.0), ceiling = floor;
  ceiling.point = {0.0, 1.0};
  ceiling.normal = {0.0, -1.0};
  ceiling.wall_velocity = {0.0, -1.0};
  CollisionContact beside = on_floor(0, {0.5, 0.5}, 0.0);  // a third, slack contact: not one row alone
  beside.normal = {-1.0, 0.0};
  beside.wall_velocity = {1.0, 0.0};
  const CollisionResult r = resolve_collisions(bodies, {floor, ceiling, beside});
  EXPECT_EQ(r.jammed, (std::vector<std::size_t>{0, 1}));
}

TEST(Collision, TwoBodiesHeadOnConserveMomentumWithTheEffectiveMassRestitution) {
  const std::vector<RigidBodyState> bodies{disk({-0.5, 0}, {2.0, 0.0}, 1.0), disk({0.5, 0}, {-1.0, 0.0}, 3.0)};
  const double m_eff = 1.0 * 3.0 / 4.0, e = 0.6;
  CollisionContact c;
  c.body = 1;
  c.other = 0;
  c.point = {0, 0};
  c.normal = {1.0, 0.0};  // from body 0 into body 1
  c.normal_dissipation = normal_dissipation_for(e, m_eff);
  const CollisionResult r = resolve_collisions(bodies, {c});
  ASSERT_TRUE(r.program.converged);
  const double p_before = 1.0 * 2.0 + 3.0 * -1.0, p_after = 1.0 * r.velocity[0].x + 3.0 * r.velocity[1].x;
  EXPECT_NEAR(p_after, p_before, 1e-12);
  EXPECT_NEAR(r.velocity[1].x - r.velocity[0].x, e * 3.0, 1e-9);  // approach 3 m/s, separation 3e
  EXPECT_NEAR(r.dissipated, kinetic(bodies) - kinetic(bodies, r), 1e-9);
}

// Newton's cradle: a disk hits the first of a row of three touching equal
// disks; all four contacts... the three contacts collide at once.
TEST(Collision, NewtonsCradleConservesMomentumAndNeverGainsEnergy) {
  for (double xi : {0.0, 10.0, 1000.0}) {
    std::vector<RigidBodyState> bodies;
    for (int i = 0; i < 4; ++i) bodies.push_back(disk({double(i), 0}, {i == 0 ? 1.0 : 0.0, 0.0}, 1.0));
    std::vector<CollisionContact> contacts;
    for (int i = 0; i < 3; ++i) {
      CollisionContact c;
      c.body = i + 1;
      c.other = i;
      c.point = {i + 0.5, 0.0};
      c.normal = {1.0, 0.0};
      c.normal_dissipation = xi;
      contacts.push_back(c);
    }
    const CollisionResult r = resolve_collisions(bodies, contacts);
    ASSERT_TRUE(r.program.converged) << r.program.kkt_residual;
    double momentum = 0.0;
    for (const Vec2& v : r.velocity) momentum += v.x;
    EXPECT_NEAR(momentum, 1.0, 1e-12) << "xi = " << xi;
    for (int i = 0; i < 3; ++i) EXPECT_GE(r.velocity[i + 1].x - r.velocity[i].x, -1e-9) << "no approach after";
    EXPECT_GE(r.dissipated, -1e-12);
    EXPECT_NEAR(r.dissipated, kinetic(bodies) - kinetic(bodies, r), 1e-9);
    for (double p : r.normal_percussion) EXPECT_GE(p, -1e-9);
  }
}

// A spinning square (a spheropolygon's mass properties) hits a fixed floor
// at an angle: the floor's percussion acts at the contact point, so the
// angular momentum about it is conserved; the change of momentum is that
// percussion; energy never grows.
TEST(Collision, ASpinningBodyHittingAWallKeepsItsAngularMomentumAboutTheContact) {
  RigidBodyState square;
  square.mass = 1.5;
  square.inertia = 1.5 * (1.0 + 1.0) / 12.0;
  square.centre = {0.1, 0.6};
  square.velocity = {1.0, -2.0};
  square.angular_velocity = 4.0;
  const Vec2 point{-0.3, 0.0};
  for (double xi_t : {0.0, 0.5, 50.0}) {
    const CollisionResult r = resolve_collisions({square}, {on_floor(0, point, 8.0, xi_t)});
    ASSERT_TRUE(r.program.converged);
    const Vec2 arm = square.centre - point;
    const double before = square.mass * cross(arm, square.velocity) + square.inertia * square.angular_velocity;
    const double after = square.mass * cross(arm, r.velocity[0]) + square.inertia * r.angular_velocity[0];
    EXPECT_NEAR(after, before, 1e-9) << "xi_t = " << xi_t;
    const Vec2 percussion = r.normal_percussion[0] * Vec2{0, 1} + r.tangential_percussion[0] * Vec2{-1, 0};
    EXPECT_NEAR(square.mass * (r.velocity[0].x - square.velocity.x), percussion.x, 1e-9);
    EXPECT_NEAR(square.mass * (r.velocity[0].y - square.velocity.y), percussion.y, 1e-9);
    EXPECT_GE(r.dissipated, -1e-12);
    EXPECT_NEAR(r.dissipated, kinetic({square}) - kinetic({square}, r), 1e-9);
  }
}

TEST(Collision, AMovingWallIsSeenInTheRelativeVelocity) {
  // A disk at rest hit by a floor rising at 2 m/s, restitution 0.5: it leaves
  // at 2 + 0.5·2 = 3 m/s.
  const std::vector<RigidBodyState> bodies{disk({0, 0.5}, {0.0, 0.0})};
  CollisionContact c = on_floor(0, {0, 0}, normal_dissipation_for(0.5, bodies[0].mass));
  c.wall_velocity = {0.0, 2.0};
  const CollisionResult r = resolve_collisions(bodies, {c});
  ASSERT_TRUE(r.program.converged);
  EXPECT_NEAR(r.velocity[0].y, 3.0, 1e-9);
}

// A binary collision is one row: solved in closed form, exactly. An
// elastic one, off centre and with spin, keeps the energy and both momenta
// to rounding, collision after collision; with tangential dissipation the
// energy lost is the dissipation booked, to rounding too.
TEST(Collision, BinaryCollisionsAreExact) {
  std::vector<RigidBodyState> bodies{disk({0.0, 0.0}, {1.3, 0.2}, 2.0), disk({0.9, 0.35}, {-0.7, -0.1}, 3.0, 0.6)};
  bodies[0].angular_velocity = 4.0;
  bodies[1].angular_velocity = -1.5;
  const Vec2 normal = (bodies[0].centre - bodies[1].centre) / norm(bodies[0].centre - bodies[1].centre);
  CollisionContact c;
  c.body = 0, c.other = 1;
  c.normal = normal;
  c.point = bodies[1].centre + 0.6 * normal;
  c.elastic = true;
  const double k0 = kinetic(bodies);
  const Vec2 p0 = bodies[0].mass * bodies[0].velocity + bodies[1].mass * bodies[1].velocity;
  // After each, the velocities reversed: the bodies approach again.
  for (int collision = 0; collision < 1000; ++collision) {
    const CollisionResult r = resolve_collisions(bodies, {c});
    ASSERT_GT(r.normal_percussion[0], 0.0) << "collision " << collision;
    EXPECT_EQ(r.program.iterations, 0);
    EXPECT_LT(r.program.kkt_residual, 1e-14);
    for (std::size_t i = 0; i < 2; ++i)
      bodies[i].velocity = -1.0 * r.velocity[i], bodies[i].angular_velocity = -r.angular_velocity[i];
  }
  EXPECT_NEAR(kinetic(bodies) / k0, 1.0, 1e-13);
  const Vec2 p1 = bodies[0].mass * bodies[0].velocity + bodies[1].mass * bodies[1].velocity;
  EXPECT_NEAR(norm(p1 - p0), 0.0, 1e-13 * norm(p0));  // reversed an even number of times
  c.elastic = false;
  c.normal_dissipation = 5.0;
  c.tangential_dissipation = 0.7;
  const double before = kinetic(bodies);
  const CollisionResult r = resolve_collisions(bodies, {c});
  EXPECT_GT(r.dissipated, 0.0);
  EXPECT_NEAR(kinetic(bodies, r), before - r.dissipated, 1e-14 * before);
}

CollisionSettings gauss_seidel() {
  CollisionSettings s;
  s.solver = RigidSolver::gauss_seidel;
  return s;
}

// Programs of every kind above — binary, plastic and elastic cradles, a
// spinning square with ξ_t, three contacts under a square — solved by the
// interior point and by Gauss–Seidel: the same velocities and percussions.
TEST(Collision, GaussSeidelSolvesTheInteriorPointsPrograms) {
  std::vector<std::pair<std::vector<RigidBodyState>, std::vector<CollisionContact>>> programs;
  for (double xi : {0.0, 10.0, 1000.0}) {
    std::vector<RigidBodyState> bodies;
    std::vector<CollisionContact> contacts;
    for (int i = 0; i < 4; ++i) bodies.push_back(disk({double(i), 0}, {i == 0 ? 1.0 : 0.0, 0.0}, 1.0));
    for (int i = 0; i < 3; ++i) {
      CollisionContact c;
      c.body = i + 1, c.other = i, c.point = {i + 0.5, 0.0}, c.normal = {1.0, 0.0}, c.normal_dissipation = xi;
      c.elastic = xi == 1000.0;
      contacts.push_back(c);
    }
    programs.emplace_back(bodies, contacts);
  }
  RigidBodyState square = disk({0.3, 0.6}, {1.5, -2.0}, 1.0);
  square.inertia = 1.0 / 6.0, square.angular_velocity = 3.0, square.impulse = {0.0, -0.01};
  std::vector<CollisionContact> corners;
  for (double x : {-0.2, 0.3, 0.8}) corners.push_back(on_floor(0, {x, 0.0}, 4.0, 0.7));
  programs.emplace_back(std::vector<RigidBodyState>{square}, corners);
  // Two disks side by side struck by a floor rising at 0.5 m/s (and
  // sliding): the wall's velocity is part of every floor contact's.
  std::vector<CollisionContact> floor;
  for (int b = 0; b < 2; ++b) {
    floor.push_back(on_floor(b, {double(b), 0.0}, 0.0, 0.3));
    floor.back().wall_velocity = {0.3, 0.5};
  }
  CollisionContact side;
  side.body = 1, side.other = 0, side.point = {0.5, 0.5}, side.normal = {1.0, 0.0};
  floor.push_back(side);
  programs.emplace_back(
      std::vector<RigidBodyState>{disk({0, 0.5}, {0.1, -0.2}, 1.0), disk({1, 0.5}, {0, 0}, 1.0)}, floor);
  for (const auto& [bodies, contacts] : programs) {
    const CollisionResult ip = resolve_collisions(bodies, contacts),
                          gs = resolve_collisions(bodies, contacts, gauss_seidel());
    ASSERT_TRUE(gs.program.converged) << gs.program.kkt_residual;
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      EXPECT_NEAR(gs.velocity[b].x, ip.velocity[b].x, 1e-7);
      EXPECT_NEAR(gs.velocity[b].y, ip.velocity[b].y, 1e-7);
      EXPECT_NEAR(gs.angular_velocity[b], ip.angular_velocity[b], 1e-7);
    }
    EXPECT_NEAR(gs.dissipated, ip.dissipated, 1e-7);
    EXPECT_NEAR(
        gs.dissipated,
        kinetic(bodies) - kinetic(bodies, gs) +
            [&] {
              double work = 0.0;  // the impulses' work at the mean velocities
              for (std::size_t b = 0; b < bodies.size(); ++b)
                work += 0.5 * dot(bodies[b].impulse, bodies[b].velocity + gs.velocity[b]);
              return work + gs.wall_work;  // and a moving wall's
            }(),
        1e-9);
  }
}

// A unit square sliding at v along a floor on two corners, pressed by its
// weight's impulse W = m g dt: Coulomb's friction takes μW off its momentum
// while it slides, and stops it outright when v < μ g dt (no reversal).
TEST(Collision, CoulombFrictionBrakesASlidingSquareAndSticksItWithoutReversal) {
  const double mu = 0.5, g = 9.81, dt = 1e-3;
  for (double v : {2.0, 0.3 * mu * g * dt}) {
    RigidBodyState square = disk({0.0, 0.5}, {v, 0.0}, 1.0);
    square.inertia = 1.0 / 6.0;
    square.impulse = {0.0, -g * dt};
    std::vector<CollisionContact> corners;
    for (double x : {-0.5, 0.5}) {
      corners.push_back(on_floor(0, {x, 0.0}, 0.0));
      corners.back().friction = mu;
    }
    const CollisionResult r = resolve_collisions({square}, corners, gauss_seidel());
    ASSERT_TRUE(r.program.converged) << r.program.kkt_residual;
    // To the sweeps' tolerance, 1e-9 of the velocities.
    const double expected = v > mu * g * dt ? v - mu * g * dt : 0.0;
    EXPECT_NEAR(r.velocity[0].x, expected, 1e-9) << "v = " << v;
    EXPECT_NEAR(r.velocity[0].y, 0.0, 1e-9);
    EXPECT_NEAR(r.angular_velocity[0], 0.0, 1e-9);
    EXPECT_NEAR(r.normal_percussion[0] + r.normal_percussion[1], g * dt, 1e-9 * g * dt * 10);
    EXPECT_GE(r.dissipated, 0.0);
  }
  // The interior point refuses friction rather than ignoring it.
  CollisionContact c = on_floor(0, {0, 0}, 0.0);
  c.friction = mu;
  EXPECT_THROW(resolve_collisions({disk({0, 0.5}, {1.0, 0.0})}, {c}), std::invalid_argument);
}

// A vertex touching a vertex is listed from both sides, the same
// constraint twice: the sweeps give the earlier one the whole percussion
// and the later none, and the bodies move as with the contact once.
TEST(Collision, GaussSeidelSolvesAContactSeenFromBothSidesOnce) {
  const Vec2 point{0.5, 0.2}, normal = Vec2{1.0, 0.3} / std::sqrt(1.09);
  std::vector<RigidBodyState> bodies{disk({0, 0}, {1.0, -0.4}, 1.0), disk({1.0, 0.4}, {-0.2, 0.1}, 2.0)};
  bodies[0].angular_velocity = 0.7;
  CollisionContact seen_from_first;
  seen_from_first.body = 1, seen_from_first.other = 0, seen_from_first.point = point, seen_from_first.normal = normal;
  seen_from_first.normal_dissipation = 0.4, seen_from_first.friction = 0.3;
  CollisionContact seen_from_second = seen_from_first;
  std::swap(seen_from_second.body, seen_from_second.other);
  seen_from_second.normal = -1.0 * normal;
  const CollisionResult once = resolve_collisions(bodies, {seen_from_first}, gauss_seidel());
  const CollisionResult twice = resolve_collisions(bodies, {seen_from_first, seen_from_second}, gauss_seidel());
  ASSERT_TRUE(once.program.converged && twice.program.converged);
  ASSERT_GT(once.normal_percussion[0], 0.0) << "the bodies collide";
  for (std::size_t b = 0; b < 2; ++b) {
    EXPECT_NEAR(twice.velocity[b].x, once.velocity[b].x, 1e-12);
    EXPECT_NEAR(twice.velocity[b].y, once.velocity[b].y, 1e-12);
    EXPECT_NEAR(twice.angular_velocity[b], once.angular_velocity[b], 1e-12);
  }
  EXPECT_NEAR(twice.normal_percussion[0], once.normal_percussion[0], 1e-12);
  EXPECT_NEAR(twice.tangential_percussion[0], once.tangential_percussion[0], 1e-12);
  EXPECT_EQ(twice.normal_percussion[1], 0.0);
  EXPECT_EQ(twice.tangential_percussion[1], 0.0);
  EXPECT_NEAR(twice.dissipated, once.dissipated, 1e-12);
}

TEST(Collision, BadContactsAreRefused) {
  const std::vector<RigidBodyState> bodies{disk({0, 0.5}, {0.0, -1.0})};
  CollisionContact c = on_floor(0, {0, 0}, 1.0);
  c.normal = {0.0, 2.0};
  EXPECT_THROW(resolve_collisions(bodies, {c}), std::invalid_argument);
  c = on_floor(3, {0, 0}, 1.0);
  EXPECT_THROW(resolve_collisions(bodies, {c}), std::invalid_argument);
  EXPECT_THROW(normal_dissipation_for(1.0, 1.0), std::invalid_argument);
  c = on_floor(0, {0, 0}, 1.0, 0.5);
  c.friction = 0.3;  // Coulomb and ξ_t at once: one tangential law only
  EXPECT_THROW(resolve_collisions(bodies, {c}, gauss_seidel()), std::invalid_argument);
}

}  // namespace
}  // namespace sphero
