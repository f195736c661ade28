// Sharing the grains out over the ranks (DistributedEngine, docs/PARALLEL.md):
// the first sharing out from rank 0's whole state, each later one point to
// point, and the engine made anew over the bodies a rank holds.
#include <algorithm>
#include <array>
#include <cmath>

#include "engine/candidate_order.h"
#include "engine/engine_part.h"
#include "parallel/distributed_engine.h"
#include "parallel/zoltan_partition.h"

namespace sphero {
namespace {

// Zoltan's next owners of the bodies `bodies` of world w (ids: their
// numbers in the run), each weighed by its share of a step's work: its
// vertices (placing them, the search) and the candidates it is home to
// (the contact pass). Bisection rather than the Hilbert curve: its boxes
// are compact, with fewer ghosts to exchange each step (docs/PARALLEL.md
// compares the two).
std::vector<int> next_owners_of(const Ranks& ranks, const World& w, const std::vector<Candidate>& candidates,
                                const std::vector<std::size_t>& bodies, const std::vector<unsigned long>& ids) {
  std::vector<float> work(w.size(), 0.0f);
  for (std::size_t i = 0; i < w.size(); ++i) work[i] = static_cast<float>(w.vertex_count[i]);
  for (const Candidate& key : candidates)
    work[static_cast<std::size_t>(home_body(w, key.vertex_body, key.edge_body))] += 1.0f;
  std::vector<Vec2> points;
  std::vector<float> weights;
  for (std::size_t i : bodies) {
    points.push_back(w.position[i]);
    weights.push_back(work[i]);
  }
  return partition_bodies(ranks, ids, points, weights, "RCB");
}

}  // namespace

// Sharing out: Zoltan cuts anew from the present owners; the boxes of the
// new subdomains are agreed; each owner packs each of its grains, whole,
// for the ranks that will hold it, and each candidate its grains are home
// to for the ranks that will hold both its bodies. Where a rank holds a
// body is geometry (periodic_gap against the boxes), so every rank works
// it out alike. At the first sharing out rank 0 packs the walls for every
// rank too.
DistributedEngine::Parcels DistributedEngine::pack(const Sharing& from) {
  const int me = ranks_.rank(), p = ranks_.size();
  const World& w = from.world;
  const bool first = decompositions_ == 0;
  std::vector<std::size_t> owned;
  std::vector<unsigned long> ids;
  for (std::size_t k = 0; k < w.size(); ++k)
    if (from.owner[k] == me) owned.push_back(k), ids.push_back(static_cast<unsigned long>(from.numbers[k]));
  const std::vector<int> parts = next_owners_of(ranks_, w, from.candidates, owned, ids);
  agree_on_boxes(w, owned, parts);
  std::vector<int> next_owner = from.owner;
  for (std::size_t j = 0; j < owned.size(); ++j) next_owner[owned[j]] = parts[j];
  std::vector<int> everyone(static_cast<std::size_t>(p));
  for (int q = 0; q < p; ++q) everyone[static_cast<std::size_t>(q)] = q;
  // A ghost's owner may have changed where this rank cannot see it; its
  // holders are the geometry's whatever its owner, which is all a
  // candidate's routing needs.
  std::vector<std::vector<int>> holders(w.size());
  for (std::size_t k = 0; k < w.size(); ++k) holders[k] = w.is_wall[k] ? everyone : holders_of(w, k, next_owner[k]);
  Parcels out{std::vector<std::vector<char>>(static_cast<std::size_t>(p)), {}, {}, {}};
  for (std::size_t k = 0; k < w.size(); ++k) {
    if (from.owner[k] != me && !(first && w.is_wall[k])) continue;
    const BodyRecord record = body_record(w, k, from.numbers, from.record(k, next_owner[k]));
    for (int q : holders[k]) append_record(out.bodies[static_cast<std::size_t>(q)], record);
  }
  std::vector<CandidateStream> candidates_to(static_cast<std::size_t>(p));
  for (std::size_t k = 0; k < from.candidates.size(); ++k) {
    const Candidate& key = from.candidates[k];
    const auto home = static_cast<std::size_t>(home_body(w, key.vertex_body, key.edge_body));
    if (from.owner[home] != me) continue;
    const auto other =
        static_cast<std::size_t>(home == static_cast<std::size_t>(key.vertex_body) ? key.edge_body : key.vertex_body);
    const Candidate portable_key = portable(key, w, from.numbers);
    for (int q : holders[home])
      if (std::binary_search(holders[other].begin(), holders[other].end(), q))
        candidates_to[static_cast<std::size_t>(q)].add(portable_key, from.states[k]);
  }
  for (CandidateStream& stream : candidates_to) {
    out.keys.emplace_back(), out.stated.emplace_back(), out.states.emplace_back();
    append_bytes(out.keys.back(), stream.keys);
    append_bytes(out.stated.back(), stream.stated);
    append_bytes(out.states.back(), stream.states);
    stream = CandidateStream{};
  }
  return out;
}

// The parcels exchanged; the engine made anew over the bodies received and
// `kept` (the walls a rank keeps), with the laws of `shared`.
void DistributedEngine::unpack(Parcels parcels, std::vector<BodyRecord> kept, const World& shared,
                               const EnergyLedger& ledger, const LedgerBooks& books, double time, long step) {
  const std::vector<std::vector<char>> keys_in = ranks_.exchange(std::move(parcels.keys)),
                                       stated_in = ranks_.exchange(std::move(parcels.stated)),
                                       states_in = ranks_.exchange(std::move(parcels.states));
  std::vector<CandidateStream> streams(keys_in.size());
  for (std::size_t q = 0; q < streams.size(); ++q) {
    streams[q].keys = records_of<Candidate>(keys_in[q]);
    streams[q].stated = records_of<std::uint8_t>(stated_in[q]);
    streams[q].states = records_of<ContactState>(states_in[q]);
  }
  take_candidate_streams(streams);
  release(streams);
  for (const std::vector<char>& in : ranks_.exchange(std::move(parcels.bodies)))
    for (BodyRecord& r : body_records_of(in)) kept.push_back(std::move(r));
  std::sort(kept.begin(), kept.end(),
            [](const BodyRecord& a, const BodyRecord& b) { return a.facts.owned.body < b.facts.owned.body; });
  start_engine(std::move(kept), shared, ledger, books, time, step);
}

// The engine over the bodies of `records` (every body this rank is to
// hold, in increasing order of their numbers), with the candidates of
// keys_; the ghosts to send (the grains owned here within the margin of
// another rank's box) and to receive.
void DistributedEngine::start_engine(std::vector<BodyRecord> records, const World& shared, const EnergyLedger& ledger,
                                     const LedgerBooks& books, double time, long step) {
  const int me = ranks_.rank(), p = ranks_.size();
  World local = world_of_records(records, shared);
  update_world_vertices(local);
  held_.clear();
  owner_.clear();
  for (const BodyRecord& r : records) held_.push_back(r.facts.owned.body), owner_.push_back(r.facts.owned.owner);
  send_.assign(static_cast<std::size_t>(p), {});
  receive_.assign(static_cast<std::size_t>(p), {});
  owned_count_ = 0;
  walls_.clear();
  free_walls_.clear();
  vibrating_walls_.clear();
  std::vector<std::uint8_t> counted(held_.size(), 0);
  double power = 0.0;
  for (std::size_t k = 0; k < held_.size(); ++k) {
    const int owner = owner_[k];
    if (owner >= 0 && owner != me) receive_[static_cast<std::size_t>(owner)].push_back(static_cast<int>(k));
    if (owner == me)
      for (int q : holders_of(local, k, me))
        if (q != me) send_[static_cast<std::size_t>(q)].push_back(static_cast<int>(k));
    // Walls are held everywhere: booked by this class (walls_part), and
    // counted among the list's bodies on rank 0.
    if (owner == me) counted[k] = counts_energy | homes_contacts | counts_in_list;
    if (owner < 0 && ranks_.root()) counted[k] = counts_in_list;
    if (owner < 0) walls_.push_back(static_cast<int>(k));
    if (owner < 0 && !local.constraint[k].holds_all()) free_walls_.push_back(static_cast<int>(k));
    if (owner < 0 && local.constraint[k].vibration.on()) vibrating_walls_.push_back(static_cast<int>(k));
    if (owner == me) ++owned_count_;
    if (counted[k] & counts_energy) power += constraint_power_of(local, k);
  }
  NeighbourListState list = list_part(local, records);
  release(keys_);
  release(key_states_);
  reference_position_ = local.position;
  reference_angle_ = local.angle;
  std::vector<Stepper::BodyHistory> history;
  if (settings_.integrator == Integrator::gear)
    for (const BodyRecord& r : records) history.push_back(r.facts.owned.history);
  release(records);
  EngineSnapshot s{
      std::move(local), settings_, std::move(list), ledger, time, step, power, {}, {}, {}, 0.0, 0.0, books, {}};
  if (settings_.integrator == Integrator::gear) split_history(history, s);
  engine_ = std::make_unique<Engine>(std::move(s));
  // The thinnest grain of the whole world bounds a plate's step on every rank.
  EnginePart(*engine_).set_wall_step_bound(ranks_.min(EnginePart(*engine_).wall_step_bound()));
  EnginePart(*engine_).count_only(std::move(counted), held_);
  EnginePart(*engine_).agree_lists_with(agreement_.get());
  // Gear corrects a free wall with the forces of every rank's contacts on it.
  if (settings_.integrator == Integrator::gear && !free_walls_.empty())
    EnginePart(*engine_).complete_shared_forces_with([this] { settle_wall_forces(); });
  ++decompositions_;
}

// The whole list's part among the bodies held here: every candidate of an
// own grain is there (its partner is within the ghost margin), so the list
// goes on as the serial one does. The counts that only sum up (half-skin
// candidates, body pairs, the work counters) start on rank 0.
NeighbourListState DistributedEngine::list_part(const World& local, const std::vector<BodyRecord>& records) const {
  NeighbourListState list;
  list_scalars_.set_in(list);
  list.contacts.reserve(keys_.size());
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    const Candidate& key = keys_[k];
    const int v = index_of_number(held_, key.vertex_body), e = index_of_number(held_, key.edge_body);
    if (v < 0 || e < 0) continue;
    Contact c = record_of_key(localized(key, local, v, e));
    c.sliding = key.sliding;
    set_state(c, key_states_[k]);
    list.contacts.push_back(c);
  }
  for (const BodyRecord& r : records) {
    list.reference_position.push_back(r.facts.owned.reference_position);
    list.reference_angle.push_back(r.facts.owned.reference_angle);
    list.wraps.push_back(r.facts.owned.wraps);
  }
  if (!ranks_.root()) {
    if (std::isfinite(list.listed_at_half_skin)) list.listed_at_half_skin = 0.0;
    list.stats.body_pairs = 0;
    list.stats.feature_pairs_evaluated = 0;
    list.stats.link_cells = 0;
  }
  return list;
}

