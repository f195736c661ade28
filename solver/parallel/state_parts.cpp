#include "parallel/state_parts.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/candidate_order.h"
#include "engine/contact_geometry.h"
#include "engine/engine_core.h"
#include "parallel/byte_records.h"

namespace sphero {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("the parts of the state " + what); }

// Every body numbered 0 to N − 1 once.
void check_numbering(const std::vector<BodyRecord>& records) {
  for (std::size_t k = 0; k < records.size(); ++k) {
    const int body = records[k].facts.owned.body;
    if (body < static_cast<int>(k)) refuse("hold body " + std::to_string(body) + " twice");
    if (body > static_cast<int>(k)) refuse("lack body " + std::to_string(k));
  }
}

// A portable candidate of the whole world w: its bodies there, its vertex
// and features within them.
void check_candidate(const Candidate& key, const World& w) {
  const auto bodies = static_cast<int>(w.size());
  if (key.vertex_body < 0 || key.vertex_body >= bodies || key.edge_body < 0 || key.edge_body >= bodies)
    refuse("name a candidate of a body that is not there");
  const int vertices = w.vertex_count[static_cast<std::size_t>(key.vertex_body)];
  const int edge_vertices = w.vertex_count[static_cast<std::size_t>(key.edge_body)];
  const auto within = [](int k, int n) { return k >= 0 && k < n; };
  if (!within(key.vertex, vertices) || !within(key.feature, edge_vertices) || !within(key.feature_end, edge_vertices))
    refuse("name a vertex of a candidate beyond its body's");
  if (key.kind != ContactKind::vertex_edge && key.kind != ContactKind::vertex_vertex)
    refuse("hold an unknown kind of contact");
}

// One part's candidates after those of the parts before (`keys`, `states`),
// checked against the world and in canonical order.
void append_stream(const CandidateStream& stream, const World& w, std::vector<Candidate>& keys,
                   std::vector<ContactState>& states) {
  const auto stated = static_cast<std::size_t>(
      std::count_if(stream.stated.begin(), stream.stated.end(), [](std::uint8_t s) { return s != 0; }));
  if (stream.stated.size() != stream.keys.size() || stated != stream.states.size())
    refuse("hold contact states that do not match their candidates");
  std::size_t next = 0;
  for (std::size_t k = 0; k < stream.keys.size(); ++k) {
    const Candidate& key = stream.keys[k];
    check_candidate(key, w);
    if (k > 0 && !(sort_key(stream.keys[k - 1]) < sort_key(key)))
      refuse("hold candidates out of their canonical order");
    keys.push_back(key);
    states.push_back(stream.stated[k] ? stream.states[next++] : ContactState{});
  }
}

// The parts' bodies into s (whose world holds the laws and fields only),
// with their list references; returns their integrator histories.
std::vector<Stepper::BodyHistory> take_bodies(EngineSnapshot& s, std::vector<StatePart>& parts) {
  std::vector<BodyRecord> records;
  for (StatePart& part : parts) {
    for (BodyRecord& r : part.bodies) records.push_back(std::move(r));
    release(part.bodies);
  }
  std::sort(records.begin(), records.end(),
            [](const BodyRecord& a, const BodyRecord& b) { return a.facts.owned.body < b.facts.owned.body; });
  check_numbering(records);
  s.world = world_of_records(records, s.world);
  update_world_vertices(s.world);
  NeighbourListState& list = s.neighbours;
  std::vector<Stepper::BodyHistory> history;
  for (const BodyRecord& r : records) {
    list.reference_position.push_back(r.facts.owned.reference_position);
    list.reference_angle.push_back(r.facts.owned.reference_angle);
    list.wraps.push_back(r.facts.owned.wraps);
    history.push_back(r.facts.owned.history);
  }
  return history;
}

