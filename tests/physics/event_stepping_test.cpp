// The rigid model stepped from collision to collision (stepping = events,
// docs/MODEL.md §8): collisions at their exact instants, an elastic gas
// that keeps its energy to rounding, and a heap that settles by handing
// its resting contacts to the time-stepping.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <vector>

#include "engine/engine.h"
#include "physics/scenes.h"

namespace sphero {
namespace {

using test::disk;
using test::wall;

World rigid_world(std::vector<BodySpec> bodies, double restitution, Vec2 gravity = {}) {
  World w = test::world_of(std::move(bodies), test::linear_law(1.0), gravity);
  RigidLaw law;
  law.restitution = restitution;
  w.rigid_law = {law};
  return w;
}

EngineSettings event_settings(double dt) {
  EngineSettings s;
  s.model = Model::rigid;
  s.dt = dt;
  s.verlet_distance = 0.05;
  s.rigid.gap = 1e-3;
  s.rigid.overlap_tolerance = 1e-3;
  s.rigid.events = true;
  // The cases below are checked to 1e-12: the interior point, exact to its
  // tolerance, where a program is solved.
  s.rigid.solver = RigidSolver::interior_point;
  s.rigid.qp_tolerance = 1e-9;
  return s;
}

// Two disks of radius 0.5 three apart closing at 2 m/s meet at t = 1
// exactly, and equal masses exchange their velocities: at t = 1.25 each is
// 0.25 s back along its way.
TEST(EventStepping, TwoDisksMeetAtTheInstantTheGapCloses) {
  Engine e(
      rigid_world({disk({0.0, 0.0}, 0.5, {1.0, 0.0}), disk({3.0, 0.0}, 0.5, {-1.0, 0.0})}, 1.0), event_settings(0.05));
  e.run(25);
  EXPECT_NEAR(e.world().velocity[0].x, -1.0, 1e-12);
  EXPECT_NEAR(e.world().velocity[1].x, 1.0, 1e-12);
  EXPECT_NEAR(e.world().position[0].x, 0.75, 1e-10);
  EXPECT_NEAR(e.world().position[1].x, 2.25, 1e-10);
  EXPECT_EQ(e.collision_stats().events, 1);
  EXPECT_EQ(e.collision_stats().handed_over, 0);
}

// Three touching disks in a row, elastic, no gravity: the first strikes
// the second at 1 m/s while the third is slowly parting from it. The struck
// disk is driven into the third at once, and that collision is met at the
// same instant (not a step later, after they overlapped): the third leaves
// at the striker's speed.
TEST(EventStepping, ACollisionThatDrivesATouchingPairTogetherCollidesThemAtOnce) {
  Engine e(
      rigid_world({disk({0.0, 0.0}, 0.5, {1.0, 0.0}), disk({1.0, 0.0}, 0.5), disk({2.0, 0.0}, 0.5, {1e-3, 0.0})}, 1.0),
      event_settings(0.05));
  double deepest = 0.0;
  for (int k = 0; k < 40; ++k) {
    e.step();
    const World& w = e.world();
    deepest = std::max({deepest, 1.0 - (w.position[1].x - w.position[0].x), 1.0 - (w.position[2].x - w.position[1].x)});
  }
  EXPECT_NEAR(e.world().velocity[0].x, 0.0, 1e-9);
  EXPECT_NEAR(e.world().velocity[1].x, 1e-3, 1e-9);
  EXPECT_NEAR(e.world().velocity[2].x, 1.0, 1e-9);
  EXPECT_LT(deepest, 1e-9);
  EXPECT_EQ(e.collision_stats().handed_over, 0);
}

// A disk dropped from rest onto a floor under gravity, elastic: it meets
// the floor when it has fallen its height, at √(2h/g), and rises back to
// where it started.
TEST(EventStepping, ADroppedDiskBouncesBackToItsHeight) {
  const double g = 9.81, h = 1.0;
  Engine e(
      rigid_world({wall({{-5, 0}, {5, 0}}, 0.1), disk({0.0, 0.6 + h}, 0.5)}, 1.0, {0.0, -g}), event_settings(1e-3));
  const double fall = std::sqrt(2.0 * h / g);
  e.run(static_cast<long>(std::round(2.0 * fall / 1e-3)));  // down and up again
  EXPECT_NEAR(e.world().position[1].y, 0.6 + h, 1e-6);
  EXPECT_GE(e.collision_stats().events, 1);
}

// A wall driven at 50 m/s flies 2.5 m a step of 0.05 s, fifty times the
// skin: the disk 2.4 m ahead of its face (not on the list when the step
// begins) is struck at t = 0.048 and leaves at (1 + e) 50 = 75 m/s, so at
// the step's end it is 75 × 0.002 m on from where it was. The wall's work
// is the disk's kinetic energy less what the collision dissipated.
TEST(EventStepping, AWallFlyingManySkinsAStepStillStrikesWhatIsInItsWay) {
  BodySpec piston = wall({{0, -2}, {0, 2}}, 0.1);
  piston.constraint.imposed_velocity = {50.0, 0.0, 0.0};
  piston.constraint.held = {true, true, true};
  const double e_n = 0.5;
  Engine e(rigid_world({piston, disk({3.0, 0.0}, 0.5)}, e_n), event_settings(0.05));
  e.step();
  EXPECT_NEAR(e.world().velocity[1].x, (1.0 + e_n) * 50.0, 1e-9);
  EXPECT_NEAR(e.world().position[1].x, 3.0 + 75.0 * 0.002, 1e-9);
  EXPECT_NEAR(e.world().position[0].x, 2.5, 1e-12);
  EXPECT_GT(e.collision_stats().relists, 10);
  EXPECT_EQ(e.collision_stats().events, 1);
  const double kinetic = 0.5 * e.world().mass[1] * 75.0 * 75.0;
  EXPECT_NEAR(e.ledger().external_work, kinetic + e.ledger().dissipated(), 1e-9 * kinetic);
  e.run(4);  // ahead of the wall now, and faster
  EXPECT_NEAR(e.world().position[1].x, 3.0 + 75.0 * 0.202, 1e-9);
  EXPECT_EQ(e.collision_stats().events, 1);
}

// The same wall is too fast for the time-stepping: two disks resting
// against each other are time-stepped (as a cluster, or the whole step
// handed over), and the run stops, saying why.
TEST(EventStepping, ATimeSteppedClusterWithAWallTooFastForItStopsTheRun) {
  BodySpec piston = wall({{0, -2}, {0, 2}}, 0.1);
  piston.constraint.imposed_velocity = {50.0, 0.0, 0.0};
  piston.constraint.held = {true, true, true};
  for (const bool whole_steps : {false, true}) {
    EngineSettings s = event_settings(0.05);
    s.rigid.whole_step_events = whole_steps;
    Engine e(rigid_world({piston, disk({30.0, 0.0}, 0.5), disk({31.0, 0.0}, 0.5)}, 0.5), s);
    try {
      e.step();
      FAIL() << "stepped";
    } catch (const InstabilityError& err) {
      const std::string message = err.what();
      EXPECT_NE(message.find(whole_steps ? "handed to the time-stepping" : "are time-stepped"), std::string::npos)
          << message;
      EXPECT_NE(message.find("moves 2.5 m in one step of 0.05 s"), std::string::npos) << message;
    }
  }
}

// A step handed to the time-stepping is checked as one: a disk flying 5
// m (five times its size) in it could have passed through grains, and the
// run stops; flown by events, the same flight is no sign of trouble, also
// beside a resting pair time-stepped as a cluster.
TEST(EventStepping, AHandedOverStepStillStopsAGrainFlyingPastItsSize) {
  const std::vector<BodySpec> bodies{
      disk({0.0, 0.0}, 0.5), disk({1.0, 0.0}, 0.5), disk({20.0, 0.0}, 0.5, {100.0, 0.0})};
  EngineSettings whole_steps = event_settings(0.05);
  whole_steps.rigid.whole_step_events = true;
  Engine handed_over(rigid_world(bodies, 0.5), whole_steps);
  EXPECT_THROW(handed_over.step(), InstabilityError);
  Engine beside_a_cluster(rigid_world(bodies, 0.5), event_settings(0.05));
  EXPECT_NO_THROW(beside_a_cluster.run(3));
  EXPECT_NEAR(beside_a_cluster.world().position[2].x, 35.0, 1e-9);
  EXPECT_EQ(beside_a_cluster.body_steps().flown, 3.0);
  EXPECT_EQ(beside_a_cluster.body_steps().time_stepped, 6.0);
  Engine flying(rigid_world({disk({0.0, 0.0}, 0.5), disk({20.0, 0.0}, 0.5, {100.0, 0.0})}, 0.5), event_settings(0.05));
  EXPECT_NO_THROW(flying.run(3));
  EXPECT_NEAR(flying.world().position[1].x, 35.0, 1e-9);
}

// Three disks resting on a floor are time-stepped as a cluster while a
// fourth, dropped beside them, flies: it meets the floor at its instant
// and rises back to its height as when alone, and the row does not move.
TEST(EventStepping, AGrainFlownBesideARestingClusterBouncesAsAlone) {
  const double g = 9.81, h = 1.0, dt = 1e-3;
  Engine e(rigid_world({wall({{-5, 0}, {9, 0}}, 0.1), disk({0.0, 0.6}, 0.5), disk({1.0, 0.6}, 0.5),
                        disk({2.0, 0.6}, 0.5), disk({6.0, 0.6 + h}, 0.5)},
                       1.0, {0.0, -g}),
           event_settings(dt));
  const long steps = std::lround(2.0 * std::sqrt(2.0 * h / g) / dt);  // down and up again
  e.run(steps);
  EXPECT_NEAR(e.world().position[4].y, 0.6 + h, 1e-6);
  for (std::size_t i = 1; i <= 3; ++i) {
    EXPECT_NEAR(e.world().position[i].x, static_cast<double>(i - 1), 1e-12) << "disk " << i;
    EXPECT_NEAR(e.world().position[i].y, 0.6, 1e-9) << "disk " << i;
  }
  const CollisionStats s = e.collision_stats();
  EXPECT_EQ(e.body_steps().flown, static_cast<double>(steps));
  EXPECT_EQ(e.body_steps().time_stepped, 3.0 * static_cast<double>(steps));
  EXPECT_EQ(s.handed_over, 0);
  EXPECT_GE(s.events, 1);
}

// Without gravity a row of three touching disks at rest is a resting
// cluster, time-stepped. A fourth flies into it at 3 m/s and strikes it at
// t = 13/12 s, within a step, the instant its gap closes (one touching it at
// a step's start would join the cluster and collide in its program
// instead): the struck disk, disturbed, strikes
// the next at the same instant, and that one the last, as flying disks
// would (Newton's cradle, elastic): the last leaves at 3 m/s, the others
// stop, with the momentum and the energy kept to rounding and no overlap.
TEST(EventStepping, AFlyingGrainStrikesARestingClusterAtItsInstant) {
  Engine e(rigid_world({disk({0.0, 0.0}, 0.5), disk({1.0, 0.0}, 0.5), disk({2.0, 0.0}, 0.5),
                        disk({6.25, 0.0}, 0.5, {-3.0, 0.0})},
                       1.0),
           event_settings(0.05));
  const double mass = e.world().mass[3], energy = 0.5 * mass * 9.0;
  e.run(30);  // to t = 1.5 s: the last disk 5/12 s on its way
  const World& w = e.world();
  EXPECT_NEAR(w.velocity[0].x, -3.0, 1e-12);
  for (std::size_t i = 1; i <= 3; ++i) EXPECT_NEAR(w.velocity[i].x, 0.0, 1e-12) << "disk " << i;
  EXPECT_NEAR(w.position[0].x, -1.25, 1e-9);
  EXPECT_NEAR(w.position[3].x, 3.0, 1e-9);
  double momentum = 0.0, kinetic = 0.0;
  for (std::size_t i = 0; i < 4; ++i)
    momentum += w.mass[i] * w.velocity[i].x, kinetic += 0.5 * w.mass[i] * norm2(w.velocity[i]);
  EXPECT_NEAR(momentum, -3.0 * mass, 1e-12 * mass);
  EXPECT_NEAR(kinetic, energy, 1e-12 * energy);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_GE(w.position[i].x - w.position[i - 1].x, 1.0 - 1e-12) << "disk " << i;
  const CollisionStats s = e.collision_stats();
  EXPECT_EQ(s.events, 3);
  EXPECT_GT(e.body_steps().time_stepped, 3.0 * 19);  // the row, before the strike
  EXPECT_EQ(s.handed_over, 0);
}

// A disk thrown sideways at u (no spin) falls onto a floor
// with Coulomb friction, stepped by events with the Gauss-Seidel solver:
// the one contact's 2 x 2 problem is solved exactly, so the rebound is
// Coulomb's impulse with restitution in closed form. The normal
// percussion P_n = m (1 + e) w (w the impact speed); the slip u is
// stopped where m_t u ≤ μ P_n (m_t = 1 / (1/m + r²/I), the tangential
// effective mass) and braked by μ P_n otherwise, never reversed.
TEST(EventStepping, AFrictionalBounceIsCoulombsImpulseInClosedForm) {
  const double g = 9.81, h = 0.5, u = 3.0, e = 0.5, dt = 1e-3;
  for (const double mu : {0.1, 1.0}) {  // sliding through the impact, then sticking
    World w = rigid_world({wall({{-5, 0}, {5, 0}}, 0.1), disk({0.0, 0.6 + h}, 0.5, {u, 0.0})}, e, {0.0, -g});
    w.rigid_law[0].friction = mu;
    EngineSettings s = event_settings(dt);
    s.rigid.solver = RigidSolver::gauss_seidel;
    Engine engine(std::move(w), s);
    const double m = engine.world().mass[1], inertia = engine.world().inertia[1], r = 0.5;
    const double impact = std::sqrt(2.0 * h / g), speed = g * impact;
    const long steps = std::lround(impact / dt) + 20;  // 20 steps past the impact
    engine.run(steps);
    const double normal = m * (1.0 + e) * speed, tangential_mass = 1.0 / (1.0 / m + r * r / inertia);
    const bool sticks = tangential_mass * u <= mu * normal;
    const double tangential = sticks ? -tangential_mass * u : -mu * normal;
    const World& after = engine.world();
    EXPECT_NEAR(after.velocity[1].x, u + tangential / m, 1e-9) << "mu " << mu;
    EXPECT_NEAR(after.angular_velocity[1], r * tangential / inertia, 1e-9) << "mu " << mu;
    EXPECT_NEAR(after.velocity[1].y, e * speed - g * (static_cast<double>(steps) * dt - impact), 1e-9) << "mu " << mu;
    if (sticks) EXPECT_NEAR(after.velocity[1].x + r * after.angular_velocity[1], 0.0, 1e-9);  // rolls off
    EXPECT_EQ(engine.collision_stats().events, 1);
    EXPECT_EQ(engine.body_steps().time_stepped, 0.0);
  }
}

// Without gravity, two disks rest against each other, and a third, within
// the gap of one and closing at 100 m/s, joins their cluster: its program
// throws the far disk at tens of metres a second, metres a step of 0.05 s,
// towards a second resting pair 3 m away that the program never saw. The
// thrown disk is disturbed at once and meets that pair at its instant:
// no disk passes through another, and the momentum is kept.
TEST(EventStepping, AGrainAClusterThrowsFarIsFlownByEvents) {
  Engine e(rigid_world({disk({-4.0, 0.0}, 0.5), disk({-3.0, 0.0}, 0.5), disk({0.0, 0.0}, 0.5), disk({1.0, 0.0}, 0.5),
                        disk({2.0005, 0.0}, 0.5, {-100.0, 0.0})},
                       0.5),
           event_settings(0.05));
  const double momentum = -100.0 * e.world().mass[4];
  double closest = INFINITY;
  for (int k = 0; k < 4; ++k) {
    e.step();
    const World& w = e.world();
    for (std::size_t i = 0; i < w.size(); ++i)
      for (std::size_t j = i + 1; j < w.size(); ++j) closest = std::min(closest, norm(w.position[i] - w.position[j]));
  }
  EXPECT_GT(closest, 1.0 - 1e-6);
  double p = 0.0;
  for (std::size_t i = 0; i < e.world().size(); ++i) p += e.world().mass[i] * e.world().velocity[i].x;
  EXPECT_NEAR(p, momentum, 1e-9 * std::abs(momentum));
  EXPECT_LT(e.world().position[0].x, -4.0);  // the far pair was struck
}

// Disks thrown about a closed box, elastic: every collision binary (solved
// in closed form), the energy kept to 1e-12 over 10⁵ of them,
// and no overlap.
TEST(EventStepping, AnElasticGasKeepsItsEnergy) {
  std::vector<BodySpec> bodies{wall({{0, 0}, {16, 0}, {16, 16}, {0, 16}, {0, 0}}, 0.1)};
  std::mt19937_64 random(9);
  std::uniform_real_distribution<double> speed(-1.0, 1.0);
  for (int k = 0; k < 64; ++k)
    bodies.push_back(disk({1.2 + 1.9 * (k % 8), 1.2 + 1.9 * (k / 8)}, 0.5, {speed(random), speed(random)}));
  Engine e(rigid_world(bodies, 1.0), event_settings(0.02));
  const double initial = e.ledger().kinetic_translational + e.ledger().kinetic_rotational;
  // The deepest overlap, disk on disk or disk on wall (the box's inner
  // faces at 0.1 and 15.9), checked every 50 steps.
  double deepest = 0.0;
  while (e.collision_stats().events < 100000) {
    e.run(50);
    const World& w = e.world();
    for (std::size_t i = 1; i < w.size(); ++i) {
      const Vec2 p = w.position[i];
      for (double face : {p.x - 0.1, p.y - 0.1, 15.9 - p.x, 15.9 - p.y}) deepest = std::max(deepest, 0.5 - face);
      for (std::size_t j = i + 1; j < w.size(); ++j) deepest = std::max(deepest, 1.0 - norm(p - w.position[j]));
    }
  }
  const double final_energy = e.ledger().kinetic_translational + e.ledger().kinetic_rotational;
  EXPECT_NEAR(final_energy / initial, 1.0, 1e-12) << "after " << e.collision_stats().events << " collisions";
  std::ostringstream change;
  change << std::scientific << final_energy / initial - 1.0;
  RecordProperty("relative_energy_change", change.str());
  EXPECT_LT(deepest, 1e-9);
  EXPECT_EQ(e.collision_stats().handed_over, 0);
}

// Dissipative disks dropped into a box: as they come to rest, bouncing
// ever lower, the collisions would come ever faster (inelastic collapse).
// The resting clusters go to the time-stepping, so the run goes on at its
// pace and the heap settles; energy is only ever dissipated.
TEST(EventStepping, AFallingHeapSettlesThroughTheTimeStepping) {
  std::vector<BodySpec> bodies{wall({{0, 12}, {0, 0}, {6, 0}, {6, 12}}, 0.1)};
  std::mt19937_64 random(4);
  std::uniform_real_distribution<double> speed(-1.0, 1.0);
  for (int k = 0; k < 30; ++k)
    bodies.push_back(disk({0.8 + 1.1 * (k % 5), 1.0 + 1.2 * (k / 5)}, 0.5, {speed(random), speed(random)}));
  Engine e(rigid_world(bodies, 0.5, {0.0, -9.81}), event_settings(1e-3));
  const double initial = e.ledger().mechanical();
  double lowest_dissipation = 0.0;
  for (int chunk = 0; chunk < 40; ++chunk) {  // 4 s
    e.run(100);
    EXPECT_GE(e.ledger().dissipated(), lowest_dissipation - 1e-12);
    lowest_dissipation = e.ledger().dissipated();
  }
  const CollisionStats s = e.collision_stats();
  EXPECT_GT(s.events, 30);  // the fall's collisions met as events
  // The heap's grains time-stepped: most of the 4 s.
  const BodySteps steps = e.body_steps();
  EXPECT_GT(steps.time_stepped, 0.5 * (steps.flown + steps.time_stepped));
  double fastest = 0.0;
  for (std::size_t i = 1; i < e.world().size(); ++i) fastest = std::max(fastest, norm(e.world().velocity[i]));
  EXPECT_LT(fastest, 0.05);  // at rest, to a step of gravity's impulse
  EXPECT_LT(e.ledger().mechanical(), initial);
  for (std::size_t i = 1; i < e.world().size(); ++i) EXPECT_GT(e.world().position[i].y, 0.59 - 1e-3);
}

// Disks falling through a hopper: collisions among the falling grains are
// events, the jam at the aperture and the pile below are time-stepped, and
// the grains keep flowing out — the hopper does not stall, and it empties
// at the pace of the time-stepping alone (about 8 disks a second here).
TEST(EventStepping, AHopperDischargesAsWithTimeStepping) {
  std::vector<BodySpec> bodies{wall({{0, 14}, {0, 0}, {12, 0}, {12, 14}}, 0.1), wall({{0.1, 6}, {4.5, 4}}, 0.1),
                               wall({{8.0, 4}, {11.9, 6}}, 0.1)};
  std::mt19937_64 random(2);
  std::uniform_real_distribution<double> speed(-0.5, 0.5);
  for (int k = 0; k < 40; ++k)
    bodies.push_back(disk({1.2 + 1.2 * (k % 9), 7.0 + 1.2 * (k / 9)}, 0.5, {speed(random), speed(random)}));
  const auto discharged = [&](bool events, CollisionStats& stats, BodySteps& steps) {
    EngineSettings s = event_settings(1e-3);
    s.rigid.events = events;
    Engine e(rigid_world(bodies, 0.5, {0.0, -9.81}), s);
    e.run(5000);
    stats = e.collision_stats();
    steps = e.body_steps();
    int below = 0;
    for (std::size_t i = 3; i < e.world().size(); ++i) below += e.world().position[i].y < 4.0;
    return below;
  };
  CollisionStats with_events, with_steps;
  BodySteps shares, none;
  const int by_events = discharged(true, with_events, shares), by_steps = discharged(false, with_steps, none);
  EXPECT_GE(by_events, 30) << "of 40 disks through the aperture after 5 s";
  EXPECT_NEAR(by_events, by_steps, 5);
  EXPECT_GT(with_events.events, 40);
  EXPECT_GT(shares.time_stepped, 0.0);
  EXPECT_GT(shares.flown, 0.0);
  EXPECT_EQ(none.flown + none.time_stepped, 0.0);  // counted by events alone
}

}  // namespace
}  // namespace sphero