// The ranks that will hold body k of w: its owner's, and every rank whose
// box it comes within the margin of.
std::vector<int> DistributedEngine::holders_of(const World& w, std::size_t k, int owner) const {
  std::vector<int> holders;
  for (int q = 0; q < ranks_.size(); ++q)
    if (owner == q ||
        periodic_gap(w, boxes_[static_cast<std::size_t>(q)], w.position[k], w.bounding_radius[k]) <= margin_)
      holders.push_back(q);
  return holders;
}

// A held body's motion and what the list keeps of it, for the ranks that
// will hold it (owner: its rank from now on).
OwnedBody DistributedEngine::record_of(std::size_t k, int owner) const {
  const World& w = engine_->world();
  const NeighbourList& list = engine_->neighbour_list();
  return {held_[k],
          owner,
          motion_of(w, k),
          list.reference_positions().empty() ? w.position[k] : list.reference_positions()[k],
          list.reference_angles().empty() ? w.angle[k] : list.reference_angles()[k],
          list.wraps().empty() ? std::array<int, 2>{0, 0} : list.wraps()[k],
          EnginePart(*engine_).history_of(k)};
}

// The list's scalars from this rank's engine, the counts that add up over
// the ranks added up, and the deepest overlap so far. The work counters
// (feature pairs evaluated, link cells) count every rank's work: more than
// a serial run's, by the ghosts' share.
void DistributedEngine::take_list_scalars() {
  const NeighbourList& list = engine_->neighbour_list();
  const NeighbourStats& stats = list.stats();
  const std::vector<double> totals = ranks_.sum(
      std::vector<double>{list.listed_at_half_skin(), static_cast<double>(stats.body_pairs),
                          static_cast<double>(stats.feature_pairs_evaluated), static_cast<double>(stats.link_cells)});
  list_scalars_.listed_at_half_skin = totals[0];
  list_scalars_.stats = stats;
  list_scalars_.stats.body_pairs = static_cast<std::size_t>(totals[1]);
  list_scalars_.stats.feature_pairs_evaluated = static_cast<long>(totals[2]);
  list_scalars_.stats.link_cells = static_cast<std::size_t>(totals[3]);
  list_scalars_.built = list.built();
  list_scalars_.verlet_distance = list.verlet_distance();
  list_scalars_.steps_since_rebuild = list.steps_since_rebuild();
  deepest_overlap_ = std::max(deepest_overlap_, engine_->deepest_overlap());
  if (deepest_overlap_ == engine_->deepest_overlap()) deepest_overlap_time_ = engine_->deepest_overlap_time();
}

