#include "opencl/device_verlet_stepper.h"

#include <stdexcept>

#include "engine/stability.h"
#include "engine/work_split.h"

namespace sphero {
namespace {

// Per body: bit k set where DOF k is held.
std::vector<std::uint8_t> held_bits(const World& w) {
  std::vector<std::uint8_t> out(w.size());
  for (std::size_t i = 0; i < w.size(); ++i)
    for (int k = 0; k < 3; ++k)
      out[i] = static_cast<std::uint8_t>(out[i] | (w.constraint[i].held[static_cast<std::size_t>(k)] ? 1 << k : 0));
  return out;
}

std::vector<cl_double4> imposed_velocities(const World& w) {
  std::vector<cl_double4> out(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const auto& v = w.constraint[i].imposed_velocity;
    out[i] = {{v[0], v[1], v[2], 0.0}};
  }
  return out;
}

std::vector<cl_double4> imposed_loads(const World& w) {
  std::vector<cl_double4> out(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const BodyConstraint& c = w.constraint[i];
    out[i] = {{c.imposed_force.x, c.imposed_force.y, c.imposed_torque, 0.0}};
  }
  return out;
}

}  // namespace

DeviceVerletStepper::DeviceVerletStepper(OpenClDevice device, const World& world, const std::filesystem::path& kernels)
    : pass_(device, world, kernels),
      device_(std::move(device)),
      program_(build_program(device_, kernels, {"body_pose.cl", "verlet.cl"})),
      move_(program_, "move_bodies"),
      pack_(program_, "pack_records"),
      take_(program_, "take_forces"),
      finish_(program_, "finish_bodies"),
      gather_(program_, "gather_constrained"),
      set_loads_(program_, "set_constrained_loads"),
      n_(world.size()),
      chunks_((world.size() + kBodyChunk - 1) / kBodyChunk) {
  const cl::Context& c = device_.context();
  for (cl::Buffer* b : {&position_, &orientation_, &velocity_, &force_, &previous_, &reference_position_})
    *b = buffer_for<Vec2>(c, n_);
  for (cl::Buffer* b : {&angle_, &spin_, &torque_, &mass_, &inverse_mass_, &inertia_, &inverse_inertia_,
                        &reference_angle_, &bounding_radius_})
    *b = buffer_for<double>(c, n_);
  held_ = buffer_for<std::uint8_t>(c, n_), unconstrained_ = buffer_for<std::uint8_t>(c, n_);
  is_wall_ = buffer_for<std::uint8_t>(c, n_);
  imposed_velocity_ = buffer_for<cl_double4>(c, n_), imposed_load_ = buffer_for<cl_double4>(c, n_);
  vertex_begin_ = buffer_for<int>(c, n_), vertex_count_ = buffer_for<int>(c, n_), local_shift_ = buffer_for<int>(c, n_);
  local_vertex_ = buffer_for<Vec2>(c, world.local_vertex.size());
  motion_max_ = buffer_for<double>(c, chunks_), sums_ = buffer_for<cl_double8>(c, chunks_);
  constrained_index_ = buffer_for<int>(c, n_), constrained_values_ = buffer_for<double>(c, 8 * n_);
  const cl_double2 gravity = {{world.gravity.x, world.gravity.y}};
  const cl_double2 centre = {{world.attractor.centre.x, world.attractor.centre.y}};
  for (cl::Kernel* k : {&move_, &pack_, &take_, &finish_, &gather_, &set_loads_}) {
    cl_uint at = 0;
    k->setArg(at++, static_cast<cl_int>(n_));
    for (const cl::Buffer& b : {position_,     angle_,           orientation_,  velocity_,      spin_,
                                force_,        torque_,          previous_,     mass_,          inverse_mass_,
                                inertia_,      inverse_inertia_, held_,         unconstrained_, imposed_velocity_,
                                imposed_load_, vertex_begin_,    vertex_count_, local_shift_,   local_vertex_})
      k->setArg(at++, b);
    k->setArg(at++, gravity);
    k->setArg(at++, centre);
    k->setArg(at++, world.attractor.strength);
  }
  move_.setArg(25, reference_position_), move_.setArg(26, reference_angle_), move_.setArg(27, bounding_radius_);
  move_.setArg(28, static_cast<cl_int>(kBodyChunk)), move_.setArg(29, motion_max_);
  pack_.setArg(24, pass_.body_records());
  take_.setArg(24, pass_.forces());
  finish_.setArg(25, is_wall_), finish_.setArg(26, bounding_radius_);
  finish_.setArg(27, static_cast<cl_int>(kBodyChunk)), finish_.setArg(28, sums_);
  finish_.setArg(29, cl_int2{{world.cell.periodic[0] ? 1 : 0, world.cell.periodic[1] ? 1 : 0}});
  finish_.setArg(30, cl_double2{{world.cell.size.x, world.cell.size.y}});
  gather_.setArg(25, constrained_index_), gather_.setArg(26, constrained_values_);
  set_loads_.setArg(25, constrained_index_), set_loads_.setArg(26, constrained_values_);
  builder_ = std::make_unique<DeviceListBuilder>(device_, world, kernels, pass_, position_, orientation_);
}

template <class T>
void DeviceVerletStepper::read(const cl::Buffer& buffer, std::vector<T>& into) {
  if (!into.empty()) device_.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, into.size() * sizeof(T), into.data());
}

