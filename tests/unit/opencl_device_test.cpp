// The OpenCL backend's device layer (PoCL in CI): a device with double
// precision is found, a choice that fits nothing and a kernel that does not
// compile say what to do; and the device's orientation_at (body_pose.cl)
// gives the CPU's bits at angles from −10⁴ to 10⁴ rad.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "engine/world.h"
#include "opencl/opencl_device.h"
#include "opencl_test_support.h"

namespace sphero {
namespace {

namespace fs = std::filesystem;
using opencl_test::kKernels;
using opencl_test::same_bits;

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

TEST(OpenClDevice, OrientationsAreTheCpusBits) {
  // A kernel of the test's own calls the installed orientation_at.
  const fs::path dir = fs::temp_directory_path() / "sphero_opencl_orientation";
  fs::create_directories(dir);
  fs::copy_file(kKernels / "body_pose.cl", dir / "body_pose.cl", fs::copy_options::overwrite_existing);
  std::ofstream(dir / "orient.cl")
      << "__kernel void orient(const int count, __global const double* angle, __global double2* out) {\n"
         "  if (get_global_id(0) < count) out[get_global_id(0)] = orientation_at(angle[get_global_id(0)]);\n}\n";
  OpenClDevice device = OpenClDevice::choose("", "");
  cl::Program program = build_program(device, dir, {"body_pose.cl", "orient.cl"});
  cl::Kernel orient(program, "orient");
  std::mt19937_64 random(7);
  std::vector<double> angles;
  for (const double span : {1.0, 10.0, 1e4}) {
    std::uniform_real_distribution<double> angle(-span, span);
    for (int k = 0; k < 2000; ++k) angles.push_back(angle(random));
  }
  angles.insert(angles.end(), {0.0, -0.0, 0.7853981633974483, 1.5707963267948966, 3.141592653589793, -99999.0});
  std::vector<Vec2> cpu, gpu(angles.size());
  for (double a : angles) cpu.push_back(orientation_at(a));
  cl::Buffer in(
      device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, angles.size() * sizeof(double), angles.data());
  cl::Buffer out(device.context(), CL_MEM_WRITE_ONLY, gpu.size() * sizeof(Vec2));
  orient.setArg(0, static_cast<cl_int>(angles.size())), orient.setArg(1, in), orient.setArg(2, out);
  device.run(orient, angles.size());
  device.queue().enqueueReadBuffer(out, CL_TRUE, 0, gpu.size() * sizeof(Vec2), gpu.data());
  EXPECT_TRUE(same_bits(gpu, cpu));
  // A test that could not fail would prove nothing: one ulp off is seen.
  gpu[5].x = std::nextafter(gpu[5].x, INFINITY);
  EXPECT_FALSE(same_bits(gpu, cpu));
}

}  // namespace
}  // namespace sphero
