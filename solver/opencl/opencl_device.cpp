#include "opencl/opencl_device.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sphero {
namespace {

// Work-items per work-group: a few warps, within every device's limits.
constexpr std::size_t kWorkGroup = 64;

std::string lower(std::string text) {
  std::transform(
      text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// An index, or a part of the name.
bool matches(const std::string& choice, int index, const std::string& name) {
  if (choice.empty()) return true;
  if (std::all_of(choice.begin(), choice.end(), [](unsigned char c) { return std::isdigit(c); })) {
    // Compared as text: an index of any length, leading zeros allowed.
    const std::size_t first = std::min(choice.find_first_not_of('0'), choice.size() - 1);
    return choice.substr(first) == std::to_string(index);
  }
  return lower(name).find(lower(choice)) != std::string::npos;
}

std::vector<cl::Platform> platforms() {
  std::vector<cl::Platform> out;
  try {
    cl::Platform::get(&out);
  } catch (const cl::Error&) {
    out.clear();  // the loader's "no platform" (CL_PLATFORM_NOT_FOUND_KHR)
  }
  return out;
}

std::vector<cl::Device> devices_of(const cl::Platform& platform) {
  std::vector<cl::Device> out;
  try {
    platform.getDevices(CL_DEVICE_TYPE_ALL, &out);
  } catch (const cl::Error&) {
    out.clear();
  }
  return out;
}

OpenClDeviceInfo describe(const cl::Platform& platform, const cl::Device& device, int p, int d) {
  OpenClDeviceInfo info;
  info.platform_index = p;
  info.device_index = d;
  info.platform = platform.getInfo<CL_PLATFORM_NAME>();
  info.name = device.getInfo<CL_DEVICE_NAME>();
  info.version = device.getInfo<CL_DEVICE_VERSION>();
  info.fp64 = device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_fp64") != std::string::npos;
  return info;
}

std::string listing(const std::vector<OpenClDeviceInfo>& all) {
  if (all.empty())
    return "no OpenCL device is installed: install pocl-opencl-icd (PoCL, on the CPU) or a GPU driver's OpenCL ICD "
           "(for NVIDIA, an .icd file naming libnvidia-opencl.so.1 in /etc/OpenCL/vendors or in a folder given by "
           "OCL_ICD_VENDORS)";
  // One line: messages show control characters, line breaks included, as escapes.
  std::string out = "the devices are";
  for (std::size_t k = 0; k < all.size(); ++k) {
    const OpenClDeviceInfo& i = all[k];
    out += fmt::format("{} platform {} ({}), device {}: {} [{}{}]", k == 0 ? ":" : ";", i.platform_index, i.platform,
                       i.device_index, i.name, i.version, i.fp64 ? ", double precision" : ", no double precision");
  }
  return out;
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::vector<OpenClDeviceInfo> list_opencl_devices() {
  std::vector<OpenClDeviceInfo> out;
  const std::vector<cl::Platform> all = platforms();
  for (std::size_t p = 0; p < all.size(); ++p) {
    const std::vector<cl::Device> devices = devices_of(all[p]);
    for (std::size_t d = 0; d < devices.size(); ++d)
      out.push_back(describe(all[p], devices[d], static_cast<int>(p), static_cast<int>(d)));
  }
  return out;
}

OpenClDevice OpenClDevice::choose(const std::string& platform, const std::string& device) {
  const std::vector<OpenClDeviceInfo> all = list_opencl_devices();
  const std::vector<cl::Platform> platform_handles = platforms();
  for (const OpenClDeviceInfo& info : all) {
    if (!matches(platform, info.platform_index, info.platform) || !matches(device, info.device_index, info.name))
      continue;
    // Without an explicit choice, the first device that can run the engine.
    if (!info.fp64 && platform.empty() && device.empty()) continue;
    if (!info.fp64)
      throw std::runtime_error(
          fmt::format("OpenCL device '{}' has no double precision (cl_khr_fp64), which the engine "
                      "needs; choose another with OPENCL_PLATFORM and OPENCL_DEVICE; {}",
                      info.name, listing(all)));
    const cl::Device handle = devices_of(
        platform_handles[static_cast<std::size_t>(info.platform_index)])[static_cast<std::size_t>(info.device_index)];
    return OpenClDevice(info, handle);
  }
  if (all.empty()) throw std::runtime_error(listing(all));
  throw std::runtime_error(
      fmt::format("no OpenCL device with double precision matches OPENCL_PLATFORM='{}' and "
                  "OPENCL_DEVICE='{}' (each an index or a part of the name); {}",
                  platform, device, listing(all)));
}

OpenClDevice OpenClDevice::from_environment() {
  return choose(environment("OPENCL_PLATFORM"), environment("OPENCL_DEVICE"));
}

OpenClDevice::OpenClDevice(OpenClDeviceInfo info, cl::Device device)
    : info_(std::move(info)), device_(device), context_(device), queue_(context_, device) {}

cl::Program build_program(const OpenClDevice& device, const std::filesystem::path& directory,
                          const std::vector<std::string>& files) {
  std::string source;
  for (const std::string& name : files) {
    const std::filesystem::path path = directory / name;
    std::ifstream in(path);
    if (!in)
      throw std::runtime_error(
          fmt::format("cannot read the OpenCL kernel source {}: reinstall Sphero, or set "
                      "SPHERO_DATA_DIR to the folder holding opencl/",
                      path.string()));
    std::ostringstream text;
    text << in.rdbuf();
    source += fmt::format("#line 1 \"{}\"\n", name) + text.str() + "\n";
  }
  cl::Program program(device.context(), source);
  try {
    program.build({device.device()}, "-cl-std=CL1.2");
  } catch (const cl::BuildError& e) {
    std::string log;
    for (const auto& [built_for, text] : e.getBuildLog()) log += text;
    throw std::runtime_error(fmt::format(
        "the OpenCL kernels ({}) do not compile on '{}':\n{}", fmt::join(files, ", "), device.info().name, log));
  }
  return program;
}

void OpenClDevice::run(cl::Kernel& kernel, std::size_t items) {
  if (items == 0) return;
  const auto largest = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_);
  const std::size_t group = std::min<std::size_t>(kWorkGroup, largest);
  queue_.enqueueNDRangeKernel(
      kernel, cl::NullRange, cl::NDRange((items + group - 1) / group * group), cl::NDRange(group));
}

}  // namespace sphero
