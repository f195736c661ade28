// Walls, landscapes, pressure plates, materials and the Hertz law inside the
// engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "physics/scenes.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

using test::disk;
using test::linear_law;
using test::wall;
using test::world_of;

constexpr double kPi = std::numbers::pi;

TEST(Boundaries, PressurePlateSettlesWhereTheGrainsCarryPTimesItsLength) {
  // A column of 3 disks in a box just as wide as they are (a wider one lets
  // the compressed column buckle into a zig-zag), no gravity, a lid pushed
  // down with pressure p over its length: at rest it carries p L.
  const double p = 200.0, length = 1.2;
  std::vector<BodySpec> bodies{wall({{-0.55, 5}, {-0.55, -0.05}, {0.55, -0.05}, {0.55, 5}}, 0.05)};
  BodySpec lid = wall({{-0.6, 3.05}, {0.6, 3.05}}, 0.05);
  lid.constraint = pressure_plate(p, length, {0, -1});
  bodies.push_back(lid);
  for (int k = 0; k < 3; ++k) bodies.push_back(disk({0, 0.5 + 1.0 * k}, 0.5));
  ContactLaw law = linear_law(1e5, 50.0);
  EngineSettings s;
  s.dt = 1e-4;
  s.verlet_distance = 0.02;
  Engine e(world_of(bodies, law), s);
  e.run(40000);
  const World& w = e.world();
  // The lid's net force: the imposed p L down, balanced by the disks.
  EXPECT_NEAR(w.force[1].y, 0.0, 1e-3 * p * length);
  EXPECT_NEAR(std::abs(w.velocity[1].y), 0.0, 1e-6);
  EXPECT_EQ(w.position[1].x, 0.0);  // x held
  // Each disk carries p L: overlaps p L / k_n at its two contacts.
  const double overlap = p * length / law.kn;
  EXPECT_NEAR(w.position[1].y, 3.0 + 0.05 - 4 * overlap, 1e-6);
  EXPECT_NEAR(e.ledger().first_law_residual(), 0.0, 1e-3 * e.ledger().external_work);
}

TEST(Boundaries, PressurePlateRejectsOddDirections) {
  EXPECT_THROW(pressure_plate(1.0, 1.0, {0.6, 0.8}), std::invalid_argument);
  const BodyConstraint c = pressure_plate(2.0, 3.0, {1, 0});
  EXPECT_EQ(c.imposed_force.x, 6.0);
  EXPECT_TRUE(c.held[dof_y] && c.held[dof_rotation] && !c.held[dof_x]);
}

TEST(Boundaries, ShearPlateSlidesAtItsVelocityAcrossManyPeriodsUnderItsPressure) {
  // A layer of disks between a fixed rough floor and a rough lid pushed down
  // with pressure p and dragged along x, periodic in x. The lid travels
  // 3.5 periods: it must keep meeting the grains through its images
  // (a lid that lost them would fall through), move at exactly its
  // velocity, carry p L, and the ledger must book its work.
  const double period = 4.0, p = 100.0, v = 2.0;
  PeriodicCell cell;
  cell.periodic = {true, false};
  cell.low = {0, -2};
  cell.size = {period, 10};
  std::vector<Vec2> floor, lid_path;
  for (int k = 0; k <= 8; ++k) {
    floor.push_back({0.5 * k, k % 2 ? -0.15 : 0.0});
    lid_path.push_back({0.5 * k, k % 2 ? 2.55 : 2.4});
  }
  std::vector<BodySpec> bodies{wall(floor, 0.05)};
  BodySpec lid = wall(lid_path, 0.05);
  lid.constraint = pressure_plate(p, period, {0, -1}, v);
  bodies.push_back(lid);
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 2; ++j) bodies.push_back(disk({0.5 + 1.0 * k + 0.25 * j, 0.6 + 1.0 * j}, 0.45));
  EngineSettings s;
  s.dt = 1e-4;
  s.verlet_distance = 0.02;
  Engine e(world_of(bodies, linear_law(1e4, 20.0, 5e3, 0.5, 5.0), {}, cell), s);
  const double x0 = e.world().position[1].x;
  double lowest = INFINITY;
  for (int k = 0; k < 70000; ++k) {
    e.step();
    lowest = std::min(lowest, e.world().position[1].y);
  }
  const World& w = e.world();
  EXPECT_EQ(w.velocity[1].x, v);
  EXPECT_NEAR(w.position[1].x, x0 + v * e.time(), 1e-9);
  EXPECT_GT(w.position[1].x - x0, 3.4 * period);
  EXPECT_GT(lowest, 1.0);  // the lid stayed on the grains
  // The grains carry p L, averaged over the last steps' rattle.
  double carried = 0.0;
  for (int k = 0; k < 2000; ++k) e.step(), carried += e.world().force[1].y / 2000;
  EXPECT_NEAR(carried, 0.0, 0.1 * p * period);
  EXPECT_GT(e.ledger().external_work, 0.0);
  EXPECT_NEAR(e.ledger().first_law_residual(), 0.0, 1e-3 * e.ledger().external_work);
}

