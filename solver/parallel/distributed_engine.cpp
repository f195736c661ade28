#include "parallel/distributed_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <tuple>

#include "engine/candidate_order.h"
#include "engine/contact_geometry.h"
#include "engine/dof.h"
#include "engine/world_subset.h"
#include "parallel/zoltan_partition.h"

namespace sphero {
namespace {

using Motion = GrainMotion;

// The ghost margin, in the largest grain's bounding radii: a grain's
// diameter, so that the grains are shared out when one has moved a radius
// (half as often as with one radius, for a few more ghosts: docs/PARALLEL.md).
constexpr double kMarginInGrains = 2.0;



Motion motion_of(const World& w, std::size_t i) {
  return {w.position[i], w.angle[i], w.velocity[i], w.angular_velocity[i], w.force[i], w.torque[i]};
}

void set_motion(World& w, std::size_t i, const Motion& m) {
  w.position[i] = m.position;
  w.angle[i] = m.angle;
  w.velocity[i] = m.velocity;
  w.angular_velocity[i] = m.angular_velocity;
  w.force[i] = m.force;
  w.torque[i] = m.torque;
}

// A candidate of `from` as a candidate of `to`, where its bodies are v and
// e: the vertex and features follow their bodies' vertices.
Candidate renumbered(const Candidate& k, const World& from, const World& to, int v, int e) {
  const auto at = [](const World& w, int body) { return w.vertex_begin[static_cast<std::size_t>(body)]; };
  Candidate r = k;
  r.vertex = k.vertex - at(from, k.vertex_body) + at(to, v);
  r.feature = k.feature - at(from, k.edge_body) + at(to, e);
  r.feature_end = k.feature_end - at(from, k.edge_body) + at(to, e);
  r.vertex_body = v;
  r.edge_body = e;
  return r;
}

bool holds_state(const ContactState& s) {
  static const ContactState none{};
  return std::memcmp(&s, &none, sizeof s) != 0;
}

// Runs of candidates each in canonical order, one after the other, merged
// into one canonical list (the states follow their candidates).
void merge_runs(std::vector<Candidate>& keys, std::vector<ContactState>& states, const std::vector<std::size_t>& run_ends) {
  std::vector<SortKey> order(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) order[k] = sort_key(keys[k]);
  std::vector<std::uint32_t> index(keys.size());
  for (std::size_t k = 0; k < index.size(); ++k) index[k] = static_cast<std::uint32_t>(k);
  const auto before = [&](std::uint32_t a, std::uint32_t b) { return order[a] < order[b]; };
  std::vector<std::size_t> bounds{0};
  bounds.insert(bounds.end(), run_ends.begin(), run_ends.end());
  for (std::size_t width = 1; width + 1 < bounds.size(); width *= 2)
    for (std::size_t r = 0; r + width + 1 < bounds.size(); r += 2 * width)
      std::inplace_merge(index.begin() + static_cast<long>(bounds[r]), index.begin() + static_cast<long>(bounds[r + width]),
                         index.begin() + static_cast<long>(bounds[std::min(r + 2 * width, bounds.size() - 1)]), before);
  std::vector<Candidate> sorted_keys(keys.size());
  std::vector<ContactState> sorted_states(keys.size());
  for (std::size_t k = 0; k < index.size(); ++k) sorted_keys[k] = keys[index[k]], sorted_states[k] = states[index[k]];
  keys = std::move(sorted_keys);
  states = std::move(sorted_states);
}

std::vector<double> ledger_terms(const EnergyLedger& l) {
  return {l.kinetic_translational, l.kinetic_rotational, l.elastic_normal,      l.elastic_tangential, l.gravitational,
          l.external_work,         l.damping_dissipation, l.sliding_dissipation, l.initial_mechanical};
}

EnergyLedger ledger_of(const std::vector<double>& t) {
  EnergyLedger l;
  l.kinetic_translational = t[0], l.kinetic_rotational = t[1], l.elastic_normal = t[2], l.elastic_tangential = t[3];
  l.gravitational = t[4], l.external_work = t[5], l.damping_dissipation = t[6], l.sliding_dissipation = t[7];
  l.initial_mechanical = t[8];
  return l;
}

std::size_t grain_count(const World& w) {
  return static_cast<std::size_t>(std::count(w.is_wall.begin(), w.is_wall.end(), std::uint8_t{0}));
}

// The ranks' list rebuilds at the same steps with the same skin: the
// waiting for one rank's rebuild then overlaps the others'.
class RankAgreement : public ListAgreement {
 public:
  explicit RankAgreement(const Ranks& ranks) : ranks_(ranks) {}
  double largest(double local) const override { return ranks_.max(local); }
  std::vector<double> totals(std::vector<double> local) const override { return ranks_.sum(local); }

