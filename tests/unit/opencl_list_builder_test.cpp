// The neighbour list built on the OpenCL device (PoCL in CI) against the
// CPU's: the same candidates in the same order, field for field, from a
// whole rebuild and from a partial one, for walls, a periodic cell with a
// wall drawn across it (a seam), open and non-convex skeletons and long
// ones cut into chunks — and the contact states carried over through both.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>

#include "engine/engine.h"
#include "io/scene.h"
#include "opencl/device_list_builder.h"
#include "opencl/device_verlet_stepper.h"
#include "opencl_test_support.h"

namespace sphero {
namespace {

using opencl_test::kKernels;

World world_of(const std::string& text) {
  const SceneConfig scene = parse_scene(text, "t.ini", SPHERO_DATA_DIR "/shapes");
  World w = build_world(scene);
  update_world_vertices(w);
  mark_seams(w);
  return w;
}

NeighbourSettings settings_of(double skin) {
  NeighbourSettings s;
  s.verlet_distance = skin;
  return s;
}

void expect_same_candidates(const NeighbourList& cpu, const NeighbourList& gpu, const char* when) {
  const std::vector<Candidate>&a = cpu.candidates(), &b = gpu.candidates();
  ASSERT_EQ(a.size(), b.size()) << when;
  ASSERT_GT(a.size(), 0u) << when;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const Candidate &x = a[k], &y = b[k];
    ASSERT_TRUE(x.vertex_body == y.vertex_body && x.edge_body == y.edge_body && x.vertex == y.vertex &&
                x.feature == y.feature && x.feature_end == y.feature_end && x.kind == y.kind && x.image == y.image &&
                x.active == y.active && x.sliding == y.sliding)
        << when << ": candidate " << k << " of " << a.size();
    EXPECT_EQ(std::memcmp(&x.reach, &y.reach, sizeof x.reach), 0) << when << ": candidate " << k;
    EXPECT_EQ(std::memcmp(&x.edge_offset, &y.edge_offset, sizeof(Vec2)), 0) << when << ": candidate " << k;
  }
  EXPECT_EQ(cpu.body_candidate_start(), gpu.body_candidate_start()) << when;
  EXPECT_EQ(cpu.body_candidates(), gpu.body_candidates()) << when;
  EXPECT_EQ(cpu.stats().body_pairs, gpu.stats().body_pairs) << when;
}

// A host list and a device-built one over two copies of the same world,
// moved alike between rebuilds.
struct TwinLists {
  explicit TwinLists(const World& w, double skin)
      : cpu_world(w),
        gpu_world(w),
        device(OpenClDevice::choose("", "")),
        pass(device, w, kKernels),
        position(device.context(), CL_MEM_READ_WRITE, sizeof(Vec2) * w.size()),
        orientation(device.context(), CL_MEM_READ_WRITE, sizeof(Vec2) * w.size()),
        builder(device, w, kKernels, pass, position, orientation),
        cpu(settings_of(skin)),
        gpu(settings_of(skin)) {
    gpu.list_remotely(&builder);
  }

  // Both lists updated for the worlds as they now lie; the device's fetched.
  void update() {
    send_orientation();
    const bool a = cpu.update(cpu_world), b = gpu.update(gpu_world);
    EXPECT_EQ(a, b);
    EXPECT_TRUE(gpu.copy_stale() || !b);
    if (gpu.copy_stale()) builder.fetch(gpu);
  }
  void send_orientation() {
    device.queue().enqueueWriteBuffer(
        orientation, CL_TRUE, 0, sizeof(Vec2) * gpu_world.size(), gpu_world.orientation.data());
  }
  // Moves body i in both worlds.
  void move(std::size_t i, Vec2 by, double turn) {
    for (World* w : {&cpu_world, &gpu_world}) {
      w->position[i] = w->position[i] + by;
      w->angle[i] += turn;
      update_orientation(*w, i);
    }
  }

