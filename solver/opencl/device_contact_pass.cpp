#include "opencl/device_contact_pass.h"

#include <chrono>
#include <stdexcept>

#include "engine/work_split.h"

namespace sphero {
namespace {

// Its parameters as the kernels read them: 7 per pair of materials.
std::vector<double> packed_laws(const World& w) {
  std::vector<double> out;
  for (const ContactLaw& l : w.law)
    out.insert(out.end(), {l.normal == NormalLaw::hertz ? 1.0 : 0.0, l.kn, l.gamma_n, l.kt, l.gamma_t, l.mu, l.cohesion});
  return out;
}

// A buffer holding a copy of `data` (at least one element: OpenCL refuses
// empty buffers).
template <class T>
cl::Buffer buffer_of(const cl::Context& context, std::vector<T> data) {
  if (data.empty()) data.resize(1);
  return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(T), data.data());
}

template <class T>
cl::Buffer buffer_for(const cl::Context& context, std::size_t count) {
  return cl::Buffer(context, CL_MEM_READ_WRITE, std::max<std::size_t>(count, 1) * sizeof(T));
}

template <class T>
void write(cl::CommandQueue& queue, const cl::Buffer& buffer, const std::vector<T>& data) {
  if (!data.empty()) queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, data.size() * sizeof(T), data.data());
}

template <class T>
void read(cl::CommandQueue& queue, const cl::Buffer& buffer, std::vector<T>& data) {
  if (!data.empty()) queue.enqueueReadBuffer(buffer, CL_TRUE, 0, data.size() * sizeof(T), data.data());
}

}  // namespace

DeviceContactPass::DeviceContactPass(OpenClDevice device, const World& world, const std::filesystem::path& kernels)
    : device_(std::move(device)),
      program_(build_program(device_, kernels, {"contact_pass.cl"})),
      evaluate_(program_, "evaluate_contacts"),
      sum_forces_(program_, "sum_body_forces"),
      sum_energies_(program_, "sum_chunk_energies"),
      bodies_(world.size()) {
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
  position_ = buffer_for<Vec2>(c, bodies_);
  orientation_ = buffer_for<Vec2>(c, bodies_);
  velocity_ = buffer_for<Vec2>(c, bodies_);
  angular_velocity_ = buffer_for<double>(c, bodies_);
  force_ = buffer_for<Vec2>(c, bodies_);
  torque_ = buffer_for<double>(c, bodies_);
  body_start_ = buffer_for<int>(c, bodies_ + 1);
  const cl::Buffer world_args[] = {position_, orientation_, velocity_, angular_velocity_, local_vertex_,
                                   local_shift_, vertex_begin_, vertex_count_, closed_, seam_};
  cl_uint at = 0;
  for (const cl::Buffer& b : world_args) evaluate_.setArg(at++, b);
  evaluate_.setArg(at++, static_cast<cl_int>(world.seam.empty() ? 0 : 1));
  evaluate_.setArg(at++, radius_);
  evaluate_.setArg(at++, material_);
  evaluate_.setArg(at++, laws_);
  evaluate_.setArg(at++, static_cast<cl_int>(world.material_count));
  sum_forces_.setArg(0, static_cast<cl_int>(bodies_));
  sum_forces_.setArg(1, body_start_);
  sum_forces_.setArg(8, force_);
  sum_forces_.setArg(9, torque_);
  sum_energies_.setArg(1, static_cast<cl_int>(kContactChunk));
}

void DeviceContactPass::upload_bodies(const World& w) {
  if (w.size() != bodies_) throw std::logic_error("DeviceContactPass: the world's body count changed");
  cl::CommandQueue& q = device_.queue();
  write(q, position_, w.position);
  write(q, orientation_, w.orientation);
  write(q, velocity_, w.velocity);
  write(q, angular_velocity_, w.angular_velocity);
  write(q, force_, w.force);
  write(q, torque_, w.torque);
}

