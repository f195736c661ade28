#include "engine/neighbour_list.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/capacity.h"
#include "engine/contact_geometry.h"
#include "engine/thread_team.h"
#include "engine/triangulation_neighbours.h"

namespace sphero {

double starting_skin(const World& w, double ceiling) {
  double length = 0.0, edges = 0.0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w.is_wall[i] || w.vertex_count[i] < 2) continue;
    const int first = w.vertex_begin[i], count = w.vertex_count[i];
    const int sides = w.closed[i] ? count : count - 1;
    const auto body = static_cast<int>(i);
    for (int k = 0; k < sides; ++k)
      length += norm(local_vertex_of(w, body, first + (k + 1) % count) - local_vertex_of(w, body, first + k));
    edges += sides;
  }
  if (edges == 0.0) return ceiling;
  return std::clamp(4.0 * length / edges, ceiling / 1024.0, ceiling);
}

NeighbourList::NeighbourList(NeighbourSettings settings) : settings_(settings), delta_(settings.verlet_distance) {}
NeighbourList::~NeighbourList() = default;
NeighbourList::NeighbourList(NeighbourList&&) noexcept = default;
NeighbourList& NeighbourList::operator=(NeighbourList&&) noexcept = default;

NeighbourList::NeighbourList(NeighbourSettings settings, NeighbourListState state, const World& world)
    : settings_(settings),
      reference_position_(std::move(state.reference_position)),
      reference_angle_(std::move(state.reference_angle)),
      wraps_(std::move(state.wraps)),
      stats_(state.stats),
      built_(state.built),
      delta_(state.verlet_distance > 0.0 ? state.verlet_distance : settings.verlet_distance),
      steps_since_rebuild_(state.steps_since_rebuild),
      listed_at_half_skin_(state.listed_at_half_skin) {
  candidates_.reserve(state.contacts.size());
  states_.reserve(state.contacts.size());
  for (const Contact& c : state.contacts) {
    candidates_.push_back(packed(world, c));
    states_.push_back(state_of(c));
  }
  index_bodies(world.size());
}

Contact NeighbourList::record(const World& w, std::size_t k) const {
  Contact c;
  fill_record(w, k, c);
  return c;
}

void NeighbourList::fill_record(const World& w, std::size_t k, Contact& c) const {
  const Candidate& key = candidates_[k];
  const ContactState& s = states_[k];
  set_key(c, key);
  c.xi = s.xi;
  c.damping_total = s.damping_total, c.sliding_total = s.sliding_total;
  if (!key.active) return;
  c.sliding = key.sliding;
  c.point = s.point;
  c.force = s.force;
  c.normal_force = s.normal_force;
  c.viscous_force = s.viscous_force;
  // The arithmetic of evaluate_contact: the same bits.
  const ContactLaw& law = w.law_between(key.vertex_body, key.edge_body);
  if (law.kt > 0.0) {
    c.tangential_spring_force = -law.kt * s.xi;
    c.tangential_energy = 0.5 * law.kt * norm2(s.xi);
  } else {
    c.tangential_spring_force = {}, c.tangential_energy = 0.0;
  }
  if (geometry_current_) {
    c.overlap = geometry_[k].overlap, c.normal = geometry_[k].normal;
    return;
  }
  const ContactGeometry g = contact_geometry(w, key);
  if (g.touching) c.overlap = g.overlap, c.normal = g.normal;
}

TouchGeometry* NeighbourList::take_contact_geometry_request() {
  geometry_current_ = false;
  if (!geometry_requested_) return nullptr;
  geometry_requested_ = false;
  geometry_.resize(candidates_.size());
  return geometry_.data();
}

void NeighbourList::require_copy(const char* what) const {
  if (copy_stale_)
    throw std::logic_error(std::string("NeighbourList::") + what +
                           ": the list is held by its remote lister; fetch it first");
}

void NeighbourList::adopt(std::vector<Candidate> candidates, std::vector<ContactState> states) {
  if (candidates.size() != states.size())
    throw std::logic_error("NeighbourList::adopt: candidates and states differ in count");
  candidates_ = std::move(candidates);
  states_ = std::move(states);
  geometry_current_ = false;
  copy_stale_ = false;
  index_bodies(reference_position_.size());
}

NeighbourListState NeighbourList::state(const World& world) const {
  require_copy("state");
  NeighbourListState s{{},     reference_position_,  reference_angle_,    wraps_, stats_, built_,
                       delta_, steps_since_rebuild_, listed_at_half_skin_};
  s.contacts.reserve(candidates_.size());
  for (std::size_t k = 0; k < candidates_.size(); ++k) s.contacts.push_back(record(world, k));
  return s;
}

std::vector<Contact> NeighbourList::records(const World& world) const {
  require_copy("records");
  std::vector<Contact> out;
  out.reserve(candidates_.size());
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    out.push_back(record(world, k));
    Contact& c = out.back();
    if (c.active && c.overlap == 0.0) {
      // Opened at a re-evaluation (Gear's corrector) with its books still
      // to close: no force acts now.
      c.active = c.sliding = false;
      c.force = c.viscous_force = c.tangential_spring_force = {};
      c.normal_force = c.tangential_energy = 0.0;
    }
  }
  return out;
}