 private:
  const Ranks& ranks_;
};

}  // namespace

std::string distributed_refusal(const World& w, const EngineSettings& s) {
  if (s.model == Model::rigid) return "the rigid model does not run on several ranks yet: run it without mpirun";
  if (s.integrator == Integrator::gear)
    return "integrator = gear does not run on several ranks yet: use integrator = verlet, or run without mpirun";
  for (std::size_t i = 0; i < w.size(); ++i) {
    const BodyConstraint& c = w.constraint[i];
    if (c.vibration.on() && !c.holds_all())
      return fmt::format("body {} ('{}') vibrates and is free along some axis, which does not run on several ranks "
                         "yet: run the scene without mpirun",
                         i, w.shape_name[i]);
  }
  return {};
}

DistributedEngine::DistributedEngine(const Ranks& ranks, EngineSnapshot whole)
    : ranks_(ranks), whole_(std::move(whole.world)), settings_(whole.settings),
      agreement_(std::make_unique<RankAgreement>(ranks_)) {
  const std::string refusal = distributed_refusal(whole_, settings_);
  if (!refusal.empty()) throw std::invalid_argument(refusal);
  const std::size_t grains = grain_count(whole_);
  if (grains < static_cast<std::size_t>(ranks_.size()))
    throw std::invalid_argument(fmt::format("the scene has {} grains for {} ranks: run it on at most {} ranks",
                                            grains, ranks_.size(), std::max<std::size_t>(grains, 1)));
  whole_list_ = std::move(whole.neighbours);
  for (const Contact& c : whole_list_.contacts) {
    whole_keys_.push_back(packed(whole_, c));
    whole_states_.push_back({c.xi, c.force, c.point, c.viscous_force, c.normal_force});
  }
  whole_list_.contacts.clear();
  if (whole_list_.reference_position.size() != whole_.size()) {  // never built: the first step builds it
    whole_list_.built = false;
    whole_list_.reference_position = whole_.position;
    whole_list_.reference_angle = whole_.angle;
  }
  whole_list_.wraps.resize(whole_.size(), {0, 0});
  // Ghosts reach kMarginInGrains radii beyond the subdomain.
  for (std::size_t i = 0; i < whole_.size(); ++i)
    if (!whole_.is_wall[i]) margin_ = std::max(margin_, kMarginInGrains * whole_.bounding_radius[i]);
  margin_ = std::max(margin_, 4.0 * settings_.verlet_distance);
  // The first owners, for Zoltan to start from: the grains in blocks.
  std::vector<int> first(whole_.size(), -1);
  std::size_t k = 0;
  for (std::size_t i = 0; i < whole_.size(); ++i)
    if (!whole_.is_wall[i]) first[i] = static_cast<int>(k++ * static_cast<std::size_t>(ranks_.size()) / grains);
  deepest_overlap_ = whole.deepest_overlap, deepest_overlap_time_ = whole.deepest_overlap_time;
  // The whole run's ledger starts on rank 0, less the walls' energies,
  // which are booked here; each rank's engine adds what its own grains and
  // contacts do from now on.
  EnergyLedger part = ranks_.root() ? whole.ledger : EnergyLedger{};
  if (ranks_.root()) {
    BodyEnergySums walls;
    for (std::size_t i = 0; i < whole_.size(); ++i)
      if (whole_.is_wall[i]) walls.add(whole_, i);
    part.kinetic_translational -= walls.translational;
    part.kinetic_rotational -= walls.rotational;
    part.gravitational -= walls.gravitational;
  }
  decompose(first, part, whole.time, whole.step);
  wall_power_ = wall_power();
}

void DistributedEngine::decompose(const std::vector<int>& previous_owner, const EnergyLedger& ledger, double time,
                                  long step) {
  const int me = ranks_.rank(), p = ranks_.size();
  // A grain's share of a step's work: its vertices (placing them, the
  // search) and the candidates it is home to (the contact pass).
  std::vector<float> work(whole_.size(), 0.0f);
  for (std::size_t i = 0; i < whole_.size(); ++i) work[i] = static_cast<float>(whole_.vertex_count[i]);
  for (const Candidate& key : whole_keys_) work[static_cast<std::size_t>(home_body(whole_, key.vertex_body, key.edge_body))] += 1.0f;
  std::vector<unsigned long> ids;
  std::vector<Vec2> points;
  std::vector<float> weights;
  for (std::size_t i = 0; i < whole_.size(); ++i)
    if (previous_owner[i] == me) {
      ids.push_back(i);
      points.push_back(whole_.position[i]);
      weights.push_back(work[i]);
    }
  // Bisection rather than the Hilbert curve: its boxes are compact, with
  // fewer ghosts (docs/PARALLEL.md: 1.3x faster on two ranks).
  const std::vector<int> parts = partition_bodies(ranks_, ids, points, weights, "RCB");
  std::vector<std::array<int, 2>> mine;
  for (std::size_t k = 0; k < ids.size(); ++k) mine.push_back({static_cast<int>(ids[k]), parts[k]});
  std::vector<char> bytes;
  append_bytes(bytes, mine);
  owner_.assign(whole_.size(), -1);
  for (const auto& [body, rank] : records_of<std::array<int, 2>>(ranks_.all_gather(bytes)))
    owner_[static_cast<std::size_t>(body)] = rank;

  boxes_ = subdomain_boxes(whole_, owner_, p);
  held_ = bodies_held_by(whole_, owner_, boxes_, me, margin_);
  start_engine(ledger, time, step);
}

// The engine over held_, from whole_ (current for the bodies held),
// whole_keys_ and whole_list_; the ghosts to send (the grains owned here
// within the margin of another rank's box) and to receive.
void DistributedEngine::start_engine(const EnergyLedger& ledger, double time, long step) {
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
  // The whole list's part among the bodies held here: every candidate of
  // an own grain is there (its partner is within the ghost margin), so the
  // list goes on as the serial one does. The counts that only sum up
  // (half-skin candidates, body pairs) start on rank 0.
  NeighbourListState list = whole_list_;
  for (std::size_t k = 0; k < whole_keys_.size(); ++k) {
    const Candidate& key = whole_keys_[k];
    const int v = local_of[static_cast<std::size_t>(key.vertex_body)], e = local_of[static_cast<std::size_t>(key.edge_body)];
    if (v < 0 || e < 0) continue;
    Contact c = record_of_key(renumbered(key, whole_, local, v, e));
    const ContactState& state = whole_states_[k];
    c.sliding = key.sliding;
    c.xi = state.xi, c.force = state.force, c.point = state.point;
    c.viscous_force = state.viscous_force, c.normal_force = state.normal_force;
    list.contacts.push_back(c);
  }
  list.reference_position = values_of(whole_list_.reference_position, held_);
  list.reference_angle = values_of(whole_list_.reference_angle, held_);
  list.wraps = values_of(whole_list_.wraps, held_);
  if (!ranks_.root()) {
    if (std::isfinite(list.listed_at_half_skin)) list.listed_at_half_skin = 0.0;
    list.stats.body_pairs = 0;
  }
  reference_position_ = local.position;
  reference_angle_ = local.angle;
  EngineSnapshot s{std::move(local), settings_, std::move(list), ledger, time, step, power, {}, {}, {}, 0.0, 0.0};
  engine_ = std::make_unique<Engine>(std::move(s));
  engine_->count_only(std::move(counted), held_);
  engine_->agree_lists_with(agreement_.get());
  ++decompositions_;
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

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void DistributedEngine::step() {
  auto started = std::chrono::steady_clock::now();
  // The free walls' velocities and settled forces as the step starts: its
  // second kick is redone with their settled forces at its end.
  std::vector<Motion> free_walls;
  for (int k : free_walls_) free_walls.push_back(motion_of(engine_->world(), static_cast<std::size_t>(k)));
  // With vibrating walls the trapezoid's first power is taken anew with
  // this step's wall velocities (Engine::step): the walls as they start.
  std::vector<std::pair<Motion, BodyConstraint>> walls_at_start;
  if (!vibrating_walls_.empty())
    for (int k : walls_)
      walls_at_start.emplace_back(motion_of(engine_->world(), static_cast<std::size_t>(k)),
                                  engine_->world().constraint[static_cast<std::size_t>(k)]);
  std::string failure;
  double unstable_body = INFINITY;  // the body an instability names
  try {
    engine_->step();
  } catch (const InstabilityError& e) {
    // (An instability that names no body comes after those that do.)
    failure = e.what();
    unstable_body = e.body() == static_cast<std::size_t>(-1) ? 1e300 : static_cast<double>(e.body());
  } catch (const std::exception& e) {
    failure = e.what();
  }
  times_.stepping += seconds_since(started);
  started = std::chrono::steady_clock::now();
  // Every rank learns of a failure on any. An instability names the lowest
  // body that met one, as the serial check does (a ghost meets it with its
  // owner: the same bits); any other failure, the lowest rank's.
  const double lowest_body = ranks_.min(unstable_body);
  const double first_failed = ranks_.min(failure.empty() ? INFINITY : static_cast<double>(ranks_.rank()));
  if (std::isfinite(lowest_body)) {
    const double from = ranks_.min(unstable_body == lowest_body ? static_cast<double>(ranks_.rank()) : INFINITY);
    const std::string message = ranks_.broadcast(failure, static_cast<int>(from));
    if (lowest_body == 1e300) throw InstabilityError(message);
    throw InstabilityError(static_cast<std::size_t>(lowest_body), message);
  }
  if (std::isfinite(first_failed)) {
    const int from = static_cast<int>(first_failed);
    throw std::runtime_error(fmt::format("rank {}: {}", from, ranks_.broadcast(failure, from)));
  }
  refresh_ghosts();
  settle_wall_forces();
  kick_free_walls(free_walls);
  const double power = wall_power();
  if (!vibrating_walls_.empty()) {
    wall_work_ += engine_->drive_work();
    wall_power_ = driven_wall_power(walls_at_start);
  }
  wall_work_ += 0.5 * (wall_power_ + power) * settings_.dt;
  wall_power_ = power;
  check_energy_of_all(ledger());
  const bool moved_far = ranks_.max(largest_motion_since_decomposition()) > 0.5 * margin_;
  times_.exchanging += seconds_since(started);
  if (moved_far) {
    started = std::chrono::steady_clock::now();
    share_out();
    times_.decomposing += seconds_since(started);
  }
}

// The grains' farthest point's travel since the decomposition.
double DistributedEngine::largest_motion_since_decomposition() const {
  const World& w = engine_->world();
  double largest = 0.0;
  for (std::size_t k = 0; k < held_.size(); ++k) {
    if (owner_[static_cast<std::size_t>(held_[k])] != ranks_.rank()) continue;
    largest = std::max(largest, norm(periodic_displacement(w, reference_position_[k], w.position[k])) +
                                    w.bounding_radius[k] * std::abs(w.angle[k] - reference_angle_[k]));
  }
  return largest;
}

void DistributedEngine::refresh_ghosts() {
  World& w = engine_->world_to_refresh();
  const auto p = static_cast<std::size_t>(ranks_.size());
  std::vector<std::vector<char>> outgoing(p);
  for (std::size_t q = 0; q < p; ++q) {
    std::vector<Motion> motions;
    motions.reserve(send_[q].size());
    for (int k : send_[q]) motions.push_back(motion_of(w, static_cast<std::size_t>(k)));
    append_bytes(outgoing[q], motions);
  }
  const std::vector<std::vector<char>> incoming = ranks_.exchange(outgoing);
  for (std::size_t q = 0; q < p; ++q) {
    const std::vector<Motion> motions = records_of<Motion>(incoming[q]);
    if (motions.size() != receive_[q].size())
      throw std::logic_error(fmt::format("rank {} sent {} ghosts where {} were expected", q, motions.size(), receive_[q].size()));
    for (std::size_t j = 0; j < motions.size(); ++j) set_motion(w, static_cast<std::size_t>(receive_[q][j]), motions[j]);
  }
}

// A grain's motion and what the list keeps of it, for the ranks that will
// hold it (owner: its rank from now on).
OwnedBody DistributedEngine::record_of(std::size_t k, int owner) const {
  const World& w = engine_->world();
  const NeighbourList& list = engine_->neighbour_list();
  return {held_[k], owner, motion_of(w, k),
          list.reference_positions().empty() ? w.position[k] : list.reference_positions()[k],
          list.reference_angles().empty() ? w.angle[k] : list.reference_angles()[k],
          list.wraps().empty() ? std::array<int, 2>{0, 0} : list.wraps()[k]};
}

void DistributedEngine::take_record(const OwnedBody& o) {
  const auto b = static_cast<std::size_t>(o.body);
  set_motion(whole_, b, o.motion);
  owner_[b] = o.owner;
  whole_list_.reference_position[b] = o.reference_position;
  whole_list_.reference_angle[b] = o.reference_angle;
  whole_list_.wraps[b] = o.wraps;
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
  const std::vector<double> totals = ranks_.sum({list.listed_at_half_skin(), static_cast<double>(list.stats().body_pairs)});
  whole_list_.listed_at_half_skin = totals[0];
  whole_list_.stats = list.stats();
  whole_list_.stats.body_pairs = static_cast<std::size_t>(totals[1]);
  whole_list_.built = list.built();
  whole_list_.verlet_distance = list.verlet_distance();
  whole_list_.steps_since_rebuild = list.steps_since_rebuild();
  deepest_overlap_ = std::max(deepest_overlap_, engine_->deepest_overlap());
  if (deepest_overlap_ == engine_->deepest_overlap()) deepest_overlap_time_ = engine_->deepest_overlap_time();
}

// A candidate's stream to one rank: packed keys in the whole world's
// numbering, in canonical order, and only the states that hold something
// (a candidate not touching holds none).
struct DistributedEngine::CandidateStream {
  std::vector<Candidate> keys;
  std::vector<std::uint8_t> stated;
  std::vector<ContactState> states;
  void add(const Candidate& key, const ContactState& state) {
    keys.push_back(key);
    stated.push_back(holds_state(state));
    if (stated.back()) states.push_back(state);
  }
};

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
void DistributedEngine::share_out() {
  const World& w = engine_->world();
  const NeighbourList& list = engine_->neighbour_list();
  const int me = ranks_.rank(), p = ranks_.size();
  // A grain's share of a step's work: its vertices and its candidates.
  std::vector<float> work(held_.size(), 0.0f);
  for (std::size_t k = 0; k < held_.size(); ++k) work[k] = static_cast<float>(w.vertex_count[k]);
  for (const Candidate& key : list.candidates()) work[static_cast<std::size_t>(home_body(w, key.vertex_body, key.edge_body))] += 1.0f;
  std::vector<unsigned long> ids;
  std::vector<Vec2> points;
  std::vector<float> weights;
  std::vector<std::size_t> owned;
  std::vector<std::uint8_t> owned_here(held_.size(), 0);
  for (std::size_t k = 0; k < held_.size(); ++k)
    if (owner_[static_cast<std::size_t>(held_[k])] == me) {
      owned.push_back(k);
      owned_here[k] = 1;
      ids.push_back(static_cast<unsigned long>(held_[k]));
      points.push_back(w.position[k]);
      weights.push_back(work[k]);
    }
  const std::vector<int> parts = partition_bodies(ranks_, ids, points, weights, "RCB");
  // The new boxes, from the grains' new owners.
  std::vector<double> low(2 * static_cast<std::size_t>(p), 1e300), high(2 * static_cast<std::size_t>(p), -1e300);
  for (std::size_t j = 0; j < owned.size(); ++j) {
    SubdomainBox box;
    box.add(w.position[owned[j]], w.bounding_radius[owned[j]]);
    const auto q = 2 * static_cast<std::size_t>(parts[j]);
    low[q] = std::min(low[q], box.low.x), low[q + 1] = std::min(low[q + 1], box.low.y);
    high[q] = std::max(high[q], box.high.x), high[q + 1] = std::max(high[q + 1], box.high.y);
  }
  low = ranks_.min(low);
  high = ranks_.max(high);
  for (std::size_t q = 0; q < boxes_.size(); ++q) boxes_[q] = {{low[2 * q], low[2 * q + 1]}, {high[2 * q], high[2 * q + 1]}};
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
  const EnergyLedger ledger = engine_->ledger();
  const double time = engine_->time();
  const long step = engine_->step_count();
  receive_shares(bodies_to, candidates_to);
  start_engine(ledger, time, step);
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

EnergyLedger DistributedEngine::ledger() const {
  EnergyLedger total = ledger_of(ranks_.sum(ledger_terms(engine_->ledger())));
  const EnergyLedger walls = walls_part();
  total.kinetic_translational += walls.kinetic_translational;
  total.kinetic_rotational += walls.kinetic_rotational;
  total.gravitational += walls.gravitational;
  total.external_work += walls.external_work;
  return total;
}

// The walls' energies and the work of their imposed motion (every rank
// holds the same walls).
EnergyLedger DistributedEngine::walls_part() const {
  const World& w = engine_->world();
  BodyEnergySums sums;
  for (int k : walls_) sums.add(w, static_cast<std::size_t>(k));
  EnergyLedger part;
  part.kinetic_translational = sums.translational;
  part.kinetic_rotational = sums.rotational;
  part.gravitational = sums.gravitational;
  part.external_work = wall_work_;
  return part;
}

// A wall free along some axis (a pressure plate) took the step's second
// kick from the forces of the contacts on this rank alone: it is redone,
// as velocity Verlet does it, from the velocity and settled forces the step
// started with and the settled forces it ended with (the same expressions,
// so the same bits as the serial run's).
void DistributedEngine::kick_free_walls(const std::vector<Motion>& before) {
  World& w = engine_->world_to_refresh();
  const double dt = settings_.dt;
  for (std::size_t j = 0; j < free_walls_.size(); ++j) {
    const int b = free_walls_[j];
    const BodyConstraint& tag = w.constraint[static_cast<std::size_t>(b)];
    const double start_force[3] = {before[j].force.x, before[j].force.y, before[j].torque};
    const double start_velocity[3] = {before[j].velocity.x, before[j].velocity.y, before[j].angular_velocity};
    for (int k = 0; k < 3; ++k) {
      if (tag.held[k]) continue;
      double v = start_velocity[k];
      v += 0.5 * dt * start_force[k] * dof_inverse_mass(w, b, k);
      v += 0.5 * dt * dof_force(w, b, k) * dof_inverse_mass(w, b, k);
      dof_velocity(w, b, k) = v;
    }
  }
}

// The walls' power as the step started, but with the velocities the
// drive gave the vibrating walls for it (and their imposed velocities), in
// wall order as wall_power() adds it.
double DistributedEngine::driven_wall_power(const std::vector<std::pair<Motion, BodyConstraint>>& at_start) const {
  const World& w = engine_->world();
  double power = 0.0;
  for (std::size_t j = 0; j < walls_.size(); ++j) {
    const auto k = static_cast<std::size_t>(walls_[j]);
    const auto& [motion, tag] = at_start[j];
    const bool driven = tag.vibration.on();
    power += constraint_power_of(driven ? w.constraint[k] : tag, motion.force, motion.torque,
                                 driven ? w.velocity[k] : motion.velocity,
                                 driven ? w.angular_velocity[k] : motion.angular_velocity);
  }
  return power;
}

double DistributedEngine::wall_power() const {
  const World& w = engine_->world();
  double power = 0.0;
  for (int k : walls_) power += constraint_power_of(w, static_cast<std::size_t>(k));
  return power;
}

namespace {

// One touching contact's share of a wall's force and torque, as the
// contact pass adds it, and where in the whole list's order it comes.
struct WallShare {
  int wall;  // whole-world index
  SortKey key;
  Vec2 force;
  double torque;
};

}  // namespace

// A wall's contacts are spread over the ranks that own the grains touching
// it: each sends its shares, and every rank adds all of them in the whole
// list's candidate order to the wall's loads, as the serial pass does.
void DistributedEngine::settle_wall_forces() {
  const NeighbourList& list = engine_->neighbour_list();
  const World& w = engine_->world();
  const std::vector<int>&start = list.body_candidate_start(), &incident = list.body_candidates();
  std::vector<WallShare> mine;
  for (int k : walls_) {
    for (int j = start[static_cast<std::size_t>(k)]; j < start[static_cast<std::size_t>(k) + 1]; ++j) {
      const auto c = static_cast<std::size_t>(incident[static_cast<std::size_t>(j)]);
      const Candidate& key = list.candidates()[c];
      const bool vertex = key.vertex_body == k;
      const int other = vertex ? key.edge_body : key.vertex_body;
      if (!key.active || owner_[static_cast<std::size_t>(held_[static_cast<std::size_t>(other)])] != ranks_.rank()) continue;
      const ContactState& s = list.states()[c];
      const Vec2 centre = vertex ? w.position[static_cast<std::size_t>(k)] : w.position[static_cast<std::size_t>(k)] + key.edge_offset;
      // a − x and a + (−x) are the same number: the serial pass subtracts.
      const Vec2 f = vertex ? s.force : -s.force;
      const double t = vertex ? cross(s.point - centre, s.force) : -cross(s.point - centre, s.force);
      const Candidate whole_key = renumbered(key, w, whole_, held_[static_cast<std::size_t>(key.vertex_body)],
                                             held_[static_cast<std::size_t>(key.edge_body)]);
      mine.push_back({held_[static_cast<std::size_t>(k)], sort_key(whole_key), f, t});
    }
  }
  std::vector<char> bytes;
  append_bytes(bytes, mine);
  std::vector<WallShare> all = records_of<WallShare>(ranks_.all_gather(bytes));
  std::sort(all.begin(), all.end(), [](const WallShare& a, const WallShare& b) {
    return a.wall != b.wall ? a.wall < b.wall : a.key < b.key;
  });
  World& out = engine_->world_to_refresh();
  std::size_t at = 0;
  for (int k : walls_) {
    const auto i = static_cast<std::size_t>(k);
    // The loads first, as EngineCore::apply_loads sets them.
    const BodyConstraint& tag = out.constraint[i];
    out.force[i] = body_force(out, i);
    out.torque[i] = 0.0;
    if (!tag.held[dof_x]) out.force[i].x += tag.imposed_force.x;
    if (!tag.held[dof_y]) out.force[i].y += tag.imposed_force.y;
    if (!tag.held[dof_rotation]) out.torque[i] += tag.imposed_torque;
    for (; at < all.size() && all[at].wall == held_[i]; ++at) {
      out.force[i] += all[at].force;
      out.torque[i] += all[at].torque;
    }
  }
}

// The energy check of check_stability, on the ledger of all ranks (the
// same numbers on every rank, so all stop or none); the fastest grain is
// looked for only to name it.
void DistributedEngine::check_energy_of_all(const EnergyLedger& total) {
  StabilityContext run{engine_->step_count(), engine_->time(), settings_.dt, engine_->time_step_limit(),
                       settings_.threads,     settings_.model, kinetic_energy_of(engine_->world(), vibrating_walls_),
                       true};
  try {
    check_energy(whole_, total, 0, run);
  } catch (const InstabilityError&) {
    // The fastest grain, the lowest numbered of equals (as the serial sums
    // find it): each rank's own, then the ranks'.
    const World& w = engine_->world();
    std::array<double, 2> mine{-1.0, 0.0};
    for (std::size_t k = 0; k < held_.size(); ++k)
      if (owner_[static_cast<std::size_t>(held_[k])] == ranks_.rank() && norm2(w.velocity[k]) > mine[0])
        mine = {norm2(w.velocity[k]), static_cast<double>(held_[k])};
    std::vector<char> bytes;
    append_bytes(bytes, std::vector<std::array<double, 2>>{mine});
    std::array<double, 2> fastest{-1.0, 0.0};
    for (const auto& f : records_of<std::array<double, 2>>(ranks_.all_gather(bytes)))
      if (f[0] > fastest[0] || (f[0] == fastest[0] && f[1] < fastest[1])) fastest = f;
    check_energy(whole_, total, static_cast<std::size_t>(fastest[1]), run);
    throw;
  }
}

EngineSnapshot DistributedEngine::gather() {
  collect_on_root();
  const EnergyLedger total = ledger();
  const double deepest = ranks_.max(deepest_overlap_);
  const double deepest_time = ranks_.min(deepest_overlap_ == deepest ? deepest_overlap_time_ : INFINITY);
  EngineSnapshot local = engine_->snapshot();
  const double power = ranks_.sum(std::vector<double>{local.power})[0];
  if (!ranks_.root()) return {};
  World w = whole_;
  update_world_vertices(w);
  // The records a serial engine's checkpoint holds, made as it makes them.
  NeighbourList whole_list(neighbour_settings(settings_), whole_list_, w);
  whole_list.adopt(whole_keys_, whole_states_);
  NeighbourListState list = whole_list.state(w);
  return {std::move(w), settings_, std::move(list), total, local.time, local.step, power, {}, {}, {}, deepest, deepest_time};
}

}  // namespace sphero
