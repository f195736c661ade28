// The soft model's engine spread over MPI ranks (docs/PARALLEL.md): each
// rank steps an Engine over the grains of its subdomain — a box Zoltan's
// recursive bisection gives it — plus their ghosts (the grains near enough
// to touch them) and every wall, and keeps nothing of the other grains.
// Rank 0 makes the run's state and shares it out; after each step the
// owners send their ghosts' motion; when some grain has moved half the
// ghost margin, the grains are shared out again, point to point, each with
// all of itself (parallel/body_records.h), its list references and its
// contacts' springs. For checkpoints each rank gives its part of the
// state (parallel/state_parts.h): no rank holds the whole state.
// Every grain's motion is computed as the serial engine computes it: the
// same forces added in the same candidate order, so the same bits. The
// ranks rebuild their lists when and as the serial run does (agreeing on
// the motion and the counts), and each rank's list is the whole list's
// part among the bodies it holds, so wraps into a periodic cell come at
// the serial run's steps too. Walls, which every rank holds, sum their
// contacts from every rank in that order too (wall_books.cpp); their
// energy and work are booked once, here.
#pragma once

#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "parallel/body_records.h"
#include "parallel/grain_records.h"
#include "parallel/ranks.h"
#include "parallel/state_parts.h"
#include "parallel/subdomains.h"

namespace sphero {

// Where a rank's wall-clock time went, since the engine was made.
struct RankTimes {
  double stepping = 0.0;     // its engine's steps
  double exchanging = 0.0;   // ghosts, walls' shares, the agreed checks
  double decomposing = 0.0;  // sharing the grains out again
};

class DistributedEngine {
 public:
  // Rank 0 passes the whole state (an engine made from the scene, or a
  // checkpoint); the other ranks' snapshots are not read. Throws
  // std::invalid_argument, on every rank, for what ranks cannot run yet or
  // fewer grains than ranks.
  DistributedEngine(const Ranks& ranks, EngineSnapshot whole);
  DistributedEngine(const DistributedEngine&) = delete;  // its engine agrees through ranks_
  DistributedEngine& operator=(const DistributedEngine&) = delete;

  // One step on every rank. An InstabilityError met on any rank is thrown
  // on every rank, with the message that names the lowest body (the serial
  // run's); another failure on any rank is thrown on every rank too.
  void step();
  // What the whole run shares now (state_parts.h), the same on every
  // rank but its power, which rank 0 alone adds up. Collective.
  EngineSnapshot header();
  // The run's identity, rank 0's, on every rank.
  const RunLineage& lineage() const { return lineage_; }
  // This rank's part of the state now: its own grains, on rank 0 the
  // walls too, and the candidates they are home to; whole, or its bodies'
  // records one at a time (part_bodies of them, in order of their numbers).
  StatePart part() const;
  std::size_t part_bodies() const;
  void for_each_part_body(const std::function<void(const BodyRecord&)>& take) const;
  CandidateStream part_candidates() const;
  // The ledger summed over the ranks (the same on every rank). Collective.
  EnergyLedger ledger() const;
  // The deepest overlap so far over the ranks. Collective.
  double deepest_overlap() const;

  double time() const { return engine_->time(); }
  long step_count() const { return engine_->step_count(); }
  const EngineSettings& settings() const { return engine_->settings(); }
  double time_step_limit() const { return engine_->time_step_limit(); }
  std::size_t grains() const { return grains_; }  // in the whole run
  std::size_t grains_owned() const { return owned_count_; }
  std::size_t bodies_held() const { return held_.size(); }
  long decompositions() const { return decompositions_; }
  double ghost_margin() const { return margin_; }
  const Engine& local() const { return *engine_; }
  // Per body of local()'s world, its number in the run.
  const std::vector<int>& held_bodies() const { return held_; }
  // Per body of local()'s world, 1 where this rank writes it in a frame's
  // piece: its own grains, and on rank 0 the walls.
  std::vector<std::uint8_t> bodies_written() const;
  const RankTimes& times() const { return times_; }