TEST(Boundaries, APlatesPressureActsOnTheSpanBetweenTheOtherTwoPlates) {
  // A biaxial box: bottom fixed, top driven down, the two sides pushed with
  // pressure p over the distance between bottom and top (less their radii).
  const double p = 50.0, r = 0.05;
  BodySpec bottom = wall({{-2, 0}, {2, 0}}, r), top = wall({{-2, 2.1}, {2, 2.1}}, r);
  top.constraint.held = {true, true, true};
  top.constraint.imposed_velocity = {0, -0.05, 0};
  BodySpec left = wall({{-1.05, -1}, {-1.05, 3}}, r), right = wall({{1.05, -1}, {1.05, 3}}, r);
  left.constraint = pressure_plate(p, 1.0, {1, 0});
  right.constraint = pressure_plate(p, 1.0, {-1, 0});
  left.constraint.span_bodies = right.constraint.span_bodies = {0, 1};
  std::vector<BodySpec> bodies{bottom, top, left, right};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) bodies.push_back(disk({-0.5 + i, 0.55 + j}, 0.5));
  EngineSettings s;
  s.dt = 1e-4;
  s.verlet_distance = 0.02;
  Engine e(world_of(bodies, linear_law(1e4, 20.0)), s);
  e.run(4000);
  const World& w = e.world();
  const double span = w.position[1].y - w.position[0].y - 2 * r;
  EXPECT_LT(span, 2.1 - 0.1 - 0.01);  // the top came down
  EXPECT_DOUBLE_EQ(w.constraint[2].imposed_force.x, p * span);
  EXPECT_DOUBLE_EQ(w.constraint[3].imposed_force.x, -p * span);
  EXPECT_NEAR(e.ledger().first_law_residual(), 0.0, 1e-3 * std::abs(e.ledger().external_work));
  BodySpec self = left;
  self.constraint.span_bodies = {0, 2};  // itself
  EXPECT_THROW(world_of({bottom, top, self, right}, linear_law(1e4)), std::invalid_argument);
}

TEST(Boundaries, CowBouncingOnAPeriodicLandscapeConservesEnergy) {
  // The bouncing cow, reduced: frictionless, undamped, periodic in x.
  std::vector<Vec2> ground;
  for (int k = 0; k <= 40; ++k) ground.push_back({-10.0 + 0.5 * k, 0.3 * std::sin(0.9 * k) + 0.2 * std::cos(2.1 * k)});
  PeriodicCell cell;
  cell.periodic = {true, false};
  cell.low = {-10, -5};
  cell.size = {20, 30};
  BodySpec cow;
  cow.shape = read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape");
  cow.position = {0, 4};
  cow.velocity = {3, 0};
  cow.angular_velocity = 0.5;
  std::vector<BodySpec> bodies{wall(ground, 0.1), cow};
  EngineSettings s;
  s.dt = 1e-4;
  s.verlet_distance = 0.2;
  Engine e(world_of(bodies, linear_law(1e5), {0, -10}, cell), s);
  const double e0 = e.ledger().mechanical();
  double worst = 0.0, scale = 0.0;
  bool touched = false;
  for (int k = 0; k < 30000; ++k) {  // 3 s: several bounces and a crossing of the seam
    e.step();
    worst = std::max(worst, std::abs(e.ledger().mechanical() - e0));
    scale = std::max(scale, e.ledger().kinetic());
    touched |= e.ledger().elastic() > 0.0;
  }
  std::printf("bouncing cow: largest |E - E0| = %.3g J against a kinetic energy of up to %.3g J\n", worst, scale);
  EXPECT_TRUE(touched);
  EXPECT_LT(worst, 1e-3 * scale);
}

