// Reproducibility across thread counts: the same scene run with 1, 2 and 3
// threads gives bit-identical states, energy ledgers and contact lists.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "engine/engine.h"
#include "physics/scenes.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

using namespace test;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(Vec2 a, Vec2 b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y); }

// Frictional, damped, non-convex cows and rounded polygons in a box that is
// periodic in x, under gravity: many contacts open and close and the
// neighbour list is rebuilt (with an adaptive skin) while the grains fall.
Engine falling_mixture(int threads, Integrator integrator) {
  std::vector<BodySpec> bodies;
  bodies.push_back(wall({{-1, 0}, {61, 0}}, 0.1));
  const Shape cow = read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape");
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> turn(0.0, 6.28), speed(-4.0, 4.0);
  for (int k = 0; k < 240; ++k) {
    BodySpec b = k % 3 == 0 ? regular_polygon_body(6, 0.8, 0.15, {}, 0.0)
                            : (k % 3 == 1 ? disk({}, 0.9) : BodySpec{});
    if (k % 3 == 2) b.shape = cow;
    b.position = {2.0 + 4.0 * (k % 15), 2.5 + 4.0 * (k / 15)};
    b.angle = turn(random);
    b.velocity = {speed(random), speed(random)};
    bodies.push_back(b);
  }
  PeriodicCell cell;
  cell.periodic = {true, false};
  cell.low = {0, -5};
  cell.size = {60, 100};
  World w = world_of(bodies, linear_law(1e5, 50.0, 5e4, 0.5), {0, -20.0}, cell);
  EngineSettings s;
  s.dt = 1e-4;
  s.integrator = integrator;
  s.verlet_distance = 0.2;
  s.adaptive_verlet_distance = true;
  s.threads = threads;
  return Engine(std::move(w), s);
}

void expect_identical(const Engine& a, const Engine& b) {
  const World &wa = a.world(), &wb = b.world();
  ASSERT_EQ(wa.size(), wb.size());
  for (std::size_t i = 0; i < wa.size(); ++i) {
    EXPECT_TRUE(same_bits(wa.position[i], wb.position[i])) << "body " << i;
    EXPECT_TRUE(same_bits(wa.velocity[i], wb.velocity[i])) << "body " << i;
    EXPECT_TRUE(same_bits(wa.angle[i], wb.angle[i])) << "body " << i;
    EXPECT_TRUE(same_bits(wa.angular_velocity[i], wb.angular_velocity[i])) << "body " << i;
    EXPECT_TRUE(same_bits(wa.force[i], wb.force[i])) << "body " << i;
  }
  const EnergyLedger &la = a.ledger(), &lb = b.ledger();
  EXPECT_TRUE(same_bits(la.mechanical(), lb.mechanical()));
  EXPECT_TRUE(same_bits(la.damping_dissipation, lb.damping_dissipation));
  EXPECT_TRUE(same_bits(la.sliding_dissipation, lb.sliding_dissipation));
  EXPECT_TRUE(same_bits(la.elastic_tangential, lb.elastic_tangential));
  const std::vector<Contact> ca = a.contacts(), cb = b.contacts();
  ASSERT_EQ(ca.size(), cb.size());
  for (std::size_t k = 0; k < ca.size(); ++k) {
    EXPECT_EQ(ca[k].vertex, cb[k].vertex);
    EXPECT_TRUE(same_bits(ca[k].xi, cb[k].xi)) << "contact " << k;
    EXPECT_TRUE(same_bits(ca[k].force, cb[k].force)) << "contact " << k;
  }
}

TEST(Threads, OneTwoAndThreeThreadsGiveBitIdenticalRuns) {
  for (Integrator integrator : {Integrator::velocity_verlet, Integrator::gear}) {
    Engine one = falling_mixture(1, integrator), two = falling_mixture(2, integrator);
    for (int chunk = 0; chunk < 4; ++chunk) {
      one.run(2500), two.run(2500);
      expect_identical(one, two);
    }
    // An odd split of the work too (more threads than this machine's cores
    // is slow, so briefly).
    Engine three{one.snapshot()};
    three.set_threads(3);
    one.run(300), three.run(300);
    expect_identical(one, three);
    // The run was not trivial: grains touched and the list was rebuilt.
    int touching = 0;
    for (const Contact& c : one.contacts()) touching += c.active;
    EXPECT_GT(touching, 10);
    EXPECT_GT(one.neighbour_stats().rebuilds, 5);
  }
}

TEST(Threads, AThreadCountChangedMidRunChangesNothing) {
  Engine steady = falling_mixture(1, Integrator::velocity_verlet), switched = falling_mixture(2, Integrator::velocity_verlet);
  steady.run(3000), switched.run(3000);
  switched.set_threads(1);
  steady.run(2000), switched.run(2000);
  expect_identical(steady, switched);
  EXPECT_THROW(switched.set_threads(0), std::invalid_argument);
}

}  // namespace
}  // namespace sphero
