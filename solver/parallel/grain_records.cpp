#include "parallel/grain_records.h"

#include <algorithm>
#include <cstring>

#include "engine/candidate_order.h"

namespace sphero {

GrainMotion motion_of(const World& w, std::size_t i) {
  return {w.position[i], w.angle[i], w.velocity[i], w.angular_velocity[i], w.force[i], w.torque[i]};
}

void set_motion(World& w, std::size_t i, const GrainMotion& m) {
  w.position[i] = m.position;
  w.angle[i] = m.angle;
  w.velocity[i] = m.velocity;
  w.angular_velocity[i] = m.angular_velocity;
  w.force[i] = m.force;
  w.torque[i] = m.torque;
}

Candidate portable(const Candidate& k, const World& w, const std::vector<int>& numbers) {
  const auto first = [&w](int body) { return w.vertex_begin[static_cast<std::size_t>(body)]; };
  Candidate r = k;
  r.vertex = k.vertex - first(k.vertex_body);
  r.feature = k.feature - first(k.edge_body);
  r.feature_end = k.feature_end - first(k.edge_body);
  r.vertex_body = numbers[static_cast<std::size_t>(k.vertex_body)];
  r.edge_body = numbers[static_cast<std::size_t>(k.edge_body)];
  return r;
}

Candidate localized(const Candidate& k, const World& w, int v, int e) {
  Candidate r = k;
  r.vertex = k.vertex + w.vertex_begin[static_cast<std::size_t>(v)];
  r.feature = k.feature + w.vertex_begin[static_cast<std::size_t>(e)];
  r.feature_end = k.feature_end + w.vertex_begin[static_cast<std::size_t>(e)];
  r.vertex_body = v;
  r.edge_body = e;
  return r;
}

bool holds_state(const ContactState& s) {
  static const ContactState none{};
  return std::memcmp(&s, &none, sizeof s) != 0;
}

void merge_runs(std::vector<Candidate>& keys, std::vector<ContactState>& states,
                const std::vector<std::size_t>& run_ends) {
  std::vector<SortKey> order(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) order[k] = sort_key(keys[k]);
  std::vector<std::uint32_t> index(keys.size());
  for (std::size_t k = 0; k < index.size(); ++k) index[k] = static_cast<std::uint32_t>(k);
  const auto before = [&](std::uint32_t a, std::uint32_t b) { return order[a] < order[b]; };
  std::vector<std::size_t> bounds{0};
  bounds.insert(bounds.end(), run_ends.begin(), run_ends.end());
  for (std::size_t width = 1; width + 1 < bounds.size(); width *= 2)
    for (std::size_t r = 0; r + width + 1 < bounds.size(); r += 2 * width)
      std::inplace_merge(index.begin() + static_cast<long>(bounds[r]),
                         index.begin() + static_cast<long>(bounds[r + width]),
                         index.begin() + static_cast<long>(bounds[std::min(r + 2 * width, bounds.size() - 1)]), before);
  std::vector<Candidate> sorted_keys(keys.size());
  std::vector<ContactState> sorted_states(keys.size());
  for (std::size_t k = 0; k < index.size(); ++k) sorted_keys[k] = keys[index[k]], sorted_states[k] = states[index[k]];
  keys = std::move(sorted_keys);
  states = std::move(sorted_states);
}

void CandidateStream::add(const Candidate& key, const ContactState& state) {
  keys.push_back(key);
  stated.push_back(holds_state(state));
  if (stated.back()) states.push_back(state);
}

}  // namespace sphero
