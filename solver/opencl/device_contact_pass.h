// The soft model's contact pass on an OpenCL device (docs/OPENCL.md): the
// kernels of data/opencl/contact_pass.cl evaluate every candidate's
// geometry and law, sum each body's forces in candidate order and each
// chunk's energies in candidate order, and so give ContactPass::evaluate's
// bits. The world's shapes and laws are uploaded once; each evaluation
// sends the bodies' poses, velocities and loads and the list with its
// contacts' states, and reads back forces, flags, states and sums.
#pragma once

#include <filesystem>
#include <vector>

#include "engine/contact_evaluator.h"
#include "opencl/opencl_device.h"

namespace sphero {

class DeviceContactPass final : public ContactEvaluator {
 public:
  // `world` gives the shapes, materials and laws; `kernels` is the folder
  // of the kernel sources.
  DeviceContactPass(OpenClDevice device, const World& world, const std::filesystem::path& kernels);
  const OpenClDeviceInfo& device() const { return device_.info(); }
  // Wall time spent in evaluate, transfers included, since construction.
  double seconds() const { return seconds_; }
  ContactEnergySums evaluate(World& world, NeighbourList& list, double dt) override;

 private:
  void upload_bodies(const World& w);
  void upload_list(const NeighbourList& list);
  void run_kernels(double dt);
  void read_back(World& w, NeighbourList& list);

  OpenClDevice device_;
  cl::Program program_;
  cl::Kernel evaluate_, sum_forces_, sum_energies_;
  std::size_t bodies_ = 0, candidates_ = 0, chunks_ = 0;
  double seconds_ = 0.0;
  // The world: fixed for the run.
  cl::Buffer local_vertex_, local_shift_, vertex_begin_, vertex_count_, closed_, seam_, radius_, material_, laws_;
  // The bodies: sent every evaluation.
  cl::Buffer position_, orientation_, velocity_, angular_velocity_, force_, torque_;
  // The list and its contacts: sent every evaluation, at the size it had.
  std::size_t candidate_capacity_ = 0, incidence_capacity_ = 0;
  cl::Buffer keys_, feature_end_, kind_, reach_, edge_offset_, flags_, xi_, state_force_, point_, viscous_force_,
      normal_force_, force_on_vertex_, torque_on_vertex_, torque_on_edge_, energy_, overlap_ratio_, chunk_sums_,
      chunk_deepest_, body_start_, body_candidates_;
};

}  // namespace sphero
