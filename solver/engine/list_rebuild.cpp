// A neighbour-list rebuild: the candidate search over link cells (or all
// pairs, the reference), shared out between threads, then the canonical
// order and the carry-over of contact state.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

#include "engine/candidate_order.h"
#include "engine/feature_pairs.h"
#include "engine/link_cells.h"
#include "engine/neighbour_list.h"
#include "engine/thread_team.h"
#include "engine/triangulation_neighbours.h"

namespace sphero {
namespace {

double period(const World& w, int axis) { return axis == 0 ? w.cell.size.x : w.cell.size.y; }

// The pair search of one rebuild: which pairs it decides, through which
// periodic image, and the finders (one per thread) that list their
// feature pairs.
class PairSearch {
 public:
  // counted: null, or the bodies whose decided pairs and listed candidates
  // (as vertex body) the counts take (NeighbourList::agree_with).
  PairSearch(World& w, const std::vector<std::array<int, 2>>& wraps, const std::vector<int>* moved, double skin,
             int threads, const std::uint8_t* counted)
      : w_(w),
        wraps_(wraps),
        partial_(moved != nullptr),
        moved_(moved),
        skin_(skin),
        threads_(threads),
        counted_(counted) {
    for (std::size_t i = 0; i < w.size(); ++i) (w.is_wall[i] ? walls_ : grains_).push_back(static_cast<int>(i));
    relisted_.assign(partial_ ? w.size() : 0, 0);
    if (partial_)
      for (int i : *moved) relisted_[static_cast<std::size_t>(i)] = 1;
  }

  // The grains whose pairs are decided anew: all, or the moved (never a
  // wall: NeighbourList::update rebuilds whole when one moved).
  const std::vector<int>& searched() const { return partial_ ? *moved_ : grains_; }
  const std::vector<std::uint8_t>& relisted() const { return relisted_; }

  void make_finders(bool contact_lists) {
    if (!partial_) chunks_ = chunk_circles(w_);
    finders_.reserve(static_cast<std::size_t>(threads_));
    for (int t = 0; t < threads_; ++t) {
      finders_.emplace_back(w_, skin_, contact_lists, &chunks_);
      finders_.back().counted = counted_;
    }
  }
  void search_all_pairs();
  std::size_t search_link_cells();  // returns the number of cells
  void search_triangulation(TriangulationNeighbours& neighbours);
  void search_walls();
  std::vector<Candidate> take_found();
  long listed_at_half_skin() const;
  std::size_t pairs() const { return pairs_; }

 private:
  void minimum_image(int i, int j, Vec2& shift, std::array<int, 2>& image) const;
  bool within_reach(int i, int j, Vec2& shift, std::array<int, 2>& image) const;
  bool list_pair(FeaturePairFinder& finder, int i, int j);
  bool decided_from(int i, int j) const;
  void update_vertices_of(std::vector<std::uint8_t>& involved);
  void update_vertices_near_moved(const LinkCells& cells);
  template <class Visit>
  void in_parallel(std::size_t count, Visit&& visit);
  bool counts(int grain) const { return !counted_ || (counted_[grain] & homes_contacts); }
  std::size_t list_wall_images(FeaturePairFinder& finder, int grain,
                               const std::vector<std::array<int, 2>>& wall_periods);