template <class T>
void DeviceVerletStepper::send(const cl::Buffer& buffer, const std::vector<T>& from) {
  if (!from.empty()) device_.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, from.size() * sizeof(T), from.data());
}

std::string DeviceVerletStepper::unsupported(const World& world, const EngineSettings& settings) {
  if (settings.model != Model::soft) return "the rigid model";
  if (settings.integrator != Integrator::velocity_verlet) return "the Gear integrator";
  for (const BodyConstraint& c : world.constraint) {
    if (c.follows_span()) return "pressure plates that follow their span";
    if (c.vibration.on()) return "vibrating walls";
  }
  return {};
}

void DeviceVerletStepper::start(EngineCore& core) {
  if (const std::string what = unsupported(core.world, core.settings); !what.empty())
    throw std::invalid_argument("the OpenCL backend does not yet step " + what + " on the device");
  if (core.world.size() != n_) throw std::invalid_argument("the OpenCL stepper was made for another world");
  if (core.constraints_may_have_changed) core.classify_bodies();
  send_world(core);
  if (lists_on_device(core.neighbours.settings())) core.neighbours.list_remotely(builder_.get());
}

void DeviceVerletStepper::leave(EngineCore& core) {
  sync_host(core);
  core.neighbours.list_remotely(nullptr);
}

// Every body's state and properties, the constrained bodies' list and the
// list's reference positions, from the host.
void DeviceVerletStepper::send_world(const EngineCore& core) {
  const World& w = core.world;
  send(mass_, w.mass), send(inverse_mass_, w.inverse_mass), send(inertia_, w.inertia);
  send(inverse_inertia_, w.inverse_inertia), send(held_, held_bits(w)), send(unconstrained_, core.unconstrained);
  send(imposed_velocity_, imposed_velocities(w)), send(imposed_load_, imposed_loads(w));
  send(vertex_begin_, w.vertex_begin), send(vertex_count_, w.vertex_count), send(local_shift_, w.local_shift);
  send(local_vertex_, w.local_vertex), send(bounding_radius_, w.bounding_radius), send(is_wall_, w.is_wall);
  constrained_ = core.constrained;
  send(constrained_index_, constrained_);
  send_state(core);
  device_current_ = true;
}

// What a step changes: the bodies' state, and the list's references.
void DeviceVerletStepper::send_state(const EngineCore& core) {
  const World& w = core.world;
  send(position_, w.position), send(angle_, w.angle), send(orientation_, w.orientation), send(velocity_, w.velocity);
  send(spin_, w.angular_velocity), send(force_, w.force), send(torque_, w.torque);
  send_reference(core.neighbours);
}

void DeviceVerletStepper::send_reference(const NeighbourList& list) {
  if (list.reference_positions().size() != n_) return;  // not built yet: the first step builds it on the host
  send(reference_position_, list.reference_positions());
  send(reference_angle_, list.reference_angles());
}

void DeviceVerletStepper::sync_host(EngineCore& core) {
  if (host_current_) return;
  World& w = core.world;
  read(position_, w.position), read(angle_, w.angle), read(orientation_, w.orientation), read(velocity_, w.velocity);
  read(spin_, w.angular_velocity), read(force_, w.force), read(torque_, w.torque);
  core.previous_position.resize(n_);
  read(previous_, core.previous_position);
  pass_.read_states(core.neighbours);
  host_current_ = true;
  ++host_syncs_;
}

// Pass 1 on the device; returns the largest motion since the list was built.
double DeviceVerletStepper::move(const EngineCore& core) {
  move_.setArg(24, core.settings.dt);
  device_.run(move_, chunks_);
  std::vector<double> largest(chunks_);
  read(motion_max_, largest);
  double out = 0.0;
  for (double m : largest) out = std::max(out, m);
  return out;
}

// Positions and angles only: what deciding a rebuild and wrapping read.
void DeviceVerletStepper::read_pose(EngineCore& core) {
  read(position_, core.world.position), read(angle_, core.world.angle);
}

