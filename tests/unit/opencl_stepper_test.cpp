// Velocity Verlet resident on the OpenCL device (PoCL in CI) against the
// CPU's: the same scene stepped by two engines gives the same bits —
// positions, velocities, angles, forces, springs, the ledger — whether the
// world is read back after every step or only at the end, through list
// rebuilds, a periodic cell and a wall pushed at an imposed velocity.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "engine/engine.h"
#include "engine/engine_device.h"
#include "io/scene.h"
#include "opencl/device_verlet_stepper.h"
#include "opencl_test_support.h"

namespace sphero {
namespace {

using opencl_test::kKernels;
using opencl_test::same_bits;
using opencl_test::Twins;
using opencl_test::twins;

void expect_same(const Engine& cpu, const Engine& gpu, long step) {
  const World &a = cpu.world(), &b = gpu.world();
  EXPECT_TRUE(same_bits(a.position, b.position)) << "step " << step;
  EXPECT_TRUE(same_bits(a.velocity, b.velocity)) << "step " << step;
  EXPECT_TRUE(same_bits(a.angle, b.angle)) << "step " << step;
  EXPECT_TRUE(same_bits(a.angular_velocity, b.angular_velocity)) << "step " << step;
  EXPECT_TRUE(same_bits(a.force, b.force)) << "step " << step;
  EXPECT_TRUE(same_bits(a.torque, b.torque)) << "step " << step;
  const EnergyLedger &x = cpu.ledger(), &y = gpu.ledger();
  for (const auto& [p, q] : {std::pair{x.kinetic_translational, y.kinetic_translational},
                             {x.kinetic_rotational, y.kinetic_rotational},
                             {x.gravitational, y.gravitational},
                             {x.elastic_normal, y.elastic_normal},
                             {x.elastic_tangential, y.elastic_tangential},
                             {x.damping_dissipation, y.damping_dissipation},
                             {x.sliding_dissipation, y.sliding_dissipation},
                             {x.external_work, y.external_work}})
    EXPECT_TRUE(same_bits(p, q)) << "step " << step << ": " << p << " against " << q;
  const std::vector<Contact> c = cpu.contacts(), d = gpu.contacts();
  ASSERT_EQ(c.size(), d.size()) << "step " << step;
  for (std::size_t k = 0; k < c.size(); ++k) {
    EXPECT_EQ(c[k].active, d[k].active);
    EXPECT_EQ(std::memcmp(&c[k].xi, &d[k].xi, sizeof(Vec2)), 0);
  }
  EXPECT_EQ(cpu.snapshot().neighbours.contacts.size(), gpu.snapshot().neighbours.contacts.size());
}

const std::string kPile =
    "duration = 1\ndt = auto\ngravity = 0,-200\nwall = radius=0.2 points=0,60;0,0;40,0;40,60\n"
    "wall = radius=0.2 points=-1,62;41,62 velocity=0,-4\n"
    "law = 0 0 linear kn=1e5 gamma_n=100 kt=5e4 gamma_t=5 mu=0.4\n"
    "grains = shape=disk.shape count=30 generator=random region=1,1,39,14\n"
    "grains = shape=hexagon.shape count=30 generator=random region=1,15,39,29 angle=random\n"
    "grains = shape=cow.shape count=20 generator=random region=1,30,39,44 angle=random\n"
    "grains = shape=bent-rod.shape count=20 generator=random region=1,45,39,59 angle=random\n";

TEST(OpenClStepper, APileUnderAMovingLidStepsAsTheCpusBitsReadEveryStep) {
  Twins t = twins(kPile);
  for (long s = 1; s <= 1200 && !::testing::Test::HasFailure(); ++s) {
    t.cpu.step(), t.gpu.step();
    expect_same(t.cpu, t.gpu, s);
  }
  EXPECT_GT(t.cpu.neighbour_stats().rebuilds, 5);
  EXPECT_NE(t.cpu.ledger().external_work, 0.0);
}

TEST(OpenClStepper, RunsReadOnlyAtTheEndMatchTheCpu) {
  for (const std::string& text :
       {kPile, std::string("duration = 1\ndt = auto\nperiodic = xy\ncell = 0,0,24,24\n"
                           "law = 0 0 hertz kn=1e6 gamma_n=5 kt=1e5 mu=0.3 cohesion=200\n"
                           "grains = shape=cow.shape count=6 generator=random region=0,0,24,24 angle=random speed=3\n"
                           "grains = shape=hexagon.shape count=100 generator=random region=0,0,24,24 angle=random "
                           "speed=3\n")}) {
    Twins t = twins(text);
    t.cpu.run(1500), t.gpu.run(1500);
    expect_same(t.cpu, t.gpu, 1500);
    EXPECT_GT(t.cpu.neighbour_stats().rebuilds, 2);
    // The lists were built on the device: the host saw the bodies at the
    // end only.
    EXPECT_LE(t.stepper->host_syncs(), 1);
    EXPECT_GT(t.stepper->list_seconds(), 0.0);
  }
}

// An engine stepped on the device from the scene's start.
Engine device_engine(const std::string& text) {
  const SceneConfig scene = parse_scene(text, "t.ini", SPHERO_DATA_DIR "/shapes");
  World w = build_world(scene);
  Engine e(w, resolve_engine_settings(scene, w));
  EngineDevice(e).use_stepper(std::make_unique<DeviceVerletStepper>(OpenClDevice::choose("", ""), w, kKernels));
  return e;
}

// The largest |E − E0| / E0 over `seconds` of a frictionless, undamped gas
// of cows and hexagons in a box, at time step dt.
double gas_energy_error(double dt, double seconds) {
  Engine e = device_engine(
      fmt::format("duration = 10\ndt = {}\nlaw = 0 0 linear kn=1e4\nwall = radius=0.2 points=0,24;0,0;24,0;24,24;0,24\n"
                  "grains = shape=cow.shape count=6 generator=random region=1,1,23,11 angle=random speed=3\n"
                  "grains = shape=hexagon.shape count=30 generator=random region=1,12,23,23 angle=random speed=3\n",
                  dt));
  const double e0 = e.ledger().mechanical();
  double worst = 0.0;
  bool touched = false;
  while (e.time() < seconds) {
    e.step();
    worst = std::max(worst, std::abs(e.ledger().mechanical() - e0) / e0);
    touched |= e.ledger().elastic() > 0.0;
  }
  EXPECT_TRUE(touched);
  return worst;
}

TEST(OpenClStepper, AnUndampedGasConservesEnergyToSecondOrder) {
  const double coarse = gas_energy_error(1e-3, 3.0), fine = gas_energy_error(5e-4, 3.0);
  std::printf(
      "device Verlet: max |dE|/E0 = %.3g (dt = 1e-3), %.3g (dt = 5e-4), ratio %.2f\n", coarse, fine, coarse / fine);
  EXPECT_LT(coarse, 5e-3);
  EXPECT_GT(coarse / fine, 3.0);
}

TEST(OpenClStepper, ACompressedDampedFrictionalPileClosesTheFirstLaw) {
  // A lid comes down at a constant speed on grains settling under gravity:
  // its work and gravity's release = ΔE + damping + sliding.
  Engine e = device_engine(
      "duration = 10\ndt = 1e-4\ngravity = 0,-10\nwall = radius=0.05 points=0,12;0,0;10,0;10,12\n"
      "wall = radius=0.05 points=-1,5.2;11,5.2 velocity=0,-2 density=1e-6\n"
      "law = 0 0 linear kn=1e4 gamma_n=20 kt=5e3 mu=0.4 gamma_t=2\n"
      "grains = shape=hexagon.shape count=6 generator=random region=0.3,0.3,9.7,5 angle=random\n"
      "grains = shape=disk.shape count=16 generator=random region=0.3,0.3,9.7,5 speed=0.5\n");
  e.run(12000);
  const EnergyLedger& l = e.ledger();
  std::printf("device first law: W_ext %.5g, dE %.5g, damping %.5g, sliding %.5g, residual %.3g\n", l.external_work,
              l.mechanical() - l.initial_mechanical, l.damping_dissipation, l.sliding_dissipation,
              l.first_law_residual());
  ASSERT_GT(l.external_work, 0.0);
  ASSERT_GT(l.sliding_dissipation, 0.0);
  ASSERT_GT(l.damping_dissipation, 0.0);
  EXPECT_LT(std::abs(l.first_law_residual()), 1e-3 * (l.external_work + l.dissipated()));
}

}  // namespace
}  // namespace sphero