  World& w_;
  const std::vector<std::array<int, 2>>& wraps_;
  bool partial_;
  const std::vector<int>* moved_;
  double skin_;
  int threads_;
  const std::uint8_t* counted_;
  std::vector<int> grains_, walls_;
  std::vector<std::uint8_t> relisted_;
  SkeletonChunks chunks_;
  std::vector<FeaturePairFinder> finders_;
  std::size_t pairs_ = 0;
};

// Image shift and wrap-invariant image key of body j seen from body i:
// with x = X − m L (X unwrapped, m wraps so far), the image x_j + k L is
// X_j − X_i + (k − m_j + m_i) L away from body i, whatever the wraps.
void PairSearch::minimum_image(int i, int j, Vec2& shift, std::array<int, 2>& image) const {
  shift = {};
  image = {0, 0};
  for (int axis = 0; axis < 2; ++axis) {
    if (!w_.cell.periodic[axis]) continue;
    const double L = period(w_, axis);
    const double gap = axis == 0 ? w_.position[j].x - w_.position[i].x : w_.position[j].y - w_.position[i].y;
    const double k = -std::round(gap / L);
    (axis == 0 ? shift.x : shift.y) = k * L;
    image[axis] = static_cast<int>(k) - wraps_[j][axis] + wraps_[i][axis];
  }
}

// Whether bodies i < j are near enough to list (their bounding circles
// within the skin of each other), and j's image seen from i.
bool PairSearch::within_reach(int i, int j, Vec2& shift, std::array<int, 2>& image) const {
  minimum_image(i, j, shift, image);
  return norm(w_.position[j] + shift - w_.position[i]) < w_.bounding_radius[i] + w_.bounding_radius[j] + skin_;
}

// Lists the feature pairs of bodies i and j, taken as (lower, higher)
// whichever of the two the search comes from; returns whether it found any.
bool PairSearch::list_pair(FeaturePairFinder& finder, int i, int j) {
  const int low = std::min(i, j), high = std::max(i, j);
  Vec2 shift;
  std::array<int, 2> image;
  if (!within_reach(low, high, shift, image)) return false;
  return finder.add_pair(low, high, shift, image);
}

// Is pair (i, j) decided from body i? Every pair once: a whole rebuild
// from its lower body, a partial one from the lower of two relisted
// bodies, or from the relisted one.
bool PairSearch::decided_from(int i, int j) const {
  if (j == i) return false;
  if (!partial_) return j > i;
  return !relisted_[static_cast<std::size_t>(j)] || j > i;
}

// Bodies handed out a few at a time to whichever member is free: the
// search costs more where the grains are denser. At most 64 at a time, and
// at least eight handfuls per thread, so that no member waits out
// another's last handful.
template <class Visit>
void PairSearch::in_parallel(std::size_t count, Visit&& visit) {
  std::atomic<std::size_t> next{0};
  std::vector<std::size_t> found_pairs(static_cast<std::size_t>(threads_), 0);
  const std::size_t handful = std::clamp<std::size_t>(count / (8 * static_cast<std::size_t>(threads_)), 1, 64);
  ThreadTeam::run(threads_, [&](int member, int) {
    FeaturePairFinder& finder = finders_[static_cast<std::size_t>(member)];
    std::size_t mine = 0;  // stored once: neighbouring counters would share a cache line
    for (std::size_t first; (first = next.fetch_add(handful, std::memory_order_relaxed)) < count;)
      for (std::size_t index = first; index < std::min(count, first + handful); ++index) {
        const std::size_t found = visit(finder, index);
        if (counts(searched()[index])) mine += found;
      }
    found_pairs[static_cast<std::size_t>(member)] = mine;
  });
  for (std::size_t p : found_pairs) pairs_ += p;
}

// A partial rebuild's vertices, seams and chunk circles: of the bodies it
// can pair (`involved`) and of every wall.
void PairSearch::update_vertices_of(std::vector<std::uint8_t>& involved) {
  for (int b : walls_) involved[static_cast<std::size_t>(b)] = 1;
  ThreadTeam::for_each(threads_, w_.size(), [&](std::size_t i) {
    if (involved[i]) update_body_vertices(w_, i);
  });
  mark_seams(w_);
  chunks_ = chunk_circles(w_, &involved);
}

// The relisted bodies and those within reach of one, by the test
// list_pair makes (the pair taken in the same order).
void PairSearch::update_vertices_near_moved(const LinkCells& cells) {
  std::vector<std::uint8_t> involved(w_.size(), 0);
  for (int i : searched()) {
    involved[static_cast<std::size_t>(i)] = 1;
    cells.for_each_body_near(i, [&](int j) {
      Vec2 shift;
      std::array<int, 2> image;
      if (j != i && within_reach(std::min(i, j), std::max(i, j), shift, image))
        involved[static_cast<std::size_t>(j)] = 1;
    });
  }
  update_vertices_of(involved);
}

void PairSearch::search_all_pairs() {
  if (partial_) {
    std::vector<std::uint8_t> everyone(w_.size(), 1);
    update_vertices_of(everyone);
  }
  for (int i : searched())
    for (int j : grains_)
      if (decided_from(i, j) && list_pair(finders_[0], i, j) && counts(i)) ++pairs_;
}

std::size_t PairSearch::search_link_cells() {
  if (searched().empty()) return 0;
  const LinkCells cells(w_, grains_, skin_, threads_);
  if (partial_) update_vertices_near_moved(cells);
  in_parallel(searched().size(), [&](FeaturePairFinder& finder, std::size_t index) {
    const int i = searched()[index];
    std::size_t listed = 0;
    cells.for_each_body_near(i, [&](int j) {
      if (decided_from(i, j)) listed += list_pair(finder, i, j);
    });
    return listed;
  });
  return cells.cell_count();
}

// The triangulation needs every grain's vertices, whatever a partial
// rebuild relists: it moves them all.
void PairSearch::search_triangulation(TriangulationNeighbours& neighbours) {
  if (searched().empty()) return;
  if (partial_) {
    std::vector<std::uint8_t> everyone(w_.size(), 1);
    update_vertices_of(everyone);
  }
  // A whole rebuild decides each pair from the grain with the larger
  // sphero-radius (the lower-numbered one on a tie), whose walk is the
  // shorter that still finds it; a partial one from the relisted grains,
  // which walk far enough to find all of theirs.
  neighbours.follow(w_, wraps_, skin_, threads_, !partial_);
  const auto decided_by_walk_from = [&](int i, int j) {
    if (partial_) return decided_from(i, j);
    const double ri = w_.radius[static_cast<std::size_t>(i)], rj = w_.radius[static_cast<std::size_t>(j)];
    return rj < ri || (rj == ri && j > i);
  };
  in_parallel(searched().size(), [&](FeaturePairFinder& finder, std::size_t index) {
    const int i = searched()[index];
    const int member = static_cast<int>(&finder - finders_.data());
    std::size_t listed = 0;
    neighbours.for_each_grain_near(member, i, [&](int j) {
      if (decided_by_walk_from(i, j)) listed += list_pair(finder, i, j);
    });
    return listed;
  });
}

// Grain `grain` against every wall, through each periodic image of the
// wall that can reach it.
std::size_t PairSearch::list_wall_images(FeaturePairFinder& finder, int grain,
                                         const std::vector<std::array<int, 2>>& wall_periods) {
  std::size_t listed = 0;
  for (std::size_t k = 0; k < walls_.size(); ++k) {
    const int b = walls_[k];
    const auto [hx, hy] = wall_periods[k];
    for (int ix = hx - 1; ix <= hx + 1; ++ix) {
      if (ix != hx && !w_.cell.periodic[0]) continue;
      for (int iy = hy - 1; iy <= hy + 1; ++iy) {
        if (iy != hy && !w_.cell.periodic[1]) continue;
        const Vec2 shift{ix * w_.cell.size.x, iy * w_.cell.size.y};
        if (finder.skeleton_distance(b, shift, w_.position[grain]) >= w_.bounding_radius[grain] + w_.radius[b] + skin_)
          continue;
        listed += finder.add_pair(grain, b, shift, {ix + wraps_[grain][0], iy + wraps_[grain][1]});
      }
    }
  }
  return listed;
}

// A moving wall (a shear plate) may have drifted periods away from the
// cell: its images are searched around the one that brings it back in.
void PairSearch::search_walls() {
  if (walls_.empty()) return;
  std::vector<std::array<int, 2>> wall_periods(walls_.size());
  for (std::size_t k = 0; k < walls_.size(); ++k)
    wall_periods[k] = periods_into_cell(w_, static_cast<std::size_t>(walls_[k]));
  in_parallel(searched().size(), [&](FeaturePairFinder& finder, std::size_t index) {
    return list_wall_images(finder, searched()[index], wall_periods);
  });
}

std::vector<Candidate> PairSearch::take_found() {
  if (threads_ == 1) return std::move(finders_[0].found);
  std::size_t total = 0;
  for (const FeaturePairFinder& f : finders_) total += f.found.size();
  std::vector<Candidate> all;
  all.reserve(total);
  for (const FeaturePairFinder& f : finders_) all.insert(all.end(), f.found.begin(), f.found.end());
  return all;
}

long PairSearch::listed_at_half_skin() const {
  long count = 0;
  for (const FeaturePairFinder& f : finders_) count += f.listed_at_half_skin;
  return count;
}

}  // namespace

// Wrap into the periodic cell only at a rebuild, so that between rebuilds
// the image offsets stored in the contacts stay valid; a partial rebuild
// wraps only the bodies whose candidates it makes anew.
void NeighbourList::wrap_for_listing(World& w, const std::vector<int>* moved) {
  if (wraps_.size() != w.size()) wraps_.assign(w.size(), {0, 0});
  const auto wrap = [&](std::size_t i) {
    if (w.is_wall[i]) return;
    for (int axis = 0; axis < 2; ++axis) {
      if (!w.cell.periodic[axis]) continue;
      const double low = axis == 0 ? w.cell.low.x : w.cell.low.y;
      double& coordinate = axis == 0 ? w.position[i].x : w.position[i].y;
      const double turns = std::floor((coordinate - low) / period(w, axis));
      coordinate -= turns * period(w, axis);
      wraps_[i][axis] += static_cast<int>(turns);
    }
  };
  if (moved)
    for (int i : *moved) wrap(static_cast<std::size_t>(i));
  else ThreadTeam::for_each(std::max(1, settings_.threads), w.size(), wrap);
}

// A whole rebuild lets each body move δ before the next (2δ between two
// bodies). A partial one: the moved body δ from now, a kept one δ from its
// own reference, which it may already be δ/2 from — 1.5δ from now (update
// picks the moved bodies so). Each of a new pair is allowed 1.5δ: the
// finder's slack for turns assumes an even share. The rigid model's gap
// comes on top: pairs that close within it stay listed.
double NeighbourList::skin_for(bool partial) const { return (partial ? 3.0 : 2.0) * delta_ + settings_.gap; }

// `moved` null: every pair is decided anew (a whole rebuild). Otherwise only
// the pairs of those bodies, none of them a wall (the others' candidates
// are kept; see update).
void NeighbourList::relist(World& w, const std::vector<int>* moved) {
  const auto started = std::chrono::steady_clock::now();
  const bool partial = moved != nullptr;
  wrap_for_listing(w, moved);
  if (remote_) {
    relist_remotely(w, moved, skin_for(partial));
    finish_relist(started);
    return;
  }
  // A whole rebuild brings every vertex up to date, a partial one only
  // those of the bodies its pairs can reach (once the link cells say which).
  if (!partial) {
    update_world_vertices(w, std::max(1, settings_.threads));
    mark_seams(w);  // constraints may have changed since the last rebuild
  }
  all_vertices_current_ = !partial;
  const double skin = skin_for(partial);
  PairSearch search(w, wraps_, moved, skin, std::max(1, settings_.threads), counted_ ? counted_->data() : nullptr);
  search.make_finders(settings_.contact_lists);
  if (settings_.brute_force) {
    search.search_all_pairs();
  } else if (settings_.strategy == NeighbourStrategy::triangulation) {
    if (!triangulation_) triangulation_ = std::make_unique<TriangulationNeighbours>();
    search.search_triangulation(*triangulation_);
  } else if (const std::size_t cells = search.search_link_cells(); cells > 0) {
    stats_.link_cells = cells;
  }
  search.search_walls();
  OrderedCandidates fresh = order_and_carry_over(search.take_found(), w.size(), candidates_, states_);
  if (partial) finish_partial_rebuild(w, fresh, search.relisted(), *moved);
  else finish_whole_rebuild(w, fresh, search.listed_at_half_skin(), search.pairs());
  index_bodies(w.size());
  finish_relist(started);
}

void NeighbourList::finish_relist(std::chrono::steady_clock::time_point started) {
  built_ = true;
  steps_since_rebuild_ = 0;
  ++stats_.rebuilds;
  ++generation_;
  rebuild_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

// The remote lister makes the list and keeps it; the books are kept here
// as for a list made here.
void NeighbourList::relist_remotely(World& w, const std::vector<int>* moved, double skin) {
  const RemoteLister::Listing got = remote_->relist(w, *this, wraps_, moved, skin);
  if (got.link_cells > 0) stats_.link_cells = got.link_cells;
  candidates_.clear(), states_.clear(), body_start_.clear(), body_candidates_.clear();
  remote_count_ = got.candidates;
  copy_stale_ = true;
  all_vertices_current_ = false;  // the host's world vertices were not touched
  if (moved) {
    for (int i : *moved) {
      reference_position_[static_cast<std::size_t>(i)] = w.position[static_cast<std::size_t>(i)];
      reference_angle_[static_cast<std::size_t>(i)] = w.angle[static_cast<std::size_t>(i)];
    }
    ++partial_rebuilds_;
    return;
  }
  listed_at_half_skin_ = static_cast<double>(got.listed_at_half_skin);
  reference_position_ = w.position;
  reference_angle_ = w.angle;
  stats_.body_pairs = got.body_pairs;
}

void NeighbourList::prepare(World& w) {
  if (settings_.strategy != NeighbourStrategy::triangulation || triangulation_) return;
  if (wraps_.size() != w.size()) wraps_.assign(w.size(), {0, 0});
  update_world_vertices(w);
  triangulation_ = std::make_unique<TriangulationNeighbours>();
  triangulation_->follow(w, wraps_, 2.0 * delta_ + settings_.gap, std::max(1, settings_.threads), true);
}

void NeighbourList::finish_whole_rebuild(const World& w, OrderedCandidates& fresh, long listed_at_half_skin,
                                         std::size_t pairs) {
  listed_at_half_skin_ = static_cast<double>(listed_at_half_skin);
  candidates_ = std::move(fresh.candidates);
  states_ = std::move(fresh.states);
  reference_position_ = w.position;
  reference_angle_ = w.angle;
  stats_.body_pairs = pairs;
}

// The kept candidates (neither body moved) are in canonical order, and so
// are the new ones: one merge.
void NeighbourList::finish_partial_rebuild(const World& w, OrderedCandidates& fresh,
                                           const std::vector<std::uint8_t>& relisted, const std::vector<int>& moved) {
  merge_kept(candidates_, states_, relisted, fresh);
  candidates_ = std::move(fresh.candidates);
  states_ = std::move(fresh.states);
  for (int i : moved) {
    reference_position_[static_cast<std::size_t>(i)] = w.position[static_cast<std::size_t>(i)];
    reference_angle_[static_cast<std::size_t>(i)] = w.angle[static_cast<std::size_t>(i)];
  }
  ++partial_rebuilds_;
}

}  // namespace sphero