// EngineCore::apply_loads' values for the constrained bodies, onto the device.
void DeviceVerletStepper::send_constrained_loads(const EngineCore& core) {
  if (constrained_.empty()) return;
  const World& w = core.world;
  std::vector<double> values(8 * constrained_.size(), 0.0);
  for (std::size_t j = 0; j < constrained_.size(); ++j) {
    const auto i = static_cast<std::size_t>(constrained_[j]);
    values[8 * j] = w.force[i].x, values[8 * j + 1] = w.force[i].y, values[8 * j + 2] = w.torque[i];
  }
  send(constrained_values_, values);
  set_loads_.setArg(24, static_cast<cl_int>(constrained_.size()));
  device_.run(set_loads_, constrained_.size());
}

// The list as VerletStepper keeps it. Built on the device: the host reads
// the positions and angles, decides, wraps (the builder sends the wrapped
// positions) and keeps the books; the constrained bodies' loads are then
// taken at their (perhaps wrapped) places. Built on the host: the bodies
// and springs come back first, and everything goes out again after.
void DeviceVerletStepper::update_list(EngineCore& core, double largest) {
  NeighbourList& list = core.neighbours;
  World& w = core.world;
  // The strategy may have changed since the run started (Engine::set_neighbour_strategy).
  if (list.listed_remotely() != lists_on_device(list.settings())) {
    sync_host(core);
    list.list_remotely(lists_on_device(list.settings()) ? builder_.get() : nullptr);
  }
  const bool measure = list.ready(w);
  if (measure && !list.will_change(w, largest)) {
    list.update(w, largest);  // counts the step, touches nothing
    core.vertices_stale = true;
    return;
  }
  if (measure && list.listed_remotely()) {
    read_pose(core);
    list.update(w, largest);
    core.vertices_stale = true;
    core.apply_loads(true);
    send_constrained_loads(core);
    send_reference(list);
    return;
  }
  sync_host(core);
  const bool rebuilt = measure ? list.update(w, largest) : list.update(w);
  core.vertices_stale = !(rebuilt && list.all_vertices_current());
  core.apply_loads(true);
  send_state(core);
}

void DeviceVerletStepper::evaluate_contacts(EngineCore& core) {
  device_.run(pack_, n_);
  const double dt = core.settings.dt;
  const StepContactSums sums = pass_.evaluate_resident(core.neighbours, dt);
  if (pass_.candidates() > 0) device_.run(take_, n_);
  core.book_contact_sums(sums, core.time + dt);
}

// The constrained bodies' forces and velocities, into the host's world, for
// the power of their imposed motions and loads.
void DeviceVerletStepper::read_constrained(EngineCore& core) {
  if (constrained_.empty()) return;
  gather_.setArg(24, static_cast<cl_int>(constrained_.size()));
  device_.run(gather_, constrained_.size());
  std::vector<double> values(8 * constrained_.size());
  read(constrained_values_, values);
  World& w = core.world;
  for (std::size_t j = 0; j < constrained_.size(); ++j) {
    const auto i = static_cast<std::size_t>(constrained_[j]);
    const double* r = &values[8 * j];
    w.force[i] = {r[0], r[1]}, w.torque[i] = r[2], w.velocity[i] = {r[3], r[4]}, w.angular_velocity[i] = r[5];
  }
}

// Pass 3 on the device; the sums and the stability check's suspect back.
void DeviceVerletStepper::finish(EngineCore& core) {
  finish_.setArg(24, core.settings.dt);
  device_.run(finish_, chunks_);
  chunk_values_.resize(8 * chunks_);
  read(sums_, chunk_values_);
  core.body_sums.assign(chunks_, BodyEnergySums{});
  std::size_t suspect = n_;
  for (std::size_t c = 0; c < chunks_; ++c) {
    const double* r = &chunk_values_[8 * c];
    BodyEnergySums& b = core.body_sums[c];
    b.translational = r[0], b.rotational = r[1], b.gravitational = r[2], b.fastest_speed2 = r[3];
    b.fastest = static_cast<std::size_t>(r[4]);
    suspect = std::min(suspect, static_cast<std::size_t>(r[5]));
  }
  read_constrained(core);
  core.close_body_energy_sums(true);
  core.first_unstable = n_;
  if (suspect == n_) return;
  // A body looks unstable (or holds a value that is not finite): the CPU's
  // test, with its rare cases, on the world brought back.
  sync_host(core);
  for (std::size_t i = suspect; i < n_; ++i)
    if (looks_unstable(core.world, core.previous_position, i)) {
      core.first_unstable = i;
      break;
    }
}

void DeviceVerletStepper::step(EngineCore& core) {
  if (!device_current_) {
    if (core.constraints_may_have_changed) core.classify_bodies();
    start(core);
  }
  host_current_ = false;
  const double largest = move(core);
  update_list(core, largest);
  evaluate_contacts(core);
  host_current_ = false;  // a rebuild brought the host up to date before the contacts moved on
  finish(core);
}

}  // namespace sphero