  World cpu_world, gpu_world;
  OpenClDevice device;
  DeviceContactPass pass;
  cl::Buffer position, orientation;
  DeviceListBuilder builder;
  NeighbourList cpu, gpu;
};

const std::string kWalled =
    "duration = 1\ndt = 1e-4\nwall = radius=0.2 points=0,60;0,0;40,0;40,60\n"
    "law = 0 0 linear kn=1e5\n"
    "grains = shape=disk.shape count=40 generator=random region=1,1,39,14\n"
    "grains = shape=hexagon.shape count=40 generator=random region=1,15,39,29 angle=random\n"
    "grains = shape=cow.shape count=20 generator=random region=1,30,39,44 angle=random\n"
    "grains = shape=bent-rod.shape count=30 generator=random region=1,45,39,59 angle=random\n";

// Periodic in x, with a floor drawn across the cell (a seamed wall) and a
// lid; grains across the cell's sides.
const std::string kSeamed =
    "duration = 1\ndt = 1e-4\nperiodic = x\ncell = 0,0,30,40\n"
    "wall = radius=0.1 points=0,0;30,0\nwall = radius=0.1 points=-2,38;32,38\n"
    "law = 0 0 linear kn=1e5\n"
    "grains = shape=cow.shape count=12 generator=random region=0,1,30,15 angle=random\n"
    "grains = shape=pentagon.shape count=60 generator=random region=0,15,30,37 angle=random\n"
    "grains = shape=bent-rod.shape count=30 generator=random region=0,1,30,37 angle=random\n";

class OpenClListBuilder : public ::testing::TestWithParam<std::string> {};

TEST_P(OpenClListBuilder, AWholeRebuildListsTheCpusCandidatesInItsOrder) {
  TwinLists t(world_of(GetParam()), 0.3);
  t.update();
  expect_same_candidates(t.cpu, t.gpu, "first build");
  EXPECT_EQ(t.cpu.state(t.cpu_world).listed_at_half_skin, t.gpu.state(t.gpu_world).listed_at_half_skin);
  // Every grain moved past the skin, and turned: a whole rebuild, wrapping
  // the periodic grains that crossed.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t i = 0; i < t.cpu_world.size(); ++i)
    if (!t.cpu_world.is_wall[i]) t.move(i, {3.0 * u(random), 0.5 * u(random)}, 0.3 * u(random));
  t.update();
  EXPECT_EQ(t.gpu.partial_rebuilds(), 0);
  expect_same_candidates(t.cpu, t.gpu, "whole rebuild");
  // Cows against cows list more pairs than a grain's slots hold: those
  // grains were searched again, whole.
  EXPECT_GT(t.builder.searched_again(), 0);
}

TEST_P(OpenClListBuilder, APartialRebuildMergesAsTheCpusDoes) {
  TwinLists t(world_of(GetParam()), 0.3);
  t.update();
  // Three grains moved past the skin: only their pairs are listed anew.
  std::size_t moved = 0;
  for (std::size_t i = 0; i < t.cpu_world.size() && moved < 3; ++i)
    if (!t.cpu_world.is_wall[i] && i % 17 == 5)
      t.move(i, {0.2 + 0.1 * static_cast<double>(moved), -0.25}, 0.05), ++moved;
  t.update();
  EXPECT_EQ(t.cpu.partial_rebuilds(), 1);
  EXPECT_EQ(t.gpu.partial_rebuilds(), 1);
  expect_same_candidates(t.cpu, t.gpu, "partial rebuild");
}

INSTANTIATE_TEST_SUITE_P(Scenes, OpenClListBuilder, ::testing::Values(kWalled, kSeamed));

// Two engines, one stepped on the CPU and one on the device with its lists
// built there: the contact states (springs, flags) carried over through
// whole and partial rebuilds are the CPU's bits.
TEST(OpenClListBuilder, RebuildsOnTheDeviceCarryTheSpringsOver) {
  // (The stepper's twin tests compare the whole run; this one looks at
  // the list's own books after many rebuilds.)
  const std::string text =
      "duration = 1\ndt = auto\ngravity = 0,-200\nwall = radius=0.2 points=0,40;0,0;30,0;30,40\n"
      "law = 0 0 linear kn=1e5 gamma_n=100 kt=5e4 gamma_t=5 mu=0.4\n"
      "grains = shape=hexagon.shape count=60 generator=random region=1,1,29,30 angle=random speed=2\n"
      "grains = shape=cow.shape count=8 generator=random region=1,1,29,30 angle=random\n";
  auto [cpu, gpu, device] = opencl_test::twins(text);
  cpu.run(1500), gpu.run(1500);
  const NeighbourListState a = cpu.snapshot().neighbours, b = gpu.snapshot().neighbours;
  ASSERT_EQ(a.contacts.size(), b.contacts.size());
  EXPECT_GT(cpu.neighbour_stats().rebuilds, 3);
  std::size_t springs = 0;
  for (std::size_t k = 0; k < a.contacts.size(); ++k) {
    EXPECT_EQ(std::memcmp(&a.contacts[k].xi, &b.contacts[k].xi, sizeof(Vec2)), 0) << k;
    EXPECT_EQ(a.contacts[k].active, b.contacts[k].active) << k;
    springs += a.contacts[k].xi != Vec2{};
  }
  EXPECT_GT(springs, 10u);
  std::printf("%ld rebuilds, %ld partial; %zu springs\n", cpu.neighbour_stats().rebuilds,
              cpu.neighbour_partial_rebuilds(), springs);
  EXPECT_GT(cpu.neighbour_partial_rebuilds(), 0);
  EXPECT_EQ(cpu.neighbour_partial_rebuilds(), gpu.neighbour_partial_rebuilds());
  EXPECT_EQ(a.stats.rebuilds, b.stats.rebuilds);
  EXPECT_EQ(a.verlet_distance, b.verlet_distance);
}

// A list that starts empty: three disks high above a floor, far apart,
// fall onto it.
TEST(OpenClListBuilder, AnEmptyListFillsAsTheCpusDoes) {
  const std::string text =
      "duration = 3\ndt = 1e-3\ngravity = 0,-10\nlaw = 0 0 linear kn=1e4 gamma_n=5\n"
      "wall = radius=0.1 points=-1,0;31,0\n"
      "grains = shape=disk.shape count=1 region=0,20,3,23\ngrains = shape=disk.shape count=1 region=13,20,16,23\n"
      "grains = shape=disk.shape count=1 region=27,20,30,23\n";
  auto [cpu, gpu, device] = opencl_test::twins(text);
  cpu.step(), gpu.step();
  EXPECT_EQ(gpu.contacts().size(), 0u);
  std::size_t most = 0;
  for (int chunk = 0; chunk < 25; ++chunk) {
    cpu.run(100), gpu.run(100);
    ASSERT_TRUE(opencl_test::same_bits(cpu.world().position, gpu.world().position)) << "after " << 100 * (chunk + 1);
    ASSERT_EQ(cpu.contacts().size(), gpu.contacts().size());
    most = std::max(most, gpu.contacts().size());
  }
  EXPECT_GT(most, 0u);  // they reached the floor
  EXPECT_GT(device->list_seconds(), 0.0);
  EXPECT_TRUE(opencl_test::same_bits(cpu.ledger().elastic_normal, gpu.ledger().elastic_normal));
}

// A run that changes its neighbour strategy midway: the triangulation's
// lists are built on the host (the device builds link cells only), then
// link cells on the device again; the bodies move as the CPU's throughout.
TEST(OpenClListBuilder, AChangeOfStrategyMovesTheListBetweenHostAndDevice) {
  const std::string text =
      "duration = 1\ndt = auto\nperiodic = xy\ncell = 0,0,24,24\n"
      "law = 0 0 linear kn=1e5 gamma_n=50 kt=5e4 mu=0.3\n"
      "grains = shape=hexagon.shape count=80 generator=random region=0,0,24,24 angle=random speed=3\n";
  auto [cpu, gpu, device] = opencl_test::twins(text);
  const auto run_both = [&](long steps) { cpu.run(steps), gpu.run(steps); };
  run_both(400);
  const double on_device = device->list_seconds();
  EXPECT_GT(on_device, 0.0);
  for (Engine* e : {&cpu, &gpu}) e->set_neighbour_strategy(NeighbourStrategy::triangulation);
  const long before = gpu.neighbour_stats().rebuilds;
  run_both(400);
  EXPECT_GT(gpu.neighbour_stats().rebuilds, before + 2);
  EXPECT_EQ(device->list_seconds(), on_device);  // the host built them
  for (Engine* e : {&cpu, &gpu}) e->set_neighbour_strategy(NeighbourStrategy::cells);
  run_both(400);
  EXPECT_GT(device->list_seconds(), on_device);
  EXPECT_GT(cpu.neighbour_stats().rebuilds, 6);
  EXPECT_TRUE(opencl_test::same_bits(cpu.world().position, gpu.world().position));
  EXPECT_TRUE(opencl_test::same_bits(cpu.world().angular_velocity, gpu.world().angular_velocity));
}

}  // namespace
}  // namespace sphero
