#include "parallel/distributed_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "engine/contact_geometry.h"
#include "engine/engine_part.h"

namespace sphero {
namespace {

// The ghost margin, in the largest grain's bounding radii: a grain's
// diameter, so that the grains are shared out when one has moved a radius
// (half as often as with one radius, for a few more ghosts: docs/PARALLEL.md).
constexpr double kMarginInGrains = 2.0;

std::vector<double> ledger_terms(const EnergyLedger& l) {
  return {l.kinetic_translational, l.kinetic_rotational, l.elastic_normal,    l.elastic_tangential,
          l.gravitational,         l.external_work,      l.initial_mechanical};
}

EnergyLedger ledger_of(const std::vector<double>& t) {
  EnergyLedger l;
  l.kinetic_translational = t[0], l.kinetic_rotational = t[1], l.elastic_normal = t[2], l.elastic_tangential = t[3];
  l.gravitational = t[4], l.external_work = t[5], l.initial_mechanical = t[6];
  return l;
}

// Books as the sums of an ExactLedger, to be added over the ranks.
ExactLedger as_sums(const LedgerBooks& b) {
  ExactLedger e;
  e.damping = b.ended.damping, e.sliding = b.ended.sliding, e.external_work = b.external_work;
  return e;
}

// Rank 0's value of a plain record, on every rank.
template <class T>
T bytes_from_root(const Ranks& ranks, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::string bytes(sizeof(T), '\0');
  std::memcpy(bytes.data(), &value, sizeof(T));
  bytes = ranks.broadcast(bytes, 0);
  T out;
  std::memcpy(&out, bytes.data(), sizeof(T));
  return out;
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

std::string distributed_refusal(const EngineSettings& s) {
  if (s.model == Model::rigid) return "the rigid model does not run on several ranks yet: run it without mpirun";
  return {};
}

DistributedEngine::DistributedEngine(const Ranks& ranks, EngineSnapshot whole)
    : ranks_(ranks), agreement_(std::make_unique<RankAgreement>(ranks_)) {
  settings_ = bytes_from_root(ranks_, whole.settings);
  lineage_ = bytes_from_root(ranks_, whole.lineage);
  const std::string refusal = distributed_refusal(settings_);
  if (!refusal.empty()) throw std::invalid_argument(refusal);
  grains_ = static_cast<std::size_t>(ranks_.max(ranks_.root() ? static_cast<double>(grain_count(whole.world)) : 0.0));
  if (grains_ < static_cast<std::size_t>(ranks_.size()))
    throw std::invalid_argument(fmt::format("the scene has {} grains for {} ranks: run it on at most {} ranks", grains_,
                                            ranks_.size(), std::max<std::size_t>(grains_, 1)));
  // Ghosts reach kMarginInGrains radii beyond the subdomain.
  double margin = 0.0;
  if (ranks_.root())
    for (std::size_t i = 0; i < whole.world.size(); ++i)
      if (!whole.world.is_wall[i]) margin = std::max(margin, kMarginInGrains * whole.world.bounding_radius[i]);
  margin_ = std::max(ranks_.max(margin), 4.0 * settings_.verlet_distance);
  deepest_overlap_ = ranks_.max(ranks_.root() ? whole.deepest_overlap : -INFINITY);
  deepest_overlap_time_ = ranks_.max(ranks_.root() ? whole.deepest_overlap_time : -INFINITY);
  // The whole run's ledger starts on rank 0, less the walls' energies,
  // which are booked here; each rank's engine adds what its own grains and
  // contacts do from now on.
  EnergyLedger part = ranks_.root() ? whole.ledger : EnergyLedger{};
  const LedgerBooks books = ranks_.root() ? (whole.books ? *whole.books : books_of(whole.ledger)) : LedgerBooks{};
  if (ranks_.root()) {
    BodyEnergySums walls;
    for (std::size_t i = 0; i < whole.world.size(); ++i)
      if (whole.world.is_wall[i]) walls.add(whole.world, i);
    part.kinetic_translational -= walls.translational;
    part.kinetic_rotational -= walls.rotational;
    part.gravitational -= walls.gravitational;
  }
  share_first(whole, part, books);
  wall_powers_ = wall_powers();
}

// Rank 0 owns every grain until its first sharing out, from the whole
// state; it sends the walls, the laws and the list's counts to every rank.
void DistributedEngine::share_first(EngineSnapshot& whole, const EnergyLedger& ledger, const LedgerBooks& books) {
  NeighbourListState& list = whole.neighbours;
  World& w = whole.world;
  ListScalars scalars;
  if (ranks_.root()) {
    if (list.reference_position.size() != w.size()) {  // never built: the first step builds it
      list.built = false;
      list.reference_position = w.position;
      list.reference_angle = w.angle;
    }
    // Decided here, on the whole world, so that every rank starts with it.
    if (!list.built && list.verlet_distance <= 0.0 && whole.settings.adaptive_verlet_distance)
      list.verlet_distance = starting_skin(w, whole.settings.verlet_distance);
    list.wraps.resize(w.size(), {0, 0});
    scalars = ListScalars::of(list);
  }
  list_scalars_ = bytes_from_root(ranks_, scalars);
  std::vector<int> numbers, owner;
  std::vector<Candidate> candidates;
  std::vector<ContactState> states;
  if (ranks_.root()) {
    for (std::size_t i = 0; i < w.size(); ++i) {
      numbers.push_back(static_cast<int>(i));
      owner.push_back(w.is_wall[i] ? -1 : 0);
    }
    candidates.reserve(list.contacts.size());
    states.reserve(list.contacts.size());
    for (const Contact& c : list.contacts) {
      candidates.push_back(packed(w, c));
      states.push_back(state_of(c));
    }
    release(list.contacts);
  }
  const World nothing;  // what the other ranks send from
  std::vector<Stepper::BodyHistory> history =
      ranks_.root() ? joined_history(whole, w.size()) : std::vector<Stepper::BodyHistory>{};
  Parcels parcels =
      pack({ranks_.root() ? w : nothing, numbers, owner, candidates, states, [&](std::size_t k, int to) {
              return OwnedBody{
                  static_cast<int>(k), to,        motion_of(w, k), list.reference_position[k], list.reference_angle[k],
                  list.wraps[k],       history[k]};
            }});
  release(candidates);
  release(states);
  // The laws and fields, which only rank 0 has.
  const std::vector<char> laws = shared_bytes(w);
  const std::string from_root = ranks_.broadcast(std::string(laws.begin(), laws.end()), 0);
  const std::array<double, 2> clock =
      bytes_from_root(ranks_, std::array<double, 2>{whole.time, static_cast<double>(whole.step)});
  // Everything of the whole state is in the parcels now: rank 0 lets it go
  // before it makes its own part's engine.
  whole = EngineSnapshot{};
  release(history);
  release(numbers);
  release(owner);
  unpack(std::move(parcels), {}, world_of_shared(std::vector<char>(from_root.begin(), from_root.end())), ledger, books,
         clock[0], static_cast<long>(clock[1]));
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
  std::vector<GrainMotion> free_walls;
  for (int k : free_walls_) free_walls.push_back(motion_of(engine_->world(), static_cast<std::size_t>(k)));
  // With vibrating walls the trapezoid's first power is taken anew with
  // this step's wall velocities (Engine::step): the walls as they start.
  std::vector<std::pair<GrainMotion, BodyConstraint>> walls_at_start;
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
  stop_on_any_failure(failure, unstable_body);
  refresh_ghosts();
  settle_wall_forces();
  if (settings_.integrator != Integrator::gear) kick_free_walls(free_walls);
  book_wall_work(walls_at_start);
  EnergyLedger checked = running_ledger();
  // Near the check's bound, on the exact ledger (every rank alike: the
  // running total is the same on all).
  if (near_energy_bound(checked, kinetic_energy_of(engine_->world(), vibrating_walls_))) checked = ledger();
  check_energy_of_all(checked);
  const bool moved_far = ranks_.max(largest_motion_since_decomposition()) > 0.5 * margin_;
  times_.exchanging += seconds_since(started);
  if (moved_far) {
    started = std::chrono::steady_clock::now();
    share_out();
    times_.decomposing += seconds_since(started);
  }
}

// Every rank learns of a failure on any. An instability names the lowest
// body that met one, as the serial check does (a ghost meets it with its
// owner: the same bits); any other failure, the lowest rank's.
void DistributedEngine::stop_on_any_failure(const std::string& failure, double unstable_body) const {
  const std::vector<double> lowest =
      ranks_.min({unstable_body, failure.empty() ? INFINITY : static_cast<double>(ranks_.rank())});
  const double lowest_body = lowest[0], first_failed = lowest[1];
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
}

// The grains' farthest point's travel since the decomposition.
double DistributedEngine::largest_motion_since_decomposition() const {
  const World& w = engine_->world();
  double largest = 0.0;
  for (std::size_t k = 0; k < held_.size(); ++k) {
    if (owner_[k] != ranks_.rank()) continue;
    largest = std::max(largest, norm(periodic_displacement(w, reference_position_[k], w.position[k])) +
                                    w.bounding_radius[k] * std::abs(w.angle[k] - reference_angle_[k]));
  }
  return largest;
}

namespace {

// Owners send their ghosts' records (read(k) of each held index k in
// send[q]); each rank writes what it receives (write(k, record) for each in
// receive[q]), both lists in whole-world order.
template <class Record, class Read, class Write>
void exchange_ghost_records(const Ranks& ranks, const std::vector<std::vector<int>>& send,
                            const std::vector<std::vector<int>>& receive, Read read, Write write) {
  const auto p = static_cast<std::size_t>(ranks.size());
  std::vector<std::vector<char>> outgoing(p);
  for (std::size_t q = 0; q < p; ++q) {
    std::vector<Record> records;
    records.reserve(send[q].size());
    for (int k : send[q]) records.push_back(read(static_cast<std::size_t>(k)));
    append_bytes(outgoing[q], records);
  }
  const std::vector<std::vector<char>> incoming = ranks.exchange(std::move(outgoing));
  for (std::size_t q = 0; q < p; ++q) {
    const std::vector<Record> records = records_of<Record>(incoming[q]);
    if (records.size() != receive[q].size())
      throw std::logic_error(
          fmt::format("rank {} sent {} ghosts where {} were expected", q, records.size(), receive[q].size()));
    for (std::size_t j = 0; j < records.size(); ++j) write(static_cast<std::size_t>(receive[q][j]), records[j]);
  }
}

}  // namespace

// The ghosts' motion as their owners computed it; with Gear also their
// history, and then every rank's forces and energies taken anew at the
// corrected state (the step took them with the ghosts' own corrections).
void DistributedEngine::refresh_ghosts() {
  World& w = EnginePart(*engine_).world_to_refresh();
  exchange_ghost_records<GrainMotion>(
      ranks_, send_, receive_, [&](std::size_t k) { return motion_of(w, k); },
      [&](std::size_t k, const GrainMotion& m) { set_motion(w, k, m); });
  if (settings_.integrator != Integrator::gear) return;
  exchange_ghost_records<Stepper::BodyHistory>(
      ranks_, send_, receive_, [&](std::size_t k) { return EnginePart(*engine_).history_of(k); },
      [&](std::size_t k, const Stepper::BodyHistory& h) { EnginePart(*engine_).set_history_of(k, h); });
  // The corrected state's forces, now that the ghosts are corrected (the
  // step's own pass read them as predicted), and the imposed loads' work
  // on this rank's grains with them.
  EnginePart(*engine_).evaluate_last_pass_again();
  EnginePart(*engine_).retake_constraint_power();
}

// The ranks' exact sums are added as integers, so the totals are the
// serial run's bits (the initial energy is held by rank 0 alone).
EnergyLedger DistributedEngine::ledger() const {
  ExactLedger total = ExactLedger::of_carried(ranks_.sum(engine_->exact_ledger().carried()));
  for (int k : walls_) total.add_body(engine_->world(), static_cast<std::size_t>(k));
  total.external_work.add(wall_work_);
  EnergyLedger l;
  l.initial_mechanical = ranks_.sum(std::vector<double>{EnginePart(*engine_).running_ledger().initial_mechanical})[0];
  total.round_into(l);
  return l;
}

// The ranks' running ledgers added (the energy check's, every step).
EnergyLedger DistributedEngine::running_ledger() const {
  EnergyLedger total = ledger_of(ranks_.sum(ledger_terms(EnginePart(*engine_).running_ledger())));
  const BodyEnergySums walls = walls_energies();
  total.kinetic_translational += walls.translational;
  total.kinetic_rotational += walls.rotational;
  total.gravitational += walls.gravitational;
  total.external_work += wall_work_.value();
  return total;
}

// The energy check of check_stability, on the ledger of all ranks (the
// same numbers on every rank, so all stop or none); the fastest grain is
// looked for only to name it.
void DistributedEngine::check_energy_of_all(const EnergyLedger& total) {
  StabilityContext run{engine_->step_count(),
                       engine_->time(),
                       settings_.dt,
                       engine_->time_step_limit(),
                       settings_.threads,
                       settings_.model,
                       kinetic_energy_of(engine_->world(), vibrating_walls_),
                       true,
                       &held_};
  if (!beyond_energy_bound(total, run.driven_kinetic)) return;
  // The fastest grain, the lowest numbered of equals (as the serial sums
  // find it): each rank's own, then the ranks'; its owner words the message.
  const World& w = engine_->world();
  std::array<double, 2> mine{-1.0, 0.0};
  std::size_t my_fastest = 0;
  for (std::size_t k = 0; k < held_.size(); ++k)
    if (owner_[k] == ranks_.rank() && norm2(w.velocity[k]) > mine[0])
      mine = {norm2(w.velocity[k]), static_cast<double>(held_[k])}, my_fastest = k;
  std::vector<char> bytes;
  append_bytes(bytes, std::vector<std::array<double, 2>>{mine});
  std::array<double, 2> fastest{-1.0, 0.0};
  int from = 0;
  const std::vector<std::array<double, 2>> all = records_of<std::array<double, 2>>(ranks_.all_gather(bytes));
  for (std::size_t q = 0; q < all.size(); ++q)
    if (all[q][0] > fastest[0] || (all[q][0] == fastest[0] && all[q][1] < fastest[1]))
      fastest = all[q], from = static_cast<int>(q);
  std::string message;
  if (ranks_.rank() == from) {
    try {
      check_energy(w, total, my_fastest, run);
    } catch (const InstabilityError& e) {
      message = e.what();
    }
  }
  throw InstabilityError(static_cast<std::size_t>(fastest[1]), ranks_.broadcast(message, from));
}

double DistributedEngine::deepest_overlap() const {
  return ranks_.max(std::max(deepest_overlap_, engine_->deepest_overlap()));
}

std::vector<std::uint8_t> DistributedEngine::bodies_written() const {
  std::vector<std::uint8_t> written(held_.size());
  for (std::size_t k = 0; k < held_.size(); ++k) {
    const int owner = owner_[k];
    written[k] = owner == ranks_.rank() || (owner == -1 && ranks_.root());
  }
  return written;
}

EngineSnapshot DistributedEngine::header() {
  take_list_scalars();
  const EnergyLedger total = ledger();
  const ExactLedger books_sum = ExactLedger::of_carried(ranks_.sum(as_sums(EnginePart(*engine_).books()).carried()));
  LedgerBooks books;
  books.ended.damping = books_sum.damping, books.ended.sliding = books_sum.sliding;
  books.external_work = books_sum.external_work;
  books.external_work.add(wall_work_);
  const double deepest = ranks_.max(deepest_overlap_);
  const double deepest_time = ranks_.min(deepest_overlap_ == deepest ? deepest_overlap_time_ : INFINITY);
  const double power = power_in_body_order();
  EngineSnapshot out{world_of_shared(shared_bytes(engine_->world())),
                     settings_,
                     {},
                     total,
                     engine_->time(),
                     engine_->step_count(),
                     power,
                     {},
                     {},
                     {},
                     deepest,
                     deepest_time,
                     books,
                     lineage_};
  list_scalars_.set_in(out.neighbours);
  return out;
}

// Each constrained body's power goes to rank 0, where they are added in
// the order of the bodies' numbers, as the serial engine adds them.
double DistributedEngine::power_in_body_order() const {
  const World& w = engine_->world();
  std::vector<std::array<double, 2>> mine;  // number, power
  if (ranks_.root())
    for (std::size_t j = 0; j < walls_.size(); ++j)
      if (w.constraint[static_cast<std::size_t>(walls_[j])].imposes_anything())
        mine.push_back({static_cast<double>(held_[static_cast<std::size_t>(walls_[j])]), wall_powers_[j]});
  for (std::size_t k = 0; k < held_.size(); ++k)
    if (owner_[k] == ranks_.rank() && w.constraint[k].imposes_anything())
      mine.push_back({static_cast<double>(held_[k]), constraint_power_of(w, k)});
  std::vector<char> bytes;
  append_bytes(bytes, mine);
  std::vector<std::array<double, 2>> all = records_of<std::array<double, 2>>(ranks_.gather(bytes));
  std::sort(all.begin(), all.end());
  double power = 0.0;
  for (const auto& body : all) power += body[1];
  return power;
}

// Its own grains, and on rank 0 the walls.
bool DistributedEngine::in_part(std::size_t k) const {
  return owner_[k] == ranks_.rank() || (owner_[k] < 0 && ranks_.root());
}

std::size_t DistributedEngine::part_bodies() const {
  std::size_t count = 0;
  for (std::size_t k = 0; k < held_.size(); ++k) count += in_part(k);
  return count;
}

void DistributedEngine::for_each_part_body(const std::function<void(const BodyRecord&)>& take) const {
  const World& w = engine_->world();
  for (std::size_t k = 0; k < held_.size(); ++k)
    if (in_part(k)) take(body_record(w, k, held_, record_of(k, owner_[k])));
}

CandidateStream DistributedEngine::part_candidates() const {
  const World& w = engine_->world();
  const NeighbourList& list = engine_->neighbour_list();
  CandidateStream out;
  for (std::size_t k = 0; k < list.candidates().size(); ++k) {
    const Candidate& key = list.candidates()[k];
    if (owner_[static_cast<std::size_t>(home_body(w, key.vertex_body, key.edge_body))] == ranks_.rank())
      out.add(portable(key, w, held_), list.states()[k]);
  }
  return out;
}

StatePart DistributedEngine::part() const {
  StatePart out;
  out.bodies.reserve(part_bodies());
  for_each_part_body([&](const BodyRecord& r) { out.bodies.push_back(r); });
  out.candidates = part_candidates();
  return out;
}

}  // namespace sphero
