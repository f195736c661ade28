// The OpenCL contact pass (PoCL in CI) against the CPU's: the same scene
// stepped by two engines, one with its contacts evaluated on the device,
// gives the same bits — positions, velocities, angles, forces, the contacts'
// springs and flags, and the energy ledger — after every step, for disks,
// hexagons, cows and bent rods under friction, Hertz, damping, cohesion,
// walls and a periodic cell.
#include <gtest/gtest.h>

#include <cstring>

#include "engine/engine.h"
#include "engine/engine_device.h"
#include "io/scene.h"
#include "opencl/device_contact_pass.h"
#include "opencl_test_support.h"

namespace sphero {
namespace {

using opencl_test::kKernels;
using opencl_test::same_bits;

std::pair<Engine, Engine> twin_engines(const std::string& text, OpenClDevice& device) {
  const SceneConfig scene = parse_scene(text, "t.ini", SPHERO_DATA_DIR "/shapes");
  World w = build_world(scene);
  const EngineSettings s = resolve_engine_settings(scene, w);
  Engine cpu(w, s), gpu(w, s);
  EngineDevice(gpu).set_contact_backend(std::make_unique<DeviceContactPass>(device, w, kKernels));
  return {std::move(cpu), std::move(gpu)};
}

struct Activity {
  long touching_at_end = 0, steps_touching = 0;
};

// Steps both, comparing after each step.
Activity step_and_compare(Engine& cpu, Engine& gpu, int steps) {
  Activity activity;
  for (int s = 0; s < steps; ++s) {
    cpu.step(), gpu.step();
    const World &a = cpu.world(), &b = gpu.world();
    EXPECT_TRUE(same_bits(a.position, b.position)) << "step " << s;
    EXPECT_TRUE(same_bits(a.velocity, b.velocity)) << "step " << s;
    EXPECT_TRUE(same_bits(a.angle, b.angle)) << "step " << s;
    EXPECT_TRUE(same_bits(a.force, b.force)) << "step " << s;
    EXPECT_TRUE(same_bits(a.torque, b.torque)) << "step " << s;
    const EnergyLedger &x = cpu.ledger(), &y = gpu.ledger();
    for (const auto& [p, q] : {std::pair{x.elastic_normal, y.elastic_normal},
                               {x.elastic_tangential, y.elastic_tangential},
                               {x.damping_dissipation, y.damping_dissipation},
                               {x.sliding_dissipation, y.sliding_dissipation}})
      EXPECT_TRUE(same_bits(p, q)) << "step " << s << ": " << p << " against " << q;
    EXPECT_EQ(cpu.deepest_overlap(), gpu.deepest_overlap());
    if (::testing::Test::HasFailure()) return activity;
    activity.steps_touching += x.elastic_normal != 0.0;
  }
  const std::vector<Contact> a = cpu.contacts(), b = gpu.contacts();
  EXPECT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
    activity.touching_at_end += a[k].active;
    EXPECT_EQ(a[k].active, b[k].active);
    EXPECT_EQ(a[k].sliding, b[k].sliding);
    EXPECT_EQ(std::memcmp(&a[k].xi, &b[k].xi, sizeof(Vec2)), 0);
  }
  return activity;
}

const char* kBox = "wall = radius=0.2 points=0,60;0,0;40,0;40,60\n";

TEST(OpenClContactPass, APileOfFourShapesWithFrictionStepsAsTheCpusBits) {
  OpenClDevice device = OpenClDevice::choose("", "");
  auto [cpu, gpu] =
      twin_engines(std::string("duration = 1\ndt = auto\ngravity = 0,-200\n") + kBox +
                       "law = 0 0 linear kn=1e5 gamma_n=100 kt=5e4 gamma_t=5 mu=0.4\n"
                       "grains = shape=disk.shape count=30 generator=random region=1,1,39,14\n"
                       "grains = shape=hexagon.shape count=30 generator=random region=1,15,39,29 angle=random\n"
                       "grains = shape=cow.shape count=20 generator=random region=1,30,39,44 angle=random\n"
                       "grains = shape=bent-rod.shape count=20 generator=random region=1,45,39,59 angle=random\n",
                   device);
  const Activity activity = step_and_compare(cpu, gpu, 1500);
  EXPECT_GT(activity.touching_at_end, 20) << "the grains should be landing on each other";
  EXPECT_GT(cpu.ledger().sliding_dissipation, 0.0);
}

TEST(OpenClContactPass, HertzWithCohesionInAPeriodicCellStepsAsTheCpusBits) {
  OpenClDevice device = OpenClDevice::choose("", "");
  auto [cpu, gpu] = twin_engines(
      "duration = 1\ndt = auto\nperiodic = xy\ncell = 0,0,24,24\n"
      "law = 0 0 hertz kn=1e6 gamma_n=5 kt=1e5 mu=0.3 cohesion=200\n"
      "grains = shape=cow.shape count=6 generator=random region=0,0,24,24 angle=random speed=3\n"
      "grains = shape=hexagon.shape count=100 generator=random region=0,0,24,24 angle=random speed=3\n",
      device);
  const Activity activity = step_and_compare(cpu, gpu, 1500);
  EXPECT_GT(activity.steps_touching, 1000);
  EXPECT_GT(cpu.ledger().sliding_dissipation, 0.0);
}

}  // namespace
}  // namespace sphero