void NeighbourList::for_each_touching(const World& world, const std::function<void(const Contact&)>& visit) const {
  require_copy("for_each_touching");
  // One record for all: fill_record sets every field of an active
  // candidate but the overlap and normal, which it sets where it touches.
  Contact c;
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    if (!candidates_[k].active) continue;
    c.overlap = 0.0, c.normal = {};
    fill_record(world, k, c);
    if (c.overlap != 0.0) visit(c);  // else opened: records() reports it inactive
  }
}

std::size_t NeighbourList::memory_bytes() const {
  return capacity_bytes(candidates_) + capacity_bytes(states_) + capacity_bytes(body_start_) +
         capacity_bytes(body_candidates_) + capacity_bytes(reference_position_) + capacity_bytes(reference_angle_) +
         capacity_bytes(wraps_) + capacity_bytes(geometry_) + (triangulation_ ? triangulation_->memory_bytes() : 0);
}

// Each body's candidates, in candidate order, so that forces can be
// gathered per body in parallel and still be added in that order.
void NeighbourList::index_bodies(std::size_t body_count) {
  body_start_.assign(body_count + 1, 0);
  for (const Candidate& c : candidates_) ++body_start_[c.vertex_body + 1], ++body_start_[c.edge_body + 1];
  for (std::size_t b = 0; b < body_count; ++b) body_start_[b + 1] += body_start_[b];
  body_candidates_.resize(2 * candidates_.size());
  // A skin that thinned (the adaptive δ starts at its widest) leaves
  // room for several times the candidates now listed.
  if (body_candidates_.capacity() > 2 * body_candidates_.size() + 1024) body_candidates_.shrink_to_fit();
  std::vector<int> fill(body_start_.begin(), body_start_.end() - 1);
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    body_candidates_[fill[candidates_[k].vertex_body]++] = static_cast<int>(k);
    body_candidates_[fill[candidates_[k].edge_body]++] = static_cast<int>(k);
  }
}

bool NeighbourList::update(World& world) {
  if (!ready(world)) return update(world, 0.0);
  // A maximum: the same whatever the threads.
  const double largest = ThreadTeam::reduce(
      settings_.threads, world.size(), 0.0, [&](std::size_t i) { return motion_of(world, i); }, std::greater<>());
  return update(world, largest);
}

// The adaptive skin follows the motion (docs/ENGINE.md, "The adaptive
// skin"). A list that outlived 200 steps while the bodies moved at less
// than δ/4 per 200 steps halves δ — below 1/64 of the ceiling only if half
// the skin lists at most 80% of the candidates. (A rate, not the
// displacement: a body that crept and stopped leaves a large displacement
// from an old reference that says nothing of now.) A list that lasted
// under 10 steps doubles δ; one that motion ended later halves it where
// that pays (thinner_list_pays). A list that motion ended with few bodies
// past δ/2 is mended (a partial rebuild) rather than widened or rebuilt.
bool NeighbourList::update(World& world, double largest) {
  geometry_current_ = false;  // the bodies have moved since the last pass
  if (!ready(world)) {
    rebuild(world);
    return true;
  }
  if (agreement_) largest = agreement_->largest(largest);
  ++steps_since_rebuild_;
  const auto steps = static_cast<double>(steps_since_rebuild_);
  const double smallest_delta = settings_.verlet_distance / 1024.0;
  if (largest > delta_) {
    // Few bodies moved: only their pairs are listed anew (a partial
    // rebuild), and the skin stays. The bodies past half the skin go with
    // them, which also keeps the next trigger away.
    std::vector<int> moved;
    if (settings_.partial_rebuilds) moved = moved_beyond(world, 0.5 * delta_);
    std::size_t moved_counted = moved.size();
    if (counted_)
      moved_counted = static_cast<std::size_t>(std::count_if(moved.begin(), moved.end(), [&](int i) {
        return ((*counted_)[static_cast<std::size_t>(i)] & counts_in_list) != 0;
      }));
    const Counts c = counts(world, moved_counted);
    // (Walls are in every part alike.)
    const bool few =
        c.moved > 0.0 && c.moved <= std::floor(c.bodies / kPartialShare) &&
        std::none_of(moved.begin(), moved.end(), [&](int i) { return world.is_wall[static_cast<std::size_t>(i)]; });
    const double relisted = few ? c.moved : c.bodies;
    // Mended lists that end within a few steps, each mending walking every
    // body, can cost more than the contacts themselves (many rattlers
    // among many grains): then the skin widens as it would without them.
    const bool mending_dominates = rebuild_cost(c, relisted) / steps > c.listed;
    // A list that ended early widens the skin (at the ceiling it cannot,
    // and is mended if few moved); one that lasted may thin it.
    const bool ended_early = settings_.adaptive && steps_since_rebuild_ < 10 && (!few || mending_dominates);
    if (ended_early && delta_ < settings_.verlet_distance) {
      delta_ = std::min(2.0 * delta_, settings_.verlet_distance);
    } else if (!ended_early && settings_.adaptive && delta_ > smallest_delta && thinner_list_pays(c, relisted)) {
      delta_ = std::max(0.5 * delta_, smallest_delta);
    } else if (few) {
      relist(world, &moved);
      return true;
    }
  } else if (thins_by_rate(world, largest, steps_since_rebuild_)) {
    delta_ = std::max(0.5 * delta_, smallest_delta);
  } else {
    return false;
  }
  rebuild(world);
  return true;
}

