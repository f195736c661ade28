#include "opencl/device_bodies.h"

namespace sphero {
namespace {

static_assert(sizeof(Vec2) == sizeof(cl_double2) && alignof(Vec2) <= alignof(cl_double2),
              "Vec2 must be laid out as OpenCL's double2 to be copied as one");

// A read-only or read-write buffer holding a copy of `data` (at least one
// element: OpenCL refuses empty buffers).
template <class T>
cl::Buffer buffer_of(const cl::Context& context, const std::vector<T>& data, cl_mem_flags access) {
  std::vector<T> copy = data;
  if (copy.empty()) copy.resize(1);
  return cl::Buffer(context, access | CL_MEM_COPY_HOST_PTR, copy.size() * sizeof(T), copy.data());
}

std::vector<int> vertex_bodies(const World& w) {
  std::vector<int> out(w.world_vertex.size());
  for (std::size_t i = 0; i < w.size(); ++i)
    for (int k = w.vertex_begin[i]; k < w.vertex_begin[i] + w.vertex_count[i]; ++k) out[static_cast<std::size_t>(k)] = static_cast<int>(i);
  return out;
}

template <class T>
std::vector<T> read(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t count) {
  std::vector<T> out(count);
  if (count > 0) queue.enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(T), out.data());
  return out;
}

}  // namespace

DeviceBodies::DeviceBodies(OpenClDevice& device, const World& world, const std::filesystem::path& kernels)
    : device_(device),
      bodies_(world.size()),
      vertices_(world.world_vertex.size()),
      program_(build_program(device, kernels, {"body_pose.cl"})),
      orient_(program_, "orient_bodies"),
      place_(program_, "place_vertices") {
  const cl::Context& c = device.context();
  position_ = buffer_of(c, world.position, CL_MEM_READ_ONLY);
  angle_ = buffer_of(c, world.angle, CL_MEM_READ_ONLY);
  orientation_ = buffer_of(c, world.orientation, CL_MEM_READ_WRITE);
  vertex_begin_ = buffer_of(c, world.vertex_begin, CL_MEM_READ_ONLY);
  vertex_count_ = buffer_of(c, world.vertex_count, CL_MEM_READ_ONLY);
  local_shift_ = buffer_of(c, world.local_shift, CL_MEM_READ_ONLY);
  local_vertex_ = buffer_of(c, world.local_vertex, CL_MEM_READ_ONLY);
  vertex_body_ = buffer_of(c, vertex_bodies(world), CL_MEM_READ_ONLY);
  world_vertex_ = buffer_of(c, world.world_vertex, CL_MEM_READ_WRITE);
  orient_.setArg(0, static_cast<cl_int>(bodies_));
  orient_.setArg(1, angle_), orient_.setArg(2, vertex_begin_), orient_.setArg(3, vertex_count_);
  orient_.setArg(4, local_shift_), orient_.setArg(5, local_vertex_), orient_.setArg(6, orientation_);
  place_.setArg(0, static_cast<cl_int>(vertices_));
  place_.setArg(1, vertex_body_), place_.setArg(2, position_), place_.setArg(3, orientation_);
  place_.setArg(4, local_shift_), place_.setArg(5, local_vertex_), place_.setArg(6, world_vertex_);
}

void DeviceBodies::upload_poses(const World& world) {
  if (world.size() != bodies_) throw std::invalid_argument("DeviceBodies: the world's body count changed");
  if (bodies_ == 0) return;
  device_.queue().enqueueWriteBuffer(position_, CL_TRUE, 0, bodies_ * sizeof(Vec2), world.position.data());
  device_.queue().enqueueWriteBuffer(angle_, CL_TRUE, 0, bodies_ * sizeof(double), world.angle.data());
}

void DeviceBodies::place_vertices() {
  if (bodies_ > 0) device_.queue().enqueueNDRangeKernel(orient_, cl::NullRange, cl::NDRange(bodies_));
  if (vertices_ > 0) device_.queue().enqueueNDRangeKernel(place_, cl::NullRange, cl::NDRange(vertices_));
}

std::vector<Vec2> DeviceBodies::orientations() { return read<Vec2>(device_.queue(), orientation_, bodies_); }
std::vector<Vec2> DeviceBodies::world_vertices() { return read<Vec2>(device_.queue(), world_vertex_, vertices_); }

}  // namespace sphero
