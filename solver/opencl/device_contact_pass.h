// The soft model's contact pass on an OpenCL device (docs/OPENCL.md): the
// kernels of data/opencl/contact_pass.cl evaluate every candidate's
// geometry and law, sum each body's forces in candidate order and each
// chunk's energies in candidate order, and so give ContactPass::evaluate's
// bits. The shapes and laws are sent once; the list when it was rebuilt;
// each evaluation sends the bodies (one record each) and reads back their
// forces, the contacts' states and the chunks' sums.
#pragma once

#include <filesystem>
#include <vector>

#include "engine/contact_evaluator.h"
#include "opencl/opencl_device.h"

namespace sphero {

class DeviceContactPass final : public ContactEvaluator {
 public:
  // Doubles per candidate in states(): spring, force, point, viscous
  // force, normal force, flags (1 active, 2 sliding).
  static constexpr std::size_t kStateRecord = 12;
  // `world` gives the shapes, materials and laws; `kernels` is the folder
  // of the kernel sources.
  DeviceContactPass(OpenClDevice device, const World& world, const std::filesystem::path& kernels);
  StepContactSums evaluate(World& world, NeighbourList& list, double dt) override;
  // The same with the bodies' records already on the device (body_records,
  // filled by a device stepper): the forces stay there (forces(), 4 doubles
  // per body), and so do the contacts' states until read_states.
  StepContactSums evaluate_resident(NeighbourList& list, double dt);
  void read_states(NeighbourList& list);
  // Whether the device holds `list` as it now is (its generation), and
  // sends it there (the host's copy must be current).
  bool holds(const NeighbourList& list) const { return !list_changed(list); }
  void send_list(const NeighbourList& list);
  // A list built on the device (DeviceListBuilder) becomes the one held,
  // as `list` will be at `generation`: keys, shapes and states of `count`
  // candidates, and the per-body index of their incidences.
  void install(const cl::Buffer& keys, const cl::Buffer& shapes, const cl::Buffer& states, const cl::Buffer& body_start,
               const cl::Buffer& incident, std::size_t count, const NeighbourList& list, long generation);
  // The held list, states included, into the host's copy (NeighbourList::adopt).
  void read_list(NeighbourList& list);
  // The held list's keys (8 ints each: vertex body, edge body, vertex,
  // feature, feature end, vertex–vertex, image), shapes (reach, edge
  // offset, pad) and states (10 doubles each).
  const cl::Buffer& keys() const { return keys_; }
  const cl::Buffer& shapes() const { return shapes_; }
  const cl::Buffer& states() const { return states_; }
  const cl::Buffer& body_records() const { return bodies_buffer_; }
  const cl::Buffer& forces() const { return forces_; }
  std::size_t candidates() const { return candidates_; }  // in the list last evaluated

  const OpenClDeviceInfo& device() const { return device_.info(); }
  // Wall time spent in evaluate, transfers included, since construction.
  double seconds() const { return seconds_; }
  // Lists sent to the device (the first, and one per rebuild).
  long lists_sent() const { return lists_sent_; }

 private:
  void send_bodies(const World& w);
  bool list_changed(const NeighbourList& list) const;
  void reserve_candidates(std::size_t count);
  void reserve_incidence(std::size_t count);
  void run_kernels(double dt);
  void read_forces(World& w);
  StepContactSums read_sums();

  OpenClDevice device_;
  cl::Program program_;
  cl::Kernel evaluate_, sum_forces_, sum_energies_, sum_ended_, add_exact_;
  std::size_t bodies_ = 0, candidates_ = 0, chunks_ = 0;
  double seconds_ = 0.0;
  long lists_sent_ = 0;
  // Which list the device holds: its address and generation.
  const NeighbourList* sent_list_ = nullptr;
  long sent_generation_ = -1;
  // The world: fixed for the run.
  cl::Buffer local_vertex_, local_shift_, vertex_begin_, vertex_count_, closed_, seam_, radius_, material_, laws_;
  // The bodies' records (12 doubles each) and their forces (4 each).
  std::vector<double> body_records_, forces_host_;
  cl::Buffer bodies_buffer_, forces_, body_start_;
  // The list: keys, shapes and states kept on the device between rebuilds.
  std::size_t candidate_capacity_ = 0, incidence_capacity_ = 0;
  std::vector<double> states_host_, sums_host_;
  cl::Buffer keys_, shapes_, states_, force_on_vertex_, torques_, energy_, overlap_ratio_, chunk_sums_,
      body_candidates_, opened_totals_, chunk_ended_, total_ended_;
};

}  // namespace sphero