// The candidates' arrays grow (with room to spare) to the list's size, and
// the kernels' arguments follow them.
void DeviceContactPass::upload_list(const NeighbourList& list) {
  const cl::Context& c = device_.context();
  const std::vector<Candidate>& keys = list.candidates();
  const std::vector<ContactState>& states = list.states();
  candidates_ = keys.size();
  chunks_ = (candidates_ + kContactChunk - 1) / kContactChunk;
  if (candidates_ > candidate_capacity_) {
    candidate_capacity_ = candidates_ + candidates_ / 4 + kContactChunk;
    const std::size_t n = candidate_capacity_, chunks = n / kContactChunk + 1;
    keys_ = buffer_for<cl_int4>(c, n), feature_end_ = buffer_for<int>(c, n), kind_ = buffer_for<std::uint8_t>(c, n);
    reach_ = buffer_for<double>(c, n), edge_offset_ = buffer_for<Vec2>(c, n), flags_ = buffer_for<std::uint8_t>(c, n);
    xi_ = buffer_for<Vec2>(c, n), state_force_ = buffer_for<Vec2>(c, n), point_ = buffer_for<Vec2>(c, n);
    viscous_force_ = buffer_for<Vec2>(c, n), normal_force_ = buffer_for<double>(c, n);
    force_on_vertex_ = buffer_for<Vec2>(c, n), torque_on_vertex_ = buffer_for<double>(c, n);
    torque_on_edge_ = buffer_for<double>(c, n), energy_ = buffer_for<cl_double4>(c, n);
    overlap_ratio_ = buffer_for<double>(c, n), chunk_sums_ = buffer_for<cl_double4>(c, chunks);
    chunk_deepest_ = buffer_for<double>(c, chunks);
    const cl::Buffer candidate_args[] = {keys_, feature_end_, kind_, reach_, edge_offset_, flags_, xi_, state_force_,
                                         point_, viscous_force_, normal_force_, force_on_vertex_, torque_on_vertex_,
                                         torque_on_edge_, energy_, overlap_ratio_};
    cl_uint at = 17;
    for (const cl::Buffer& b : candidate_args) evaluate_.setArg(at++, b);
    at = 3;
    for (const cl::Buffer& b : {keys_, force_on_vertex_, torque_on_vertex_, torque_on_edge_, overlap_ratio_})
      sum_forces_.setArg(at++, b);
    sum_energies_.setArg(2, energy_), sum_energies_.setArg(3, overlap_ratio_);
    sum_energies_.setArg(4, chunk_sums_), sum_energies_.setArg(5, chunk_deepest_);
  }
  std::vector<cl_int4> key(candidates_);
  std::vector<int> end(candidates_);
  std::vector<std::uint8_t> kind(candidates_), flags(candidates_);
  std::vector<double> reach(candidates_), normal_force(candidates_);
  std::vector<Vec2> offset(candidates_), xi(candidates_), force(candidates_), point(candidates_), viscous(candidates_);
  for (std::size_t k = 0; k < candidates_; ++k) {
    const Candidate& a = keys[k];
    const ContactState& s = states[k];
    key[k] = {{a.vertex_body, a.edge_body, a.vertex, a.feature}};
    end[k] = a.feature_end;
    kind[k] = a.kind == ContactKind::vertex_vertex ? 1 : 0;
    flags[k] = static_cast<std::uint8_t>((a.active ? 1 : 0) | (a.sliding ? 2 : 0));
    reach[k] = a.reach, offset[k] = a.edge_offset;
    xi[k] = s.xi, force[k] = s.force, point[k] = s.point, viscous[k] = s.viscous_force, normal_force[k] = s.normal_force;
  }
  cl::CommandQueue& q = device_.queue();
  write(q, keys_, key), write(q, feature_end_, end), write(q, kind_, kind), write(q, flags_, flags);
  write(q, reach_, reach), write(q, edge_offset_, offset), write(q, xi_, xi), write(q, state_force_, force);
  write(q, point_, point), write(q, viscous_force_, viscous), write(q, normal_force_, normal_force);
  const std::vector<int>& incident = list.body_candidates();
  if (incident.size() > incidence_capacity_) {
    incidence_capacity_ = incident.size() + incident.size() / 4 + 64;
    body_candidates_ = buffer_for<int>(c, incidence_capacity_);
    sum_forces_.setArg(2, body_candidates_);
  }
  write(q, body_start_, list.body_candidate_start());
  write(q, body_candidates_, incident);
}

void DeviceContactPass::run_kernels(double dt) {
  cl::CommandQueue& q = device_.queue();
  if (candidates_ > 0) {
    evaluate_.setArg(15, static_cast<cl_int>(candidates_));
    evaluate_.setArg(16, dt);
    q.enqueueNDRangeKernel(evaluate_, cl::NullRange, cl::NDRange(candidates_));
    sum_energies_.setArg(0, static_cast<cl_int>(candidates_));
    q.enqueueNDRangeKernel(sum_energies_, cl::NullRange, cl::NDRange(chunks_));
  }
  if (bodies_ > 0 && candidates_ > 0) q.enqueueNDRangeKernel(sum_forces_, cl::NullRange, cl::NDRange(bodies_));
}

void DeviceContactPass::read_back(World& w, NeighbourList& list) {
  cl::CommandQueue& q = device_.queue();
  read(q, force_, w.force);
  read(q, torque_, w.torque);
  std::vector<std::uint8_t> flags(candidates_);
  std::vector<double> normal_force(candidates_);
  std::vector<Vec2> xi(candidates_), force(candidates_), point(candidates_), viscous(candidates_);
  read(q, flags_, flags), read(q, xi_, xi), read(q, state_force_, force), read(q, point_, point);
  read(q, viscous_force_, viscous), read(q, normal_force_, normal_force);
  std::vector<Candidate>& keys = list.candidates();
  std::vector<ContactState>& states = list.states();
  for (std::size_t k = 0; k < candidates_; ++k) {
    keys[k].active = (flags[k] & 1) != 0;
    keys[k].sliding = (flags[k] & 2) != 0;
    ContactState& s = states[k];
    s.xi = xi[k], s.force = force[k], s.point = point[k], s.viscous_force = viscous[k], s.normal_force = normal_force[k];
  }
}

ContactEnergySums DeviceContactPass::evaluate(World& world, NeighbourList& list, double dt) {
  const auto start = std::chrono::steady_clock::now();
  upload_bodies(world);
  upload_list(list);
  run_kernels(dt);
  read_back(world, list);
  std::vector<cl_double4> sums(chunks_);
  std::vector<double> deepest(chunks_);
  read(device_.queue(), chunk_sums_, sums);
  read(device_.queue(), chunk_deepest_, deepest);
  ContactEnergySums total;
  for (std::size_t c = 0; c < chunks_; ++c)
    total.add({sums[c].s[0], sums[c].s[1], sums[c].s[2], sums[c].s[3], deepest[c]});
  list.stats().feature_pairs_evaluated += static_cast<long>(candidates_);
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return total;
}

}  // namespace sphero