TEST(Boundaries, HertzCollisionIsElastic) {
  ContactLaw hertz = linear_law(1e5);
  hertz.normal = NormalLaw::hertz;
  std::vector<BodySpec> bodies{disk({0, 0}, 0.5, {1, 0}), disk({1.1, 0.3}, 0.5, {-1, 0})};
  EngineSettings s;
  s.dt = 1e-5;
  s.verlet_distance = 0.02;
  Engine e(world_of(bodies, hertz), s);
  const double before = e.ledger().kinetic();
  e.run(20000);
  EXPECT_GT(std::abs(e.world().velocity[0].y), 0.1);  // an oblique hit: they did collide
  EXPECT_NEAR(e.ledger().kinetic(), before, 1e-6 * before);
  EXPECT_NEAR(e.ledger().elastic(), 0.0, 1e-12);
}

TEST(Materials, EachPairOfMaterialsUsesItsOwnLaw) {
  // Two disks on a wall of material 0: disk A is material 0, disk B is
  // material 1; the wall–A law is twice as stiff as the wall–B law.
  std::vector<BodySpec> bodies{wall({{-5, 0}, {5, 0}}, 0.05), disk({-2, 0.5}, 0.5), disk({2, 0.5}, 0.5)};
  bodies[2].material = 1;
  const ContactLaw stiff = linear_law(2000.0), soft = linear_law(1000.0), between = linear_law(1500.0);
  EngineSettings s;
  s.dt = 1e-5;
  s.verlet_distance = 0.02;
  Engine e(make_world(bodies, 2, {stiff, soft, soft, between}, {}), s);
  // Both disks overlap the wall by 0.05.
  EXPECT_NEAR(e.world().force[1].y, 2000.0 * 0.05, 1e-9);
  EXPECT_NEAR(e.world().force[2].y, 1000.0 * 0.05, 1e-9);
  EXPECT_THROW(make_world(bodies, 2, {stiff, soft, between, between}, {}), std::invalid_argument);  // not symmetric
  bodies[2].material = 2;
  EXPECT_THROW(make_world(bodies, 2, {stiff, soft, soft, between}, {}), std::invalid_argument);  // undefined
}

// A wall drawn across exactly one period of the cell meets its next copy
// at the seam; there it must act as one continuous wall, not as two free
// ends. `floor` in world coordinates; cell [0, 10) periodic in x.
Engine on_periodic_floor(std::vector<Vec2> floor, BodySpec grain, bool hold_rotation = true) {
  PeriodicCell cell;
  cell.periodic = {true, false};
  cell.low = {0, -5};
  cell.size = {10, 20};
  BodySpec w = wall(std::move(floor), 0.1);
  if (!hold_rotation) w.constraint.held = {true, true, false};
  EngineSettings s;
  s.dt = 1e-6;
  s.verlet_distance = 0.05;
  return Engine(world_of({w, grain}, linear_law(1000.0), {}, cell), s);
}

int touching(const Engine& e) {
  int n = 0;
  for (const Contact& c : e.contacts()) n += c.active;
  return n;
}