 private:
  // What a sharing out sends from: a world whose bodies are numbered
  // `numbers` in the run, their owners (−1 for walls), candidates and
  // states in its numbering, and each body's motion and list record.
  struct Sharing {
    const World& world;
    const std::vector<int>& numbers;
    const std::vector<int>& owner;
    const std::vector<Candidate>& candidates;
    const std::vector<ContactState>& states;
    std::function<OwnedBody(std::size_t, int)> record;
  };
  // What a sharing out sends each rank, as bytes.
  struct Parcels {
    std::vector<std::vector<char>> bodies, keys, stated, states;
  };

  void share_first(EngineSnapshot& whole, const EnergyLedger& ledger, const LedgerBooks& books);
  Parcels pack(const Sharing& from);
  void unpack(Parcels parcels, std::vector<BodyRecord> kept, const World& shared, const EnergyLedger& ledger,
              const LedgerBooks& books, double time, long step);
  void start_engine(std::vector<BodyRecord> records, const World& shared, const EnergyLedger& ledger,
                    const LedgerBooks& books, double time, long step);
  NeighbourListState list_part(const World& local, const std::vector<BodyRecord>& records) const;
  std::vector<int> holders_of(const World& w, std::size_t k, int owner) const;
  OwnedBody record_of(std::size_t held_index, int owner) const;
  void take_list_scalars();
  void take_candidate_streams(const std::vector<CandidateStream>& streams);
  void agree_on_boxes(const World& w, const std::vector<std::size_t>& owned, const std::vector<int>& parts);
  void share_out();
  void stop_on_any_failure(const std::string& failure, double unstable_body) const;
  void book_wall_work(const std::vector<std::pair<GrainMotion, BodyConstraint>>& walls_at_start);
  void refresh_ghosts();
  void check_energy_of_all(const EnergyLedger& total);
  void settle_wall_forces();
  void kick_free_walls(const std::vector<GrainMotion>& before);
  // Each wall's power, in walls_'s order (as the serial engine books them).
  std::vector<double> wall_powers() const;
  std::vector<double> driven_wall_powers(const std::vector<std::pair<GrainMotion, BodyConstraint>>& at_start) const;
  BodyEnergySums walls_energies() const;
  // The running ledgers of the ranks and the walls, added (collective).
  EnergyLedger running_ledger() const;
  double largest_motion_since_decomposition() const;
  double power_in_body_order() const;
  bool in_part(std::size_t held_index) const;

  Ranks ranks_;
  EngineSettings settings_;
  RunLineage lineage_;
  // The candidates and states (canonical order, portable: parallel/grain_
  // records.h) a sharing out brought here.
  std::vector<Candidate> keys_;
  std::vector<ContactState> key_states_;
  ListScalars list_scalars_;
  std::vector<int> owner_;                 // per body held: its rank, −1 for walls (every rank holds them)
  std::vector<SubdomainBox> boxes_;        // per rank, its subdomain's box
  std::vector<int> held_;                  // the bodies this rank holds (their numbers in the run), increasing
  std::vector<std::vector<int>> send_;     // per rank: the held indices of own grains it holds as ghosts
  std::vector<std::vector<int>> receive_;  // per rank: the held indices of its grains held here as ghosts
  std::vector<Vec2> reference_position_;   // held bodies, at the decomposition
  std::vector<double> reference_angle_;
  std::unique_ptr<Engine> engine_;
  std::size_t grains_ = 0;
  std::size_t owned_count_ = 0;
  double margin_ = 0.0;
  double deepest_overlap_ = 0.0, deepest_overlap_time_ = 0.0;
  long decompositions_ = 0;
  std::vector<int> walls_;       // held indices of the walls (every rank holds them all)
  std::vector<int> free_walls_;  // those free along some axis (pressure plates)
  std::vector<int> vibrating_walls_;
  std::vector<double> wall_powers_;  // of the walls' imposed motions, at the last step's end
  ExactSum wall_work_;               // their work since the start, by the trapezoid
  RankTimes times_;
  std::unique_ptr<ListAgreement> agreement_;  // the ranks' list rebuilds, agreed
};

// What stops a scene from running on ranks (an empty string if nothing).
std::string distributed_refusal(const EngineSettings& s);

}  // namespace sphero
