#include "opencl/device_contact_pass.h"

#include <chrono>
#include <cstdint>
#include <stdexcept>

#include "engine/work_split.h"

namespace sphero {
namespace {

constexpr std::size_t kBodyRecord = 12, kBodyForces = 4, kChunkRecord = 8;
// The ended contacts' exact sums (damping, sliding), ExactSum::kCarried
// integers each.
constexpr std::size_t kEndedWidth = 2 * ExactSum::kCarried;
constexpr std::size_t kStateRecord = DeviceContactPass::kStateRecord;

// Its parameters as the kernels read them: 7 per pair of materials.
std::vector<double> packed_laws(const World& w) {
  std::vector<double> out;
  for (const ContactLaw& l : w.law)
    out.insert(
        out.end(), {l.normal == NormalLaw::hertz ? 1.0 : 0.0, l.kn, l.gamma_n, l.kt, l.gamma_t, l.mu, l.cohesion});
  return out;
}

template <class T>
void write(cl::CommandQueue& queue, const cl::Buffer& buffer, const std::vector<T>& data) {
  if (!data.empty()) queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, data.size() * sizeof(T), data.data());
}

template <class T>
void read(cl::CommandQueue& queue, const cl::Buffer& buffer, std::vector<T>& data, std::size_t count) {
  if (count > 0) queue.enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(T), data.data());
}

// A state record's flags and contact state (as send_list packs them).
void unpack_state(const double* r, Candidate& key, ContactState& state) {
  const int flags = static_cast<int>(r[9]);
  key.active = (flags & 1) != 0;
  key.sliding = (flags & 2) != 0;
  state = {{r[0], r[1]}, {r[2], r[3]}, {r[4], r[5]}, {r[6], r[7]}, r[8], r[10], r[11]};
}

}  // namespace

DeviceContactPass::DeviceContactPass(OpenClDevice device, const World& world, const std::filesystem::path& kernels)
    : device_(std::move(device)),
      program_(build_program(device_, kernels, {"exact_sum.cl", "contact_pass.cl"})),
      evaluate_(program_, "evaluate_contacts"),
      sum_forces_(program_, "sum_body_forces"),
      sum_energies_(program_, "sum_chunk_energies"),
      sum_ended_(program_, "sum_chunk_ended"),
      add_exact_(program_, "add_exact_chunks"),
      bodies_(world.size()),
      body_records_(kBodyRecord * world.size()),
      forces_host_(kBodyForces * world.size()) {
  const cl::Context& c = device_.context();
  local_vertex_ = buffer_of(c, world.local_vertex);
  local_shift_ = buffer_of(c, world.local_shift);
  vertex_begin_ = buffer_of(c, world.vertex_begin);
  vertex_count_ = buffer_of(c, world.vertex_count);
  closed_ = buffer_of(c, world.closed);
  seam_ = buffer_of(c, world.seam);
  radius_ = buffer_of(c, world.radius);
  material_ = buffer_of(c, world.material);
  laws_ = buffer_of(c, packed_laws(world));
  bodies_buffer_ = buffer_for<double>(c, body_records_.size());
  forces_ = buffer_for<double>(c, forces_host_.size());
  body_start_ = buffer_for<int>(c, bodies_ + 1);
  cl_uint at = 0;
  for (const cl::Buffer& b :
       {bodies_buffer_, local_vertex_, local_shift_, vertex_begin_, vertex_count_, closed_, seam_})
    evaluate_.setArg(at++, b);
  evaluate_.setArg(at++, static_cast<cl_int>(world.seam.empty() ? 0 : 1));
  evaluate_.setArg(at++, radius_);
  evaluate_.setArg(at++, material_);
  evaluate_.setArg(at++, laws_);
  evaluate_.setArg(at++, static_cast<cl_int>(world.material_count));
  sum_forces_.setArg(0, static_cast<cl_int>(bodies_));
  sum_forces_.setArg(1, bodies_buffer_);
  sum_forces_.setArg(2, body_start_);
  sum_forces_.setArg(8, forces_);
  sum_energies_.setArg(1, static_cast<cl_int>(kContactChunk));
  sum_ended_.setArg(1, static_cast<cl_int>(kContactChunk));
  total_ended_ = buffer_for<std::int64_t>(c, kEndedWidth);
  add_exact_.setArg(1, static_cast<cl_int>(kEndedWidth)), add_exact_.setArg(3, total_ended_);
  // Every array exists from the start, so that a builder can read them.
  reserve_candidates(1);
  reserve_incidence(1);
}

