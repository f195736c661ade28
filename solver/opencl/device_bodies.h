// A world's bodies and skeletons resident on an OpenCL device (docs/
// OPENCL.md): positions, angles and the shared body-frame vertices
// uploaded once, orientations and world vertices computed there with the
// CPU engine's arithmetic (world.h), read back only when asked.
#pragma once

#include <vector>

#include "engine/world.h"
#include "opencl/opencl_device.h"

namespace sphero {

class DeviceBodies {
 public:
  // Uploads `world`'s bodies; `kernels` is the folder holding the kernel
  // sources (data/opencl, installed as share/sphero/opencl).
  DeviceBodies(OpenClDevice& device, const World& world, const std::filesystem::path& kernels);

  // Replaces the positions and angles on the device with the world's.
  void upload_poses(const World& world);
  // Orientations and world vertices from the poses on the device.
  void place_vertices();
  std::vector<Vec2> orientations();
  std::vector<Vec2> world_vertices();

  std::size_t bodies() const { return bodies_; }
  std::size_t vertices() const { return vertices_; }

 private:
  OpenClDevice& device_;
  std::size_t bodies_ = 0, vertices_ = 0;
  cl::Program program_;
  cl::Kernel orient_, place_;
  cl::Buffer position_, angle_, orientation_, vertex_begin_, vertex_count_, local_shift_, local_vertex_, vertex_body_,
      world_vertex_;
};

}  // namespace sphero
