// Sharing the grains out over the ranks (DistributedEngine, docs/PARALLEL.md):
// the first decomposition from the whole world, each later one point to
// point, the engine made anew over the bodies a rank holds, and the whole
// state gathered on rank 0 for output.
#include <algorithm>
#include <array>
#include <cmath>

#include "engine/candidate_order.h"
#include "engine/world_subset.h"
#include "parallel/distributed_engine.h"
#include "parallel/zoltan_partition.h"

namespace sphero {
namespace {

// Zoltan's next owners of the bodies `bodies` of world w (ids: their
// whole-world numbers), each weighed by its share of a step's work: its
// vertices (placing them, the search) and the candidates it is home to
// (the contact pass). Bisection rather than the Hilbert curve: its boxes
// are compact, with fewer ghosts (docs/PARALLEL.md: 1.3x faster on two
// ranks).
std::vector<int> next_owners_of(const Ranks& ranks, const World& w, const std::vector<Candidate>& candidates,
                                const std::vector<std::size_t>& bodies, const std::vector<unsigned long>& ids) {
  std::vector<float> work(w.size(), 0.0f);
  for (std::size_t i = 0; i < w.size(); ++i) work[i] = static_cast<float>(w.vertex_count[i]);
  for (const Candidate& key : candidates) work[static_cast<std::size_t>(home_body(w, key.vertex_body, key.edge_body))] += 1.0f;
  std::vector<Vec2> points;
  std::vector<float> weights;
  for (std::size_t i : bodies) {
    points.push_back(w.position[i]);
    weights.push_back(work[i]);
  }
  return partition_bodies(ranks, ids, points, weights, "RCB");
}

}  // namespace

void DistributedEngine::decompose(const std::vector<int>& previous_owner, const EnergyLedger& ledger,
                                  const LedgerBooks& books, double time, long step) {
  const int me = ranks_.rank(), p = ranks_.size();
  std::vector<std::size_t> owned;
  std::vector<unsigned long> ids;
  for (std::size_t i = 0; i < whole_.size(); ++i)
    if (previous_owner[i] == me) owned.push_back(i), ids.push_back(i);
  const std::vector<int> parts = next_owners_of(ranks_, whole_, whole_keys_, owned, ids);
  std::vector<std::array<int, 2>> mine;
  for (std::size_t k = 0; k < ids.size(); ++k) mine.push_back({static_cast<int>(ids[k]), parts[k]});
  std::vector<char> bytes;
  append_bytes(bytes, mine);
  owner_.assign(whole_.size(), -1);
  for (const auto& [body, rank] : records_of<std::array<int, 2>>(ranks_.all_gather(bytes)))
    owner_[static_cast<std::size_t>(body)] = rank;

  boxes_ = subdomain_boxes(whole_, owner_, p);
  held_ = bodies_held_by(whole_, owner_, boxes_, me, margin_);
  start_engine(ledger, books, time, step);
}

// The engine over held_, from whole_ (current for the bodies held),
// whole_keys_ and whole_list_; the ghosts to send (the grains owned here
// within the margin of another rank's box) and to receive.
void DistributedEngine::start_engine(const EnergyLedger& ledger, const LedgerBooks& books, double time, long step) {
  const int me = ranks_.rank(), p = ranks_.size();
  std::vector<int> local_of(whole_.size(), -1);
  for (std::size_t k = 0; k < held_.size(); ++k) local_of[static_cast<std::size_t>(held_[k])] = static_cast<int>(k);
  send_.assign(static_cast<std::size_t>(p), {});
  receive_.assign(static_cast<std::size_t>(p), {});
  owned_count_ = 0;
  walls_.clear();
  free_walls_.clear();
  vibrating_walls_.clear();
  std::vector<std::uint8_t> counted(held_.size(), 0);
  double power = 0.0;
  for (std::size_t k = 0; k < held_.size(); ++k) {
    const auto b = static_cast<std::size_t>(held_[k]);
    if (owner_[b] >= 0 && owner_[b] != me) receive_[static_cast<std::size_t>(owner_[b])].push_back(static_cast<int>(k));
    if (owner_[b] == me)
      for (int q : holders_of(b))
        if (q != me) send_[static_cast<std::size_t>(q)].push_back(static_cast<int>(k));
    // Walls are held everywhere: booked by this class (walls_part), and
    // counted among the list's bodies on rank 0.
    if (owner_[b] == me) counted[k] = counts_energy | homes_contacts | counts_in_list;
    if (owner_[b] < 0 && ranks_.root()) counted[k] = counts_in_list;
    if (owner_[b] < 0) walls_.push_back(static_cast<int>(k));
    if (owner_[b] < 0 && !whole_.constraint[b].holds_all()) free_walls_.push_back(static_cast<int>(k));
    if (owner_[b] < 0 && whole_.constraint[b].vibration.on()) vibrating_walls_.push_back(static_cast<int>(k));
    if (owner_[b] == me) ++owned_count_;
    if (counted[k] & counts_energy) power += constraint_power_of(whole_, b);
  }

  World local = world_subset(whole_, held_);
  update_world_vertices(local);
  NeighbourListState list = list_part(local, local_of);
  reference_position_ = local.position;
  reference_angle_ = local.angle;
  EngineSnapshot s{std::move(local), settings_, std::move(list), ledger, time, step, power, {}, {}, {}, 0.0, 0.0, books};
  if (settings_.integrator == Integrator::gear) split_history(values_of(whole_history_, held_), s);
  engine_ = std::make_unique<Engine>(std::move(s));
  engine_->count_only(std::move(counted), held_);
  engine_->agree_lists_with(agreement_.get());
  // Gear corrects a free wall with the forces of every rank's contacts on it.
  if (settings_.integrator == Integrator::gear && !free_walls_.empty())
    engine_->complete_shared_forces_with([this] { settle_wall_forces(); });
  ++decompositions_;
}

// The whole list's part among the bodies held here (local, local_of: the
// held bodies' world and their index in it): every candidate of an own
// grain is there (its partner is within the ghost margin), so the list
// goes on as the serial one does. The counts that only sum up (half-skin
// candidates, body pairs) start on rank 0.
NeighbourListState DistributedEngine::list_part(const World& local, const std::vector<int>& local_of) const {
  NeighbourListState list = whole_list_;
  for (std::size_t k = 0; k < whole_keys_.size(); ++k) {
    const Candidate& key = whole_keys_[k];
    const int v = local_of[static_cast<std::size_t>(key.vertex_body)], e = local_of[static_cast<std::size_t>(key.edge_body)];
    if (v < 0 || e < 0) continue;
    Contact c = record_of_key(renumbered(key, whole_, local, v, e));
    c.sliding = key.sliding;
    set_state(c, whole_states_[k]);
    list.contacts.push_back(c);
  }
  list.reference_position = values_of(whole_list_.reference_position, held_);
  list.reference_angle = values_of(whole_list_.reference_angle, held_);
  list.wraps = values_of(whole_list_.wraps, held_);
  if (!ranks_.root()) {
    if (std::isfinite(list.listed_at_half_skin)) list.listed_at_half_skin = 0.0;
    list.stats.body_pairs = 0;
  }
  return list;
}

// The ranks that hold body b (a grain, at its position in whole_): every
// rank whose box it comes within the margin of, its owner's among them.
std::vector<int> DistributedEngine::holders_of(std::size_t b) const {
  std::vector<int> holders;
  for (int q = 0; q < ranks_.size(); ++q)
    if (owner_[b] == q || periodic_gap(whole_, boxes_[static_cast<std::size_t>(q)], whole_.position[b], whole_.bounding_radius[b]) <= margin_)
      holders.push_back(q);
  return holders;
}

// A grain's motion and what the list keeps of it, for the ranks that will
// hold it (owner: its rank from now on).
OwnedBody DistributedEngine::record_of(std::size_t k, int owner) const {
  const World& w = engine_->world();
  const NeighbourList& list = engine_->neighbour_list();
  return {held_[k], owner, motion_of(w, k),
          list.reference_positions().empty() ? w.position[k] : list.reference_positions()[k],
          list.reference_angles().empty() ? w.angle[k] : list.reference_angles()[k],
          list.wraps().empty() ? std::array<int, 2>{0, 0} : list.wraps()[k], engine_->history_of(k)};
}

void DistributedEngine::take_record(const OwnedBody& o) {
  const auto b = static_cast<std::size_t>(o.body);
  set_motion(whole_, b, o.motion);
  owner_[b] = o.owner;
  whole_list_.reference_position[b] = o.reference_position;
  whole_list_.reference_angle[b] = o.reference_angle;
  whole_list_.wraps[b] = o.wraps;
  whole_history_[b] = o.history;
}

// The walls (the same on every rank) and the list's scalars from this
// rank's engine into whole_ and whole_list_; the counts that add up over
// the ranks added up.
void DistributedEngine::take_walls_and_list_scalars() {
  const World& w = engine_->world();
  const NeighbourList& list = engine_->neighbour_list();
  for (int k : walls_) {
    const OwnedBody o = record_of(static_cast<std::size_t>(k), -1);
    take_record(o);
    whole_.constraint[static_cast<std::size_t>(o.body)] = w.constraint[static_cast<std::size_t>(k)];
  }
  const std::vector<double> totals = ranks_.sum(std::vector<double>{list.listed_at_half_skin(), static_cast<double>(list.stats().body_pairs)});
  whole_list_.listed_at_half_skin = totals[0];
  whole_list_.stats = list.stats();
  whole_list_.stats.body_pairs = static_cast<std::size_t>(totals[1]);
  whole_list_.built = list.built();
  whole_list_.verlet_distance = list.verlet_distance();
  whole_list_.steps_since_rebuild = list.steps_since_rebuild();
  deepest_overlap_ = std::max(deepest_overlap_, engine_->deepest_overlap());
  if (deepest_overlap_ == engine_->deepest_overlap()) deepest_overlap_time_ = engine_->deepest_overlap_time();
}



// Streams from every rank (each in canonical order) into whole_keys_ and
// whole_states_, merged.
void DistributedEngine::take_candidate_streams(const std::vector<CandidateStream>& streams) {
  whole_keys_.clear();
  whole_states_.clear();
  std::vector<std::size_t> run_ends;
  for (const CandidateStream& stream : streams) {
    std::size_t next = 0;
    for (std::size_t k = 0; k < stream.keys.size(); ++k) {
      whole_keys_.push_back(stream.keys[k]);
      whole_states_.push_back(stream.stated[k] ? stream.states[next++] : ContactState{});
    }
    run_ends.push_back(whole_keys_.size());
  }
  merge_runs(whole_keys_, whole_states_, run_ends);
}

// Every rank's grains and the candidates they are home to, on rank 0 (for
// frames and checkpoints): whole_ and the whole list there.
void DistributedEngine::collect_on_root() {
  const World& w = engine_->world();
  const NeighbourList& list = engine_->neighbour_list();
  std::vector<OwnedBody> mine;
  mine.reserve(owned_count_);
  CandidateStream homed;
  for (std::size_t k = 0; k < held_.size(); ++k)
    if (owner_[static_cast<std::size_t>(held_[k])] == ranks_.rank()) mine.push_back(record_of(k, ranks_.rank()));
  for (std::size_t k = 0; k < list.candidates().size(); ++k) {
    const Candidate& key = list.candidates()[k];
    const auto home = static_cast<std::size_t>(home_body(w, key.vertex_body, key.edge_body));
    if (owner_[static_cast<std::size_t>(held_[home])] != ranks_.rank()) continue;
    homed.add(renumbered(key, w, whole_, held_[static_cast<std::size_t>(key.vertex_body)],
                         held_[static_cast<std::size_t>(key.edge_body)]),
              list.states()[k]);
  }
  std::vector<char> bodies, keys, stated, states, counts;
  append_bytes(bodies, mine);
  append_bytes(keys, homed.keys);
  append_bytes(stated, homed.stated);
  append_bytes(states, homed.states);
  append_bytes(counts, std::vector<std::size_t>{homed.keys.size(), homed.states.size()});
  const std::vector<OwnedBody> all_bodies = records_of<OwnedBody>(ranks_.gather(bodies));
  const std::vector<Candidate> all_keys = records_of<Candidate>(ranks_.gather(keys));
  const std::vector<std::uint8_t> all_stated = records_of<std::uint8_t>(ranks_.gather(stated));
  const std::vector<ContactState> all_states = records_of<ContactState>(ranks_.gather(states));
  const std::vector<std::size_t> all_counts = records_of<std::size_t>(ranks_.gather(counts));
  take_walls_and_list_scalars();
  if (!ranks_.root()) return;
  for (const OwnedBody& o : all_bodies) take_record(o);
  std::vector<CandidateStream> streams(static_cast<std::size_t>(ranks_.size()));
  std::size_t key_at = 0, state_at = 0;
  for (std::size_t r = 0; r < streams.size(); ++r) {
    const std::size_t n = all_counts[2 * r], m = all_counts[2 * r + 1];
    streams[r].keys.assign(all_keys.begin() + static_cast<long>(key_at), all_keys.begin() + static_cast<long>(key_at + n));
    streams[r].stated.assign(all_stated.begin() + static_cast<long>(key_at), all_stated.begin() + static_cast<long>(key_at + n));
    streams[r].states.assign(all_states.begin() + static_cast<long>(state_at), all_states.begin() + static_cast<long>(state_at + m));
    key_at += n, state_at += m;
  }
  take_candidate_streams(streams);
}

// Sharing out again, point to point: Zoltan cuts anew from the present
// owners; the boxes of the new subdomains are agreed; each owner sends
// each of its grains, with its list reference and wraps, to the ranks that
// will hold it, and each candidate its grains are home to to the ranks
// that will hold both its bodies. Where a rank holds a body is geometry
// (periodic_gap against the boxes), so every rank works it out alike.
// Every rank's next box, from where the grains owned here go.
void DistributedEngine::agree_on_boxes(const std::vector<std::size_t>& owned, const std::vector<int>& parts) {
  const World& w = engine_->world();
  const auto p = static_cast<std::size_t>(ranks_.size());
  std::vector<double> low(2 * p, 1e300), high(2 * p, -1e300);
  for (std::size_t j = 0; j < owned.size(); ++j) {
    SubdomainBox box;
    box.add(w.position[owned[j]], w.bounding_radius[owned[j]]);
    const auto q = 2 * static_cast<std::size_t>(parts[j]);
    low[q] = std::min(low[q], box.low.x), low[q + 1] = std::min(low[q + 1], box.low.y);
    high[q] = std::max(high[q], box.high.x), high[q + 1] = std::max(high[q + 1], box.high.y);
  }
  low = ranks_.min(low);
  high = ranks_.max(high);
  for (std::size_t q = 0; q < p; ++q) boxes_[q] = {{low[2 * q], low[2 * q + 1]}, {high[2 * q], high[2 * q + 1]}};
}

void DistributedEngine::share_out() {
  const World& w = engine_->world();
  const NeighbourList& list = engine_->neighbour_list();
  const int me = ranks_.rank(), p = ranks_.size();
  std::vector<std::size_t> owned;
  std::vector<std::uint8_t> owned_here(held_.size(), 0);
  for (std::size_t k = 0; k < held_.size(); ++k)
    if (owner_[static_cast<std::size_t>(held_[k])] == me) owned.push_back(k), owned_here[k] = 1;
  std::vector<unsigned long> ids;
  for (std::size_t k : owned) ids.push_back(static_cast<unsigned long>(held_[k]));
  const std::vector<int> parts = next_owners_of(ranks_, w, list.candidates(), owned, ids);
  agree_on_boxes(owned, parts);
  // Every held grain's holders from now on, at its position here (exact:
  // a ghost stands where its owner puts it).
  for (std::size_t k = 0; k < held_.size(); ++k) set_motion(whole_, static_cast<std::size_t>(held_[k]), motion_of(w, k));
  for (std::size_t j = 0; j < owned.size(); ++j) owner_[static_cast<std::size_t>(held_[owned[j]])] = parts[j];
  std::vector<std::vector<int>> holders(held_.size());
  std::vector<int> everyone(static_cast<std::size_t>(p));
  for (int q = 0; q < p; ++q) everyone[static_cast<std::size_t>(q)] = q;
  for (std::size_t k = 0; k < held_.size(); ++k) {
    const auto b = static_cast<std::size_t>(held_[k]);
    holders[k] = whole_.is_wall[b] ? everyone : holders_of(b);
  }
  // A ghost's owner may have changed where this rank cannot see it; its
  // holders are the geometry's whatever its owner, which is all a
  // candidate's routing needs.
  std::vector<std::vector<OwnedBody>> bodies_to(static_cast<std::size_t>(p));
  for (std::size_t j = 0; j < owned.size(); ++j)
    for (int q : holders[owned[j]]) bodies_to[static_cast<std::size_t>(q)].push_back(record_of(owned[j], parts[j]));
  std::vector<CandidateStream> candidates_to(static_cast<std::size_t>(p));
  for (std::size_t k = 0; k < list.candidates().size(); ++k) {
    const Candidate& key = list.candidates()[k];
    const auto home = static_cast<std::size_t>(home_body(w, key.vertex_body, key.edge_body));
    if (!owned_here[home]) continue;
    const auto other = static_cast<std::size_t>(home == static_cast<std::size_t>(key.vertex_body) ? key.edge_body : key.vertex_body);
    const Candidate whole_key = renumbered(key, w, whole_, held_[static_cast<std::size_t>(key.vertex_body)],
                                           held_[static_cast<std::size_t>(key.edge_body)]);
    for (int q : holders[home])
      if (std::binary_search(holders[other].begin(), holders[other].end(), q))
        candidates_to[static_cast<std::size_t>(q)].add(whole_key, list.states()[k]);
  }
  take_walls_and_list_scalars();
  const EnergyLedger ledger = engine_->running_ledger();
  const LedgerBooks books = engine_->books();
  const double time = engine_->time();
  const long step = engine_->step_count();
  receive_shares(bodies_to, candidates_to);
  start_engine(ledger, books, time, step);
}

// What share_out sends, exchanged: held_ becomes the walls and the grains
// received, whole_ and whole_list_ take their records, whole_keys_ the
// candidates.
void DistributedEngine::receive_shares(const std::vector<std::vector<OwnedBody>>& bodies_to,
                                       const std::vector<CandidateStream>& candidates_to) {
  const auto p = static_cast<std::size_t>(ranks_.size());
  std::vector<std::vector<char>> bodies(p), keys(p), stated(p), states(p);
  for (std::size_t q = 0; q < p; ++q) {
    append_bytes(bodies[q], bodies_to[q]);
    append_bytes(keys[q], candidates_to[q].keys);
    append_bytes(stated[q], candidates_to[q].stated);
    append_bytes(states[q], candidates_to[q].states);
  }
  const std::vector<std::vector<char>> bodies_in = ranks_.exchange(bodies), keys_in = ranks_.exchange(keys),
                                       stated_in = ranks_.exchange(stated), states_in = ranks_.exchange(states);
  std::vector<int> held;
  for (int b : held_)
    if (whole_.is_wall[static_cast<std::size_t>(b)]) held.push_back(b);
    else owner_[static_cast<std::size_t>(b)] = -2;  // not known here until received again
  for (std::size_t q = 0; q < p; ++q)
    for (const OwnedBody& o : records_of<OwnedBody>(bodies_in[q])) {
      take_record(o);
      held.push_back(o.body);
    }
  std::sort(held.begin(), held.end());
  held_ = std::move(held);
  std::vector<CandidateStream> streams(p);
  for (std::size_t q = 0; q < p; ++q) {
    streams[q].keys = records_of<Candidate>(keys_in[q]);
    streams[q].stated = records_of<std::uint8_t>(stated_in[q]);
    streams[q].states = records_of<ContactState>(states_in[q]);
  }
  take_candidate_streams(streams);
}

}  // namespace sphero
