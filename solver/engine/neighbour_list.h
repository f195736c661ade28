// The neighbour list (docs/MODEL.md §4): the candidate feature pairs of
// bodies within a skin δ of each other, found with link cells, carried
// from step to step with their contact state, and rebuilt — whole, or only
// for the few bodies that moved — when max_i(|Δx_i| + R_i |Δθ_i|) exceeds δ.
#pragma once

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/contact.h"
#include "engine/engine_settings.h"
#include "engine/world.h"

namespace sphero {

struct OrderedCandidates;       // candidate_order.h
class TriangulationNeighbours;  // triangulation_neighbours.h
class NeighbourList;

struct NeighbourSettings {
  double verlet_distance = 0.0;  // δ: skin thickness per body (the largest, when adaptive)
  bool brute_force = false;      // all pairs, no cells: the reference for tests
  int threads = 1;               // for the rebuild's candidate search
  // Adapt δ to the observed motion, between verlet_distance / 1024 and
  // verlet_distance (NeighbourList::update): a list rebuilt within 10
  // steps doubles it; a list that lasts while the bodies move slowly halves
  // it, below verlet_distance / 64 only where that saves candidates.
  // Which candidates are listed changes, never which contacts touch, so the
  // forces do not depend on it.
  bool adaptive = false;
  // false: list every vertex–edge and vertex–vertex pair of each
  // neighbouring body pair (M² per pair, evaluated every step) instead of
  // only those within reach — the cost without contact lists (docs/MODEL.md §4),
  // for the benchmark. The forces are the same either way.
  bool contact_lists = true;
  // A list that motion ended because a few bodies moved is rebuilt for
  // those bodies' pairs only, the rest kept (NeighbourList::update).
  // false: every rebuild is whole. The forces are the same either way.
  bool partial_rebuilds = true;
  // Listed beyond the skin as well: the rigid model examines every feature
  // pair whose outlines are within this gap (RigidSettings::gap).
  double gap = 0.0;
  NeighbourStrategy strategy = NeighbourStrategy::cells;
};

struct NeighbourStats {
  long rebuilds = 0;
  long feature_pairs_evaluated = 0;  // summed over all evaluations
  std::size_t body_pairs = 0;        // in the current list
  std::size_t link_cells = 0;        // of the last rebuild's grid
};

// A touching candidate's normal and overlap as a contact pass found them
// (zero where it did not touch).
struct TouchGeometry {
  Vec2 normal;
  double overlap = 0.0;
};

// Everything the list carries from step to step (for checkpoints).
struct NeighbourListState {
  std::vector<Contact> contacts;
  std::vector<Vec2> reference_position;
  std::vector<double> reference_angle;
  std::vector<std::array<int, 2>> wraps;
  NeighbourStats stats;
  bool built = false;
  double verlet_distance = 0.0;  // δ in use (adaptive); 0: the settings' δ
  long steps_since_rebuild = 0;
  // The candidates a list with half the skin would hold, counted at the
  // last rebuild from the features' distances (the slab and cone tests
  // would leave out more): below 1/64 of its ceiling the adaptive skin
  // halves only where this is at most 80% of the list. A count, not a
  // clock, so that the skin — and with it the list and the grouping of the
  // energy sums — is the same on every machine and for every number of
  // threads. Unknown (infinite) until a list is built.
  double listed_at_half_skin = INFINITY;
};

// A candidate search done elsewhere (the OpenCL backend's device), which
// keeps the list it makes: NeighbourList still decides when and how to
// rebuild, wraps the bodies and keeps the books, and holds a copy of the
// candidates only once fetched.
class RemoteLister {
 public:
  struct Listing {
    std::size_t candidates = 0, body_pairs = 0, link_cells = 0;
    long listed_at_half_skin = 0;
  };
  virtual ~RemoteLister() = default;
  // Lists the candidates as NeighbourList's own rebuild would — whole
  // (`moved` null) or for the moved bodies' pairs — at the world's
  // positions (wrapped), with this skin and these wraps; the state of
  // `list` (whose generation rises by one once this returns) carried over.
  virtual Listing relist(const World& world, const NeighbourList& list, const std::vector<std::array<int, 2>>& wraps,
                         const std::vector<int>* moved, double skin) = 0;
  // The list as it now is, contact states included, into `list` (adopt).
  virtual void fetch(NeighbourList& list) = 0;
};

// Ranks that each list a part of a world (solver/parallel) decide
// together when to rebuild, mend or re-skin their lists: from the largest
// motion of all and from their counts added up. Each counts only the
// bodies it is given (its own grains, and the walls on one rank), and the
// candidates and pairs those decide, so the sums are the whole world's
// counts: every rank rebuilds when, and as, the serial run does.
class ListAgreement {
 public:
  virtual ~ListAgreement() = default;
  virtual double largest(double local) const = 0;
  virtual std::vector<double> totals(std::vector<double> local) const = 0;
};

// Where an adaptive skin starts in a world never listed: at `ceiling`, or
// at four mean edge lengths of the grains' skeletons where that is less (a
// skeleton of hundreds of vertices): the list holds every vertex–edge
// pair within the skin, so a skin of many edges lists many times the
// pairs, and it widens within steps where the grains move that fast
// (NeighbourList::update). Of the whole world: on ranks, rank 0 decides it
// before sharing the bodies out.
double starting_skin(const World& w, double ceiling);

// The candidate list and what is needed to decide when to rebuild it.
class NeighbourList {
 public:
  explicit NeighbourList(NeighbourSettings settings);
  NeighbourList(NeighbourSettings settings, NeighbourListState state, const World& world);
  ~NeighbourList();
  NeighbourList(NeighbourList&&) noexcept;
  NeighbourList& operator=(NeighbourList&&) noexcept;
  // For a checkpoint: the contacts as records (their flags as stored).
  NeighbourListState state(const World& world) const;