// Streams from every rank (each in canonical order) into keys_ and
// key_states_, merged.
void DistributedEngine::take_candidate_streams(const std::vector<CandidateStream>& streams) {
  keys_.clear();
  key_states_.clear();
  std::vector<std::size_t> run_ends;
  for (const CandidateStream& stream : streams) {
    std::size_t next = 0;
    for (std::size_t k = 0; k < stream.keys.size(); ++k) {
      keys_.push_back(stream.keys[k]);
      key_states_.push_back(stream.stated[k] ? stream.states[next++] : ContactState{});
    }
    run_ends.push_back(keys_.size());
  }
  merge_runs(keys_, key_states_, run_ends);
}

// Every rank's next box, from where the grains owned here (bodies `owned`
// of w) go.
void DistributedEngine::agree_on_boxes(const World& w, const std::vector<std::size_t>& owned,
                                       const std::vector<int>& parts) {
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
  boxes_.assign(p, {});
  for (std::size_t q = 0; q < p; ++q) boxes_[q] = {{low[2 * q], low[2 * q + 1]}, {high[2 * q], high[2 * q + 1]}};
}

// Sharing out again, from this rank's engine, which goes before the next
// is made: each rank keeps its walls.
void DistributedEngine::share_out() {
  take_list_scalars();
  const World& w = engine_->world();
  const NeighbourList& list = engine_->neighbour_list();
  std::vector<BodyRecord> walls;
  for (int k : walls_)
    walls.push_back(body_record(w, static_cast<std::size_t>(k), held_, record_of(static_cast<std::size_t>(k), -1)));
  const Sharing from{w,
                     held_,
                     owner_,
                     list.candidates(),
                     list.states(),
                     [this](std::size_t k, int owner) { return record_of(k, owner); }};
  Parcels parcels = pack(from);
  const World shared = world_of_shared(shared_bytes(w));
  const EnergyLedger ledger = EnginePart(*engine_).running_ledger();
  const LedgerBooks books = EnginePart(*engine_).books();
  const double time = engine_->time();
  const long step = engine_->step_count();
  engine_.reset();
  unpack(std::move(parcels), std::move(walls), shared, ledger, books, time, step);
}

}  // namespace sphero