void DeviceContactPass::send_bodies(const World& w) {
  if (w.size() != bodies_) throw std::logic_error("DeviceContactPass: the world's body count changed");
  for (std::size_t i = 0; i < bodies_; ++i) {
    double* r = &body_records_[kBodyRecord * i];
    r[0] = w.position[i].x, r[1] = w.position[i].y, r[2] = w.orientation[i].x, r[3] = w.orientation[i].y;
    r[4] = w.velocity[i].x, r[5] = w.velocity[i].y, r[6] = w.angular_velocity[i];
    r[8] = w.force[i].x, r[9] = w.force[i].y, r[10] = w.torque[i];
  }
  write(device_.queue(), bodies_buffer_, body_records_);
}

// The device keeps the list, and its contacts' states, from one rebuild to
// the next; the host's copy of the states is brought up to date after each
// evaluation (read_back), so a rebuild carries over the current ones.
bool DeviceContactPass::list_changed(const NeighbourList& list) const {
  return &list != sent_list_ || list.generation() != sent_generation_ || list.size() != candidates_;
}

// The candidates' arrays grow (with room to spare) to hold `count`, and
// the kernels' arguments follow them.
void DeviceContactPass::reserve_candidates(std::size_t count) {
  if (count <= candidate_capacity_) return;
  const cl::Context& c = device_.context();
  candidate_capacity_ = count + count / 4 + kContactChunk;
  const std::size_t n = candidate_capacity_, chunks = n / kContactChunk + 1;
  keys_ = buffer_for<cl_int8>(c, n), shapes_ = buffer_for<cl_double4>(c, n);
  states_ = buffer_for<double>(c, kStateRecord * n), force_on_vertex_ = buffer_for<cl_double2>(c, n);
  torques_ = buffer_for<cl_double2>(c, n), energy_ = buffer_for<cl_double4>(c, n);
  overlap_ratio_ = buffer_for<double>(c, n), chunk_sums_ = buffer_for<double>(c, kChunkRecord * chunks);
  states_host_.resize(kStateRecord * n), sums_host_.resize(kChunkRecord * chunks);
  opened_totals_ = buffer_for<cl_double2>(c, n), chunk_ended_ = buffer_for<std::int64_t>(c, kEndedWidth * chunks);
  cl_uint at = 14;
  for (const cl::Buffer& b :
       {keys_, shapes_, states_, force_on_vertex_, torques_, energy_, overlap_ratio_, opened_totals_})
    evaluate_.setArg(at++, b);
  sum_ended_.setArg(2, opened_totals_), sum_ended_.setArg(3, chunk_ended_);
  add_exact_.setArg(2, chunk_ended_);
  at = 4;
  for (const cl::Buffer& b : {keys_, force_on_vertex_, torques_, overlap_ratio_}) sum_forces_.setArg(at++, b);
  sum_energies_.setArg(2, energy_), sum_energies_.setArg(3, overlap_ratio_), sum_energies_.setArg(4, chunk_sums_);
}

void DeviceContactPass::reserve_incidence(std::size_t count) {
  if (count <= incidence_capacity_) return;
  incidence_capacity_ = count + count / 4 + 64;
  body_candidates_ = buffer_for<int>(device_.context(), incidence_capacity_);
  sum_forces_.setArg(3, body_candidates_);
}