// The counts are asked for only when the agreed conditions before them
// hold: every agreeing part asks at the same steps.
bool NeighbourList::thins_by_rate(const World& w, double largest, long steps) const {
  const double smallest_delta = settings_.verlet_distance / 1024.0;
  if (!(settings_.adaptive && steps >= 200 && delta_ > smallest_delta &&
        200.0 * largest / static_cast<double>(steps) < 0.25 * delta_))
    return false;
  if (delta_ > settings_.verlet_distance / 64.0) return true;
  const Counts c = counts(w, 0);
  return c.half_skin < 0.8 * c.listed;
}

bool NeighbourList::will_change(const World& world, double largest) const {
  return !ready(world) || largest > delta_ || thins_by_rate(world, largest, steps_since_rebuild_ + 1);
}

NeighbourList::Counts NeighbourList::counts(const World& w, std::size_t moved) const {
  // Every body's vertices, stored one body after the other.
  double vertices = w.size() == 0 ? 0.0 : w.vertex_begin.back() + w.vertex_count.back();
  auto listed = static_cast<double>(size()), bodies = static_cast<double>(w.size());
  if (counted_) {
    const std::vector<std::uint8_t>& mine = *counted_;
    listed = static_cast<double>(std::count_if(candidates_.begin(), candidates_.end(), [&](const Candidate& k) {
      return counts_pair(mine.data(), w, k.vertex_body, k.edge_body);
    }));
    bodies = vertices = 0.0;
    for (std::size_t i = 0; i < w.size(); ++i)
      if (mine[i] & counts_in_list) bodies += 1.0, vertices += w.vertex_count[i];
  }
  std::vector<double> c{listed,
                        bodies,
                        vertices,
                        static_cast<double>(stats_.body_pairs),
                        listed_at_half_skin_,
                        static_cast<double>(moved)};
  if (agreement_) c = agreement_->totals(std::move(c));
  return {c[0], c[1], c[2], c[3], c[4], c[5]};
}

// Asked when motion ended a list: would half the skin have cost less per
// step? Costs in candidate evaluations: a list's own candidates every
// step, plus its rebuild spread over its lifetime. Half the skin lists
// what the last rebuild counted for it and is taken to last half as long
// (with a 20% margin, since rattling grains end thin lists sooner). This
// keeps a pile with a few rattling grains, whose lists end by motion and
// so never thin by the rate rule, from listing several times the
// candidates it needs. Only counts, never clocks: the skin decides the
// list, and the output must not depend on the machine.
bool NeighbourList::thinner_list_pays(const Counts& c, double relisted) const {
  if (!(c.half_skin < INFINITY) || c.bodies == 0.0) return false;
  const double rebuild = rebuild_cost(c, relisted);
  const auto life = static_cast<double>(steps_since_rebuild_);
  return c.half_skin + 2.0 * rebuild / life < 0.8 * (c.listed + rebuild / life);
}

// In candidate evaluations, a model fitted to measured rebuilds: 100 per
// grain plus half an evaluation per vertex of both bodies of each listed
// pair, for the share of bodies relisted; a partial rebuild also walks
// every body and candidate once.
double NeighbourList::rebuild_cost(const Counts& c, double relisted) const {
  if (c.bodies == 0.0) return 0.0;
  const double n = c.bodies;
  const double search = 100.0 * n + c.vertices / n * c.body_pairs;
  return relisted < n ? search * relisted / n + kPartialWalk * n : search;
}

void NeighbourList::rebuild(World& w) { relist(w, nullptr); }

// The bodies whose motion since their reference exceeds `beyond`, in order:
// each member lists those of its contiguous part, and the parts are joined
// in order.
std::vector<int> NeighbourList::moved_beyond(const World& w, double beyond) const {
  std::vector<std::vector<int>> parts(ThreadTeam::kMaxMembers);
  int used = 1;
  ThreadTeam::run(std::max(1, settings_.threads), [&](int member, int members) {
    if (member == 0) used = members;
    const auto [begin, end] = ThreadTeam::part(w.size(), member, members);
    for (std::size_t i = begin; i < end; ++i)
      if (motion_of(w, i) > beyond) parts[static_cast<std::size_t>(member)].push_back(static_cast<int>(i));
  });
  std::vector<int> moved;
  for (int m = 0; m < used; ++m)
    moved.insert(moved.end(), parts[static_cast<std::size_t>(m)].begin(), parts[static_cast<std::size_t>(m)].end());
  return moved;
}

}  // namespace sphero