  // Rebuilds when the update condition says so (or on the first call);
  // returns true if it did. Wraps periodic bodies into the cell first, so
  // call it before computing world vertices... it does that itself.
  bool update(World& world);
  // The same, with the largest motion_of over the bodies already measured
  // by a loop that had them in hand (the integrator's); only when ready().
  bool update(World& world, double largest_motion);
  bool ready(const World& world) const { return built_ && reference_position_.size() == world.size(); }
  // Whether update(world, largest) would rebuild, mend or re-skin the list
  // (reading and perhaps wrapping the bodies), rather than only count the
  // step: a backend that keeps the bodies elsewhere brings them back first.
  bool will_change(const World& world, double largest) const;
  // Where each body was when the list was built (motion_of's reference).
  const std::vector<Vec2>& reference_positions() const { return reference_position_; }
  const std::vector<double>& reference_angles() const { return reference_angle_; }
  // Periods each body was wrapped by, per axis (empty before a rebuild).
  const std::vector<std::array<int, 2>>& wraps() const { return wraps_; }
  bool built() const { return built_; }
  // A list never built starts its skin at `delta` (at most the settings'
  // δ, its ceiling), where starting_skin() says so.
  void start_skin_at(double delta) {
    if (!built_) delta_ = std::min(delta, settings_.verlet_distance);
  }
  long steps_since_rebuild() const { return steps_since_rebuild_; }
  double listed_at_half_skin() const { return listed_at_half_skin_; }
  // How far body i may have moved any of its points since the list was
  // built: translation plus turn times its bounding radius.
  double motion_of(const World& w, std::size_t i) const {
    return norm(w.position[i] - reference_position_[i]) +
           w.bounding_radius[i] * std::abs(w.angle[i] - reference_angle_[i]);
  }

  // Every candidate as a full record, overlap and normal from the current
  // geometry (world vertices current); `active` only where the contact
  // touches now (a Gear correction can leave a contact opened but its
  // books still to close: stored active, reported apart).
  std::vector<Contact> records(const World& world) const;
  // visit(c) for each of records() that is active, in its order, c a record
  // that lives for the call only: what a frame reads, without storing them.
  void for_each_touching(const World& world, const std::function<void(const Contact&)>& visit) const;
  std::vector<Candidate>& candidates() { return candidates_; }
  const std::vector<Candidate>& candidates() const { return candidates_; }

  // Records after the next contact pass take each touching candidate's
  // normal and overlap as that pass found them rather than computing them
  // again: the same bits, for a frame written right after a step. What the
  // pass keeps is current until the next pass, a relisting or forget.
  void request_contact_geometry() { geometry_requested_ = true; }
  void forget_contact_geometry() { geometry_requested_ = geometry_current_ = false; }
  // The pass's side: room for every candidate's geometry when it was
  // requested (null otherwise), the request then taken; each pass makes
  // what was kept before stale.
  TouchGeometry* take_contact_geometry_request();
  // The pass has filled what take_contact_geometry_request() handed out.
  void contact_geometry_kept() { geometry_current_ = true; }
  bool contact_geometry_current() const { return geometry_current_; }

  std::vector<ContactState>& states() { return states_; }  // parallel to candidates()
  const std::vector<ContactState>& states() const { return states_; }
  // Per body, the indices of its candidates in increasing order:
  // body_candidates()[body_candidate_start()[b] .. body_candidate_start()[b + 1]).
  const std::vector<int>& body_candidate_start() const { return body_start_; }
  const std::vector<int>& body_candidates() const { return body_candidates_; }
  // How many candidates the list holds, here or with a remote lister.
  std::size_t size() const { return copy_stale_ ? remote_count_ : candidates_.size(); }

  // Rebuilds are listed by `remote` from now on (null: here again, after a
  // fetch); the candidates are then held there, and a copy here is current
  // only once fetched (copy_stale() false).
  void list_remotely(RemoteLister* remote) { remote_ = remote; }
  bool listed_remotely() const { return remote_ != nullptr; }
  bool copy_stale() const { return copy_stale_; }
  // The remote lister's list, in canonical order with the states parallel.
  void adopt(std::vector<Candidate> candidates, std::vector<ContactState> states);