TEST(Boundaries, AStraightFloorAcrossOnePeriodPushesEvenlyOverItsSeam) {
  // A disk of radius 0.5 pressed δ = 0.01 into a floor (r = 0.1) at y = 0:
  // one contact, k_n δ straight up, wherever it is along x. Before floors
  // were joined at the seam, a disk within reach of x = 0 also met the free
  // end cap of the floor's next copy: up to twice the force there.
  for (double x : {5.0, 0.0, 0.05, 0.3, 9.7, 9.95, 9.999, 10.2, -0.1}) {
    SCOPED_TRACE("disk at x = " + std::to_string(x));
    const Engine e = on_periodic_floor({{0, 0}, {10, 0}}, disk({x, 0.59}, 0.5));
    EXPECT_EQ(e.world().seam[0], (Vec2{10, 0}));
    EXPECT_EQ(touching(e), 1);
    EXPECT_NEAR(e.world().force[1].x, 0.0, 1e-9);
    EXPECT_NEAR(e.world().force[1].y, 1000.0 * 0.01, 1e-9);
  }
}

TEST(Boundaries, ACornerOfAPeriodicFloorAtItsSeamIsOneCorner) {
  // Floor (0, 1) – (5, 0) – (10, 1) drawn right to left too: a ridge whose
  // crest is the seam. A disk straight above the crest, δ = 0.02, touches
  // the crest once (its cone bounded by both faces, one in each copy):
  // k_n δ up. Then a disk on the face beside the crest: the face only.
  for (bool reversed : {false, true}) {
    std::vector<Vec2> floor{{0, 1}, {5, 0}, {10, 1}};
    if (reversed) std::reverse(floor.begin(), floor.end());
    SCOPED_TRACE(reversed ? "drawn right to left" : "drawn left to right");
    for (double x : {0.0, 10.0}) {
      const Engine crest = on_periodic_floor(floor, disk({x, 1.58}, 0.5));
      EXPECT_EQ(touching(crest), 1);
      EXPECT_NEAR(crest.world().force[1].x, 0.0, 1e-9);
      EXPECT_NEAR(crest.world().force[1].y, 1000.0 * 0.02, 1e-9);
    }
    // On the face x ∈ (0, 5) of slope −1/5, just beside the crest: the disk
    // centre 0.58 from the face line along its normal (−(1/5), −1)/|·|
    // reversed; outside the crest's cone, so the face alone.
    const Vec2 normal = Vec2{1.0, 5.0} / std::sqrt(26.0);
    const Vec2 on_face{0.5, 1.0 - 0.1};
    const Engine face = on_periodic_floor(floor, disk(on_face + 0.58 * normal, 0.5));
    EXPECT_EQ(touching(face), 1);
    EXPECT_NEAR(face.world().force[1].x, 1000.0 * 0.02 * normal.x, 1e-9);
    EXPECT_NEAR(face.world().force[1].y, 1000.0 * 0.02 * normal.y, 1e-9);
  }
}

TEST(Boundaries, OnlyAWallAcrossExactlyOnePeriodThatCannotTurnIsJoinedAtItsSeam) {
  // Shorter than the period: two free ends, each with its end cap. A disk
  // beyond the end at x = 9 touches the cap at (9, 0) at 45°.
  const Engine short_floor =
      on_periodic_floor({{0, 0}, {9, 0}}, disk({9.0 + 0.58 / std::sqrt(2.0), 0.58 / std::sqrt(2.0)}, 0.5));
  EXPECT_EQ(short_floor.world().seam[0], Vec2{});
  EXPECT_EQ(touching(short_floor), 1);
  EXPECT_NEAR(short_floor.world().force[1].x, 1000.0 * 0.02 / std::sqrt(2.0), 1e-9);
  EXPECT_NEAR(short_floor.world().force[1].y, 1000.0 * 0.02 / std::sqrt(2.0), 1e-9);
  // Free to turn: the seam would not stay a seam, so none is made.
  const Engine turning = on_periodic_floor({{0, 0}, {10, 0}}, disk({5, 0.59}, 0.5), /*hold_rotation=*/false);
  EXPECT_EQ(turning.world().seam[0], Vec2{});
}

}  // namespace
}  // namespace sphero
