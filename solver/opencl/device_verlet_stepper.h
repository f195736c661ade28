// Velocity Verlet with the bodies, the list's contacts and their springs
// resident on an OpenCL device (docs/OPENCL.md): each step moves the
// bodies, evaluates the contacts, kicks and sums the energies there, and
// reads back only the sums — the same bits as the CPU's VerletStepper. When
// a step's motion calls for a rebuild, the host reads the positions and
// angles, decides, wraps and keeps the books (NeighbourList::update) and
// the device builds the list (DeviceListBuilder); lists the builder does not
// build (all pairs, the triangulation) are built on the host, with the
// bodies and springs brought back first. A reader of the world (frames,
// checkpoints) gets it brought back through Stepper::sync_host.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "engine/stepper.h"
#include "opencl/device_contact_pass.h"
#include "opencl/device_list_builder.h"

namespace sphero {

class DeviceVerletStepper final : public Stepper {
 public:
  DeviceVerletStepper(OpenClDevice device, const World& world, const std::filesystem::path& kernels);
  // Why a run cannot step on the device (another model or integrator,
  // pressure plates that follow their span, vibrating walls); empty if it can.
  static std::string unsupported(const World& world, const EngineSettings& settings);
  // Throws std::invalid_argument naming what the device stepper cannot do
  // yet (another integrator, pressure plates, vibrating walls).
  void start(EngineCore& core) override;
  void step(EngineCore& core) override;
  void sync_host(EngineCore& core) override;
  void host_changed(EngineCore& /*core*/) override { device_current_ = false; }
  void leave(EngineCore& core) override;

  const OpenClDeviceInfo& device() const { return pass_.device(); }
  double seconds() const { return pass_.seconds(); }  // in the contact pass
  long host_syncs() const { return host_syncs_; }     // the bodies brought back (readers, host rebuilds)
  // Whether lists with these settings are built on the device (link cells
  // with contact lists), or on the host.
  static bool lists_on_device(const NeighbourSettings& s) { return DeviceListBuilder::builds(s); }
  // Wall time in the device's list rebuilds (zero where the host builds them).
  double list_seconds() const { return builder_ ? builder_->seconds() : 0.0; }

 private:
  void send_world(const EngineCore& core);
  void send_state(const EngineCore& core);
  void send_reference(const NeighbourList& list);
  void read_pose(EngineCore& core);
  void send_constrained_loads(const EngineCore& core);
  double move(const EngineCore& core);
  void update_list(EngineCore& core, double largest);
  void evaluate_contacts(EngineCore& core);
  void finish(EngineCore& core);
  void read_constrained(EngineCore& core);
  template <class T>
  void read(const cl::Buffer& buffer, std::vector<T>& into);
  template <class T>
  void send(const cl::Buffer& buffer, const std::vector<T>& from);

  DeviceContactPass pass_;
  OpenClDevice device_;
  cl::Program program_;
  cl::Kernel move_, pack_, take_, finish_, gather_, set_loads_;
  std::size_t n_ = 0, chunks_ = 0;
  bool device_current_ = false, host_current_ = true;
  long host_syncs_ = 0;
  std::vector<int> constrained_;
  std::vector<double> chunk_values_;
  cl::Buffer position_, angle_, orientation_, velocity_, spin_, force_, torque_, previous_, mass_, inverse_mass_,
      inertia_, inverse_inertia_, held_, unconstrained_, imposed_velocity_, imposed_load_, vertex_begin_, vertex_count_,
      local_shift_, local_vertex_, reference_position_, reference_angle_, bounding_radius_, is_wall_, motion_max_,
      sums_, constrained_index_, constrained_values_;
  std::unique_ptr<DeviceListBuilder> builder_;  // made once the stepper has its buffers
};

}  // namespace sphero