  void set_threads(int threads) { settings_.threads = threads; }
  // Decisions taken with the other parts of the world (null: alone),
  // counting the bodies `counted` marks (kept by the caller).
  void agree_with(const ListAgreement* agreement, const std::vector<std::uint8_t>* counted) {
    agreement_ = agreement;
    counted_ = counted;
  }
  void set_strategy(NeighbourStrategy strategy) { settings_.strategy = strategy; }
  // Builds now what the strategy keeps from rebuild to rebuild (the
  // triangulation), at the bodies' current positions, rather than at the
  // next rebuild; the list itself is left as it is. For timings that should
  // not include that first build.
  void prepare(World& world);
  // The void-space triangulation, once a rebuild has used it (null before).
  const TriangulationNeighbours* triangulation() const { return triangulation_.get(); }
  double verlet_distance() const { return delta_; }  // δ in use
  std::size_t memory_bytes() const;                  // by the capacity of its arrays
  const NeighbourStats& stats() const { return stats_; }
  NeighbourStats& stats() { return stats_; }
  const NeighbourSettings& settings() const { return settings_; }

  // Rises at every rebuild, whole or partial: a copy of the list made at
  // one generation (another backend's) is current while it holds.
  long generation() const { return generation_; }
  // Partial rebuilds among stats().rebuilds, since this list was made (not
  // kept in checkpoints).
  long partial_rebuilds() const { return partial_rebuilds_; }
  // Wall-clock seconds spent rebuilding, since this list was made (not kept
  // in checkpoints): what the benchmark compares the strategies by.
  double rebuild_seconds() const { return rebuild_seconds_; }
  // Whether the last rebuild brought every body's world vertices up to
  // date (a whole one does; a partial one only those it could pair).
  bool all_vertices_current() const { return all_vertices_current_; }

 private:
  // A list that motion ended is rebuilt only for the bodies that moved
  // past half the skin when they are at most 1/kPartialShare of all.
  static constexpr std::size_t kPartialShare = 8;
  // What a partial rebuild costs per body whatever it relists, in
  // candidate evaluations (the link cells, the merge and the per-body
  // index).
  static constexpr double kPartialWalk = 20.0;
  void rebuild(World& world);
  void relist(World& world, const std::vector<int>* moved);
  double skin_for(bool partial) const;
  void relist_remotely(World& world, const std::vector<int>* moved, double skin);
  void finish_relist(std::chrono::steady_clock::time_point started);
  void require_copy(const char* what) const;
  void wrap_for_listing(World& world, const std::vector<int>* moved);
  void finish_whole_rebuild(const World& world, OrderedCandidates& fresh, long listed_at_half_skin, std::size_t pairs);
  void finish_partial_rebuild(const World& world, OrderedCandidates& fresh, const std::vector<std::uint8_t>& relisted,
                              const std::vector<int>& moved);
  std::vector<int> moved_beyond(const World& w, double beyond) const;
  void index_bodies(std::size_t body_count);
  Contact record(const World& world, std::size_t k) const;
  // record() into `c`, a Contact as constructed.
  void fill_record(const World& world, std::size_t k, Contact& c) const;

  NeighbourSettings settings_;
  std::vector<Candidate> candidates_;
  std::vector<ContactState> states_;
  std::vector<int> body_start_, body_candidates_;
  std::vector<Vec2> reference_position_;
  std::vector<double> reference_angle_;
  std::vector<std::array<int, 2>> wraps_;  // times each body was wrapped, per axis
  NeighbourStats stats_;
  bool built_ = false;
  double delta_ = 0.0;
  long steps_since_rebuild_ = 0;
  double listed_at_half_skin_ = INFINITY;  // see NeighbourListState
  long partial_rebuilds_ = 0;
  long generation_ = 0;
  double rebuild_seconds_ = 0.0;
  bool all_vertices_current_ = true;
  std::vector<TouchGeometry> geometry_;  // parallel to candidates_ where current
  bool geometry_requested_ = false, geometry_current_ = false;
  std::unique_ptr<TriangulationNeighbours> triangulation_;  // strategy = triangulation
  RemoteLister* remote_ = nullptr;
  bool copy_stale_ = false;  // the candidates here are not the remote lister's
  std::size_t remote_count_ = 0;
  // What the skin's decisions weigh, over all the agreeing parts.
  struct Counts {
    double listed = 0.0, bodies = 0.0, vertices = 0.0, body_pairs = 0.0, half_skin = 0.0, moved = 0.0;
  };
  Counts counts(const World& w, std::size_t moved) const;
  // Would half the skin cost less, a trigger relisting `relisted` bodies?
  // The slow-motion rule of update(): the skin halves after a long, slow list.
  bool thins_by_rate(const World& w, double largest, long steps) const;
  bool thinner_list_pays(const Counts& c, double relisted) const;
  double rebuild_cost(const Counts& c, double relisted) const;  // in candidate evaluations
  const ListAgreement* agreement_ = nullptr;
  const std::vector<std::uint8_t>* counted_ = nullptr;
};

}  // namespace sphero
