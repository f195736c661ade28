// The OpenCL device a run computes on, and the programs built for it
// (docs/OPENCL.md). Any OpenCL 1.2 device with double precision
// (cl_khr_fp64): PoCL on the CPU, where every machine has one, or a GPU's
// driver. The Khronos C++ bindings (Debian's opencl-clhpp-headers) hold
// the handles; errors come out as std::runtime_error naming what to do.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

namespace sphero {

struct OpenClDeviceInfo {
  int platform_index = 0, device_index = 0;
  std::string platform, name, version;
  bool fp64 = false;  // cl_khr_fp64: the engine needs it
};

// Every device of every platform the ICD loader knows, in the loader's
// order; empty where none is installed.
std::vector<OpenClDeviceInfo> list_opencl_devices();

class OpenClDevice {
 public:
  // The device chosen by `platform` and `device`: each an index in the
  // listing or a part of the name (case-insensitive), empty for the first
  // one with double precision. Throws std::runtime_error listing the
  // devices when none matches, or when the one chosen lacks cl_khr_fp64.
  static OpenClDevice choose(const std::string& platform, const std::string& device);
  // The same, the choices read from OPENCL_PLATFORM and OPENCL_DEVICE.
  static OpenClDevice from_environment();

  const OpenClDeviceInfo& info() const { return info_; }
  const cl::Context& context() const { return context_; }
  cl::CommandQueue& queue() { return queue_; }
  const cl::Device& device() const { return device_; }
  // Runs `kernel` over `items` work-items (none: nothing), in work-groups
  // of a fixed size, the last one padded (every kernel checks its index):
  // a device that compiles a kernel per work-group size (PoCL) then
  // compiles each once, whatever the counts.
  void run(cl::Kernel& kernel, std::size_t items);

 private:
  OpenClDevice(OpenClDeviceInfo info, cl::Device device);
  OpenClDeviceInfo info_;
  cl::Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
};

// A device buffer for `count` elements, and one holding a copy of `data`
// (at least one element each: OpenCL refuses empty buffers).
template <class T>
cl::Buffer buffer_for(const cl::Context& context, std::size_t count) {
  return cl::Buffer(context, CL_MEM_READ_WRITE, std::max<std::size_t>(count, 1) * sizeof(T));
}
template <class T>
cl::Buffer buffer_of(const cl::Context& context, std::vector<T> data) {
  if (data.empty()) data.resize(1);
  return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(T), data.data());
}

// A program built from kernel sources on `device`: each file read from
// `directory` (where the program's kernels are installed), in order, as one
// translation unit. Throws std::runtime_error with the compiler's build
// log, or naming the file that cannot be read.
cl::Program build_program(const OpenClDevice& device, const std::filesystem::path& directory,
                          const std::vector<std::string>& files);

}  // namespace sphero
