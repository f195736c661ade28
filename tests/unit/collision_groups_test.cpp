// Independent groups of colliding bodies solved as programs of their own,
// on several threads at once: the same bits as one after another, whatever
// the order the programs run in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

#include "rigid/collision_components.h"

namespace sphero {
namespace {

// `chains` rows of `length` touching disks, each disk moving along the row
// at its own speed (most pairs approach), `pairs` head-on pairs and
// `triples` rows of three.
struct Scene {
  std::vector<RigidBodyState> bodies;
  std::vector<CollisionContact> contacts;
};

void add_row(Scene& s, int length, double y, double xi_n) {
  const auto first = static_cast<int>(s.bodies.size());
  for (int i = 0; i < length; ++i) {
    RigidBodyState b;
    b.mass = 1.0 + 0.1 * (i % 3);
    b.inertia = 0.125 * b.mass;
    b.centre = {static_cast<double>(i), y};
    b.velocity = {0.3 * std::cos(1.7 * i + y), 0.05 * std::sin(0.9 * i)};
    b.impulse = {0.0, -0.02 * b.mass};
    s.bodies.push_back(b);
    if (i == 0) continue;
    CollisionContact c;
    c.body = first + i, c.other = first + i - 1;
    c.point = {i - 0.5, y};
    c.normal = {1.0, 0.0};
    c.normal_dissipation = xi_n;
    c.tangential_dissipation = 0.3;
    s.contacts.push_back(c);
  }
}

Scene scene(int chains, int length, int pairs, int triples) {
  Scene s;
  for (int k = 0; k < chains; ++k) add_row(s, length, 3.0 * k, k % 2 == 0 ? 0.0 : 2.0);
  for (int k = 0; k < pairs; ++k) add_row(s, 2, -3.0 * (k + 1), 1.0);
  for (int k = 0; k < triples; ++k) add_row(s, 3, 3.0 * (chains + k), 1.0);
  return s;
}

// Runs the jobs on real threads, last first: what the engine's team may do.
void on_threads(std::size_t count, const std::function<void(std::size_t)>& job) {
  std::vector<std::thread> threads;
  for (std::size_t k = count; k-- > 0;) threads.emplace_back([&job, k] { job(k); });
  for (std::thread& t : threads) t.join();
}

void expect_same_bits(const CollisionResult& a, const CollisionResult& b) {
  ASSERT_EQ(a.velocity.size(), b.velocity.size());
  for (std::size_t i = 0; i < a.velocity.size(); ++i) {
    EXPECT_EQ(a.velocity[i].x, b.velocity[i].x);
    EXPECT_EQ(a.velocity[i].y, b.velocity[i].y);
    EXPECT_EQ(a.angular_velocity[i], b.angular_velocity[i]);
  }
  EXPECT_EQ(a.normal_percussion, b.normal_percussion);
  EXPECT_EQ(a.tangential_percussion, b.tangential_percussion);
  EXPECT_EQ(a.dissipated, b.dissipated);
  EXPECT_EQ(a.program.kkt_residual, b.program.kkt_residual);
  EXPECT_EQ(a.program.iterations, b.program.iterations);
  EXPECT_EQ(a.program.converged, b.program.converged);
}

TEST(CollisionGroups, ProgramsSolvedOnThreadsGiveTheSerialBits) {
  const Scene s = scene(4, 70, 150, 40);
  for (const RigidSolver solver : {RigidSolver::interior_point, RigidSolver::gauss_seidel}) {
    CollisionSettings settings;
    settings.solver = solver;
    settings.program.tolerance = 1e-9;
    ComponentStats serial_stats, threaded_stats;
    const CollisionResult serial = resolve_collisions_by_group(s.bodies, s.contacts, settings, &serial_stats);
    const CollisionResult threaded =
        resolve_collisions_by_group(s.bodies, s.contacts, settings, &threaded_stats, on_threads);
    // Each long row and each pair alone (one contact is solved in closed
    // form), the triples in one shared program: every one run apart.
    EXPECT_EQ(serial_stats.programs, 4 + 150 + 1);
    EXPECT_EQ(serial_stats.groups, 4 + 150 + 40);
    EXPECT_TRUE(serial.program.converged);
    const bool pressed =
        std::any_of(serial.normal_percussion.begin(), serial.normal_percussion.end(), [](double p) { return p > 0.0; });
    EXPECT_TRUE(pressed) << "no contact was pressed: the scene tests nothing";
    expect_same_bits(serial, threaded);
    EXPECT_EQ(serial_stats.iterations, threaded_stats.iterations);
    EXPECT_EQ(serial_stats.largest_group, threaded_stats.largest_group);
  }
}

}  // namespace
}  // namespace sphero