// The list's keys, shapes and states, and which candidates each body has.
void DeviceContactPass::send_list(const NeighbourList& list) {
  if (list.copy_stale()) throw std::logic_error("DeviceContactPass: the host's copy of the list is not current");
  const std::vector<Candidate>& keys = list.candidates();
  const std::vector<ContactState>& states = list.states();
  candidates_ = keys.size();
  chunks_ = (candidates_ + kContactChunk - 1) / kContactChunk;
  reserve_candidates(candidates_);
  std::vector<cl_int8> key(candidates_);
  std::vector<cl_double4> shape(candidates_);
  for (std::size_t k = 0; k < candidates_; ++k) {
    const Candidate& a = keys[k];
    const ContactState& s = states[k];
    key[k] = {{a.vertex_body, a.edge_body, a.vertex, a.feature, a.feature_end,
               a.kind == ContactKind::vertex_vertex ? 1 : 0, a.image[0], a.image[1]}};
    shape[k] = {{a.reach, a.edge_offset.x, a.edge_offset.y, 0.0}};
    double* r = &states_host_[kStateRecord * k];
    r[0] = s.xi.x, r[1] = s.xi.y, r[2] = s.force.x, r[3] = s.force.y, r[4] = s.point.x, r[5] = s.point.y;
    r[6] = s.viscous_force.x, r[7] = s.viscous_force.y, r[8] = s.normal_force;
    r[9] = (a.active ? 1.0 : 0.0) + (a.sliding ? 2.0 : 0.0);
    r[10] = s.damping_total, r[11] = s.sliding_total;
  }
  cl::CommandQueue& q = device_.queue();
  write(q, keys_, key), write(q, shapes_, shape);
  if (candidates_ > 0)
    q.enqueueWriteBuffer(states_, CL_TRUE, 0, kStateRecord * candidates_ * sizeof(double), states_host_.data());
  const std::vector<int>& incident = list.body_candidates();
  reserve_incidence(incident.size());
  write(q, body_start_, list.body_candidate_start());
  write(q, body_candidates_, incident);
  sent_list_ = &list;
  sent_generation_ = list.generation();
  ++lists_sent_;
}

void DeviceContactPass::install(const cl::Buffer& keys, const cl::Buffer& shapes, const cl::Buffer& states,
                                const cl::Buffer& body_start, const cl::Buffer& incident, std::size_t count,
                                const NeighbourList& list, long generation) {
  candidates_ = count;
  chunks_ = (count + kContactChunk - 1) / kContactChunk;
  reserve_candidates(count);
  reserve_incidence(2 * count);
  cl::CommandQueue& q = device_.queue();
  if (count > 0) {
    q.enqueueCopyBuffer(keys, keys_, 0, 0, count * sizeof(cl_int8));
    q.enqueueCopyBuffer(shapes, shapes_, 0, 0, count * sizeof(cl_double4));
    q.enqueueCopyBuffer(states, states_, 0, 0, kStateRecord * count * sizeof(double));
    q.enqueueCopyBuffer(incident, body_candidates_, 0, 0, 2 * count * sizeof(int));
  }
  q.enqueueCopyBuffer(body_start, body_start_, 0, 0, (bodies_ + 1) * sizeof(int));
  sent_list_ = &list;
  sent_generation_ = generation;
  ++lists_sent_;
}

void DeviceContactPass::read_list(NeighbourList& list) {
  std::vector<cl_int8> key(candidates_);
  std::vector<cl_double4> shape(candidates_);
  cl::CommandQueue& q = device_.queue();
  read(q, keys_, key, candidates_);
  read(q, shapes_, shape, candidates_);
  read(q, states_, states_host_, kStateRecord * candidates_);
  std::vector<Candidate> candidates(candidates_);
  std::vector<ContactState> states(candidates_);
  for (std::size_t k = 0; k < candidates_; ++k) {
    const cl_int8& a = key[k];
    Candidate& c = candidates[k];
    c.vertex_body = a.s[0], c.edge_body = a.s[1], c.vertex = a.s[2], c.feature = a.s[3], c.feature_end = a.s[4];
    c.kind = a.s[5] != 0 ? ContactKind::vertex_vertex : ContactKind::vertex_edge;
    c.image = {a.s[6], a.s[7]};
    c.reach = shape[k].s[0], c.edge_offset = {shape[k].s[1], shape[k].s[2]};
    unpack_state(&states_host_[kStateRecord * k], c, states[k]);
  }
  list.adopt(std::move(candidates), std::move(states));
}

