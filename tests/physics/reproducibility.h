// Scenes and comparisons for the tests that hold runs to the same bits
// (threads, neighbour strategies): a falling mixture of cows, hexagons and
// disks, and a body-by-body, contact-by-contact comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "engine/engine.h"
#include "physics/scenes.h"
#include "shapes/shape_file.h"

namespace sphero::test {

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
inline bool same_bits(Vec2 a, Vec2 b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y); }

// Frictional, damped, non-convex cows and rounded polygons in a box that is
// periodic in x, under gravity: many contacts open and close and the
// neighbour list is rebuilt (with an adaptive skin) while the grains fall.
// driven: a lid above them is driven down and a grain is pushed sideways
// (bodies whose loads and motions do work).
inline Engine falling_mixture(int threads, Integrator integrator, int rows = 16, bool driven = false,
                              NeighbourStrategy neighbours = NeighbourStrategy::cells) {
  std::vector<BodySpec> bodies;
  bodies.push_back(wall({{-1, 0}, {61, 0}}, 0.1));
  if (driven) {
    BodySpec lid = wall({{-1, 4.0 * rows + 3.0}, {61, 4.0 * rows + 3.0}}, 0.1);
    lid.constraint.held = {true, true, true};
    lid.constraint.imposed_velocity = {0.0, -6.0, 0.0};
    bodies.push_back(lid);
  }
  const Shape cow = read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape");
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> turn(0.0, 6.28), speed(-4.0, 4.0);
  for (int k = 0; k < 15 * rows; ++k) {
    BodySpec b = k % 3 == 0 ? regular_polygon_body(6, 0.8, 0.15, {}, 0.0) : (k % 3 == 1 ? disk({}, 0.9) : BodySpec{});
    if (k % 3 == 2) b.shape = cow;
    b.position = {2.0 + 4.0 * (k % 15), 2.5 + 4.0 * (k / 15)};
    b.angle = turn(random);
    b.velocity = {speed(random), speed(random)};
    if (driven && k == 7 * rows) b.constraint.imposed_force = {300.0, 0.0};
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
  s.neighbours = neighbours;
  return Engine(std::move(w), s);
}

inline void expect_identical(const Engine& a, const Engine& b) {
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
  EXPECT_TRUE(same_bits(la.external_work, lb.external_work));
  const std::vector<Contact> ca = a.contacts(), cb = b.contacts();
  ASSERT_EQ(ca.size(), cb.size());
  for (std::size_t k = 0; k < ca.size(); ++k) {
    EXPECT_EQ(ca[k].vertex, cb[k].vertex);
    EXPECT_TRUE(same_bits(ca[k].xi, cb[k].xi)) << "contact " << k;
    EXPECT_TRUE(same_bits(ca[k].force, cb[k].force)) << "contact " << k;
  }
}

// The run compared was not trivial: grains touched and the list was rebuilt.
inline void expect_not_trivial(const Engine& e) {
  int touching = 0;
  for (const Contact& c : e.contacts()) touching += c.active;
  EXPECT_GT(touching, 10);
  EXPECT_GT(e.neighbour_stats().rebuilds, 5);
}

}  // namespace sphero::test
