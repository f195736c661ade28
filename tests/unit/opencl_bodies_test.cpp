// The OpenCL backend's first kernels against the CPU engine: bodies'
// orientations and skeletons' world vertices computed on the device (PoCL
// in CI) give the CPU's bits, for disks, hexagons, cows and bent rods at
// angles from −10⁴ to 10⁴ rad; and the device layer's errors name what to
// do.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>

#include "io/scene.h"
#include "opencl_test_support.h"
#include "opencl/device_bodies.h"

namespace sphero {
namespace {

namespace fs = std::filesystem;
using opencl_test::kKernels;
using opencl_test::same_bits;

World mixed_world() {
  const SceneConfig scene = parse_scene(
      "duration = 1\ndt = 1e-4\nlaw = 0 0 linear kn=1e5\n"
      "grains = shape=disk.shape count=40 generator=random region=0,0,40,40\n"
      "grains = shape=hexagon.shape count=40 generator=random region=0,40,40,80 angle=random\n"
      "grains = shape=cow.shape count=40 generator=random region=40,0,80,40 angle=random\n"
      "grains = shape=bent-rod.shape count=40 generator=random region=40,40,80,80 angle=random\n",
      "t.ini", SPHERO_DATA_DIR "/shapes");
  return build_world(scene);
}

TEST(OpenClDevice, PoclOrAnotherDeviceWithDoublePrecisionIsFound) {
  const std::vector<OpenClDeviceInfo> all = list_opencl_devices();
  ASSERT_FALSE(all.empty()) << "no OpenCL device: tools/install-dependencies installs PoCL";
  OpenClDevice device = OpenClDevice::choose("", "");
  EXPECT_TRUE(device.info().fp64);
  EXPECT_FALSE(device.info().name.empty());
}

TEST(OpenClDevice, AChoiceThatMatchesNothingListsTheDevices) {
  try {
    OpenClDevice::choose("", "no-such-device");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("OPENCL_DEVICE='no-such-device'"), std::string::npos) << message;
    EXPECT_NE(message.find(list_opencl_devices().front().name), std::string::npos) << message;
  }
}

TEST(OpenClDevice, AKernelThatDoesNotCompileShowsTheCompilersLog) {
  const fs::path dir = fs::temp_directory_path() / "sphero_opencl_broken";
  fs::create_directories(dir);
  std::ofstream(dir / "broken.cl") << "__kernel void broken(__global double* x) { x[0] = undeclared_name; }\n";
  OpenClDevice device = OpenClDevice::choose("", "");
  try {
    build_program(device, dir, {"broken.cl"});
    FAIL() << "expected a build error";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("broken.cl"), std::string::npos) << message;
    EXPECT_NE(message.find("undeclared_name"), std::string::npos) << message;
  }
  EXPECT_THROW(build_program(device, dir, {"missing.cl"}), std::runtime_error);
}

TEST(OpenClBodies, OrientationsAndWorldVerticesAreTheCpusBits) {
  World world = mixed_world();
  OpenClDevice device = OpenClDevice::choose("", "");
  DeviceBodies bodies(device, world, kKernels);
  ASSERT_EQ(bodies.bodies(), world.size());
  std::mt19937_64 random(7);
  for (const double span : {1.0, 10.0, 1e4}) {
    std::uniform_real_distribution<double> angle(-span, span), shift(-0.5, 0.5);
    for (std::size_t i = 0; i < world.size(); ++i) {
      world.angle[i] = angle(random);
      world.position[i] += Vec2{shift(random), shift(random)};
    }
    update_world_vertices(world);
    bodies.upload_poses(world);
    bodies.place_vertices();
    EXPECT_TRUE(same_bits(bodies.orientations(), world.orientation)) << "angles within " << span << " rad";
    EXPECT_TRUE(same_bits(bodies.world_vertices(), world.world_vertex)) << "angles within " << span << " rad";
  }
  // A test that could not fail would prove nothing: one ulp off is seen.
  std::vector<Vec2> vertices = bodies.world_vertices();
  vertices[5].x = std::nextafter(vertices[5].x, INFINITY);
  EXPECT_FALSE(same_bits(vertices, world.world_vertex));
}

}  // namespace
}  // namespace sphero