void DeviceContactPass::run_kernels(double dt) {
  if (candidates_ == 0) return;
  evaluate_.setArg(12, static_cast<cl_int>(candidates_));
  evaluate_.setArg(13, dt);
  device_.run(evaluate_, candidates_);
  sum_energies_.setArg(0, static_cast<cl_int>(candidates_));
  device_.run(sum_energies_, chunks_);
  sum_ended_.setArg(0, static_cast<cl_int>(candidates_));
  device_.run(sum_ended_, chunks_);
  add_exact_.setArg(0, static_cast<cl_int>(chunks_));
  device_.run(add_exact_, kEndedWidth);
  device_.run(sum_forces_, bodies_);
}

void DeviceContactPass::read_forces(World& w) {
  if (candidates_ == 0) return;  // the loads alone: the world holds them already
  read(device_.queue(), forces_, forces_host_, forces_host_.size());
  for (std::size_t i = 0; i < bodies_; ++i) {
    const double* f = &forces_host_[kBodyForces * i];
    w.force[i] = {f[0], f[1]};
    w.torque[i] = f[2];
  }
}

void DeviceContactPass::read_states(NeighbourList& list) {
  if (sent_list_ != &list || list.generation() != sent_generation_) return;
  if (list.copy_stale()) {
    read_list(list);
    return;
  }
  if (candidates_ == 0) return;
  read(device_.queue(), states_, states_host_, kStateRecord * candidates_);
  std::vector<Candidate>& keys = list.candidates();
  std::vector<ContactState>& states = list.states();
  for (std::size_t k = 0; k < candidates_; ++k) unpack_state(&states_host_[kStateRecord * k], keys[k], states[k]);
}

// The chunks' sums in chunk order, as ContactPass::evaluate adds them, and
// the ended contacts' exact sums, added on the device.
StepContactSums DeviceContactPass::read_sums() {
  StepContactSums total;
  if (candidates_ == 0) return total;
  read(device_.queue(), chunk_sums_, sums_host_, kChunkRecord * chunks_);
  for (std::size_t c = 0; c < chunks_; ++c) {
    const double* s = &sums_host_[kChunkRecord * c];
    total.running.add({s[0], s[1], s[2], s[3], s[4]});
  }
  std::vector<std::int64_t> limbs(kEndedWidth);
  read(device_.queue(), total_ended_, limbs, kEndedWidth);
  const auto terms = static_cast<std::int64_t>(candidates_);
  total.ended.damping = ExactSum::of_limbs(&limbs[0], terms);
  total.ended.sliding = ExactSum::of_limbs(&limbs[ExactSum::kCarried], terms);
  return total;
}

StepContactSums DeviceContactPass::evaluate(World& world, NeighbourList& list, double dt) {
  const auto start = std::chrono::steady_clock::now();
  send_bodies(world);
  if (list_changed(list)) send_list(list);
  run_kernels(dt);
  read_forces(world);
  read_states(list);
  const StepContactSums total = read_sums();
  list.stats().feature_pairs_evaluated += static_cast<long>(candidates_);
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return total;
}

StepContactSums DeviceContactPass::evaluate_resident(NeighbourList& list, double dt) {
  const auto start = std::chrono::steady_clock::now();
  if (list_changed(list)) send_list(list);
  run_kernels(dt);
  const StepContactSums total = read_sums();
  list.stats().feature_pairs_evaluated += static_cast<long>(candidates_);
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return total;
}

}  // namespace sphero