// The parts' candidates, merged into the canonical order, as s's list.
void take_candidates(EngineSnapshot& s, std::vector<StatePart>& parts) {
  const World& w = s.world;
  std::vector<Candidate> keys;
  std::vector<ContactState> states;
  std::vector<std::size_t> run_ends;
  for (StatePart& part : parts) {
    append_stream(part.candidates, w, keys, states);
    part.candidates = CandidateStream{};
    run_ends.push_back(keys.size());
  }
  merge_runs(keys, states, run_ends);
  for (Candidate& key : keys) key = localized(key, w, key.vertex_body, key.edge_body);
  NeighbourList whole_list(neighbour_settings(s.settings), std::move(s.neighbours), w);
  whole_list.adopt(std::move(keys), std::move(states));
  s.neighbours = whole_list.state(w);
}

}  // namespace

void split_history(const std::vector<Stepper::BodyHistory>& per_body, EngineSnapshot& s) {
  s.r2.resize(per_body.size()), s.r3.resize(per_body.size()), s.r4.resize(per_body.size());
  for (std::size_t i = 0; i < per_body.size(); ++i) {
    const Stepper::BodyHistory& h = per_body[i];
    s.r2[i] = {h[0], h[1], h[2]}, s.r3[i] = {h[3], h[4], h[5]}, s.r4[i] = {h[6], h[7], h[8]};
  }
}

std::vector<Stepper::BodyHistory> joined_history(const EngineSnapshot& s, std::size_t bodies) {
  std::vector<Stepper::BodyHistory> per_body(bodies, Stepper::BodyHistory{});
  for (std::size_t i = 0; i < std::min(per_body.size(), s.r2.size()); ++i)
    per_body[i] = {
        s.r2[i][0], s.r2[i][1], s.r2[i][2], s.r3[i][0], s.r3[i][1], s.r3[i][2], s.r4[i][0], s.r4[i][1], s.r4[i][2]};
  return per_body;
}

EngineSnapshot assemble_state(EngineSnapshot header, std::vector<StatePart> parts,
                              const std::function<void(const EngineSnapshot&)>& check) {
  const std::vector<Stepper::BodyHistory> history = take_bodies(header, parts);
  if (check) check(header);
  take_candidates(header, parts);
  if (header.settings.integrator == Integrator::gear) split_history(history, header);
  return header;
}

EngineSnapshot header_of(const EngineSnapshot& whole) {
  EngineSnapshot header{world_of_shared(shared_bytes(whole.world)),
                        whole.settings,
                        {},
                        whole.ledger,
                        whole.time,
                        whole.step,
                        whole.power,
                        {},
                        {},
                        {},
                        whole.deepest_overlap,
                        whole.deepest_overlap_time,
                        whole.books,
                        whole.lineage,
                        whole.body_steps};
  ListScalars::of(whole.neighbours).set_in(header.neighbours);
  return header;
}

std::vector<StatePart> cut_into_parts(const EngineSnapshot& whole, const std::vector<int>& part_of_body, int parts) {
  const World& w = whole.world;
  const NeighbourListState& list = whole.neighbours;
  const bool referenced = list.reference_position.size() == w.size();
  std::vector<int> numbers(w.size());
  std::iota(numbers.begin(), numbers.end(), 0);
  const std::vector<Stepper::BodyHistory> history = joined_history(whole, w.size());
  std::vector<StatePart> out(static_cast<std::size_t>(parts));
  for (std::size_t i = 0; i < w.size(); ++i) {
    const OwnedBody owned{static_cast<int>(i),
                          part_of_body[i],
                          motion_of(w, i),
                          referenced ? list.reference_position[i] : w.position[i],
                          referenced ? list.reference_angle[i] : w.angle[i],
                          i < list.wraps.size() ? list.wraps[i] : std::array<int, 2>{0, 0},
                          history[i]};
    out[static_cast<std::size_t>(part_of_body[i])].bodies.push_back(body_record(w, i, numbers, owned));
  }
  for (const Contact& c : list.contacts) {
    const int home = home_body(w, c.vertex_body, c.edge_body);
    out[static_cast<std::size_t>(part_of_body[static_cast<std::size_t>(home)])].candidates.add(
        portable(packed(w, c), w, numbers), state_of(c));
  }
  return out;
}

}  // namespace sphero
