#include "engine/contact_pass.h"

#include <algorithm>
#include <chrono>

#include "engine/capacity.h"
#include "engine/contact_geometry.h"
#include "engine/thread_team.h"

namespace sphero {
namespace {

// An open contact forgets its tangential spring and last forces.
void forget_history(Candidate& key, ContactState& c) {
  key.active = key.sliding = false;
  c = {};
}

// A touching candidate's response (the spring advanced when dt > 0), with
// where it acts and the relative velocity there.
struct Touch {
  Vec2 point, relative;
  ContactResponse response;
};

// One thread's view of the pass: raw pointers held in registers, and the
// runs (parts of the split) it evaluates. Most candidates are not
// touching: they read only their packed Candidate.
class ContactSweep {
 public:
  ContactSweep(World& w, NeighbourList& list, TouchGeometry* kept, WorkSplit& split, int threads, double dt,
               const std::uint8_t* counted, EndedContacts& ended)
      : view_(w),
        keys_(list.candidates().data()),
        state_(list.states().data()),
        count_(list.candidates().size()),
        kept_(kept),
        owner_(split.owner.data()),
        force_(w.force.data()),
        torque_(w.torque.data()),
        split_(split),
        alone_(threads == 1),
        dt_(dt),
        counted_(counted),
        ended_(ended) {}

  // Run `run`'s candidates: first those of earlier runs touching its
  // bodies, then its own chunks, each chunk's sums into chunk_sums.
  void sweep(int run, std::size_t chunks, ContactEnergySums* chunk_sums) {
    if (!alone_) recompute_borrowed(run);
    const std::size_t first = alone_ ? 0 : split_.first_chunk[static_cast<std::size_t>(run)];
    const std::size_t end = alone_ ? chunks : split_.first_chunk[static_cast<std::size_t>(run) + 1];
    for (std::size_t chunk = first; chunk < end; ++chunk) chunk_sums[chunk] = evaluate_chunk(chunk, run);
  }

 private:
  Touch respond(const Candidate& key, const ContactLaw& law, const ContactGeometry& g, Vec2& spring) const {
    const int v = key.vertex_body, e = key.edge_body;
    Touch t;
    // Middle of the overlap segment (docs/MODEL.md §2).
    t.point = g.vertex_point + (view_.radius[v] - 0.5 * g.overlap) * g.normal;
    t.relative = view_.velocity_at(v, t.point, {}) - view_.velocity_at(e, t.point, key.edge_offset);
    t.response = evaluate_contact(law, {g.overlap, g.normal, t.relative}, spring, dt_);
    return t;
  }

  // The force on the bodies this run owns (all of them when alone).
  void add_force(const Candidate& key, const Touch& t, int run) const {
    const int v = key.vertex_body, e = key.edge_body;
    const Vec2 f = t.response.force_on_vertex_body;
    if (alone_ || owner_[v] == run) {
      force_[v] += f;
      torque_[v] += cross(t.point - view_.position[v], f);
    }
    if (alone_ || owner_[e] == run) {
      force_[e] -= f;
      torque_[e] -= cross(t.point - (view_.position[e] + key.edge_offset), f);
    }
  }

  // An opening contact's copy forgets its spring as the original does
  // (forget_history; a candidate not touching already holds none).
  void recompute_borrowed(int run) {
    WorkSplit::RecomputedContacts& borrowed = split_.recomputed[static_cast<std::size_t>(run)];
    for (std::size_t j = 0; j < borrowed.candidates.size(); ++j) {
      const Candidate& key = keys_[borrowed.candidates[j]];
      const ContactGeometry g = contact_geometry(view_, key);
      if (!g.touching) {
        if (dt_ > 0.0) borrowed.springs[j] = {};
        continue;
      }
      Vec2 spring = borrowed.springs[j];
      const Touch t = respond(key, view_.law_between(key.vertex_body, key.edge_body), g, spring);
      if (dt_ > 0.0) borrowed.springs[j] = spring;
      add_force(key, t, run);
    }
  }

  // Closing the books of a contact that just opened: its last forces acted
  // over this step, and its spring's energy is let go. What it dissipated
  // over its life goes to the ended contacts' exact sums (if counted).
  void close_opened(Candidate& key, ContactState& c, ContactEnergySums& sums) const {
    const int v = key.vertex_body, e = key.edge_body;
    const ContactLaw& law = view_.law_between(v, e);
    const Vec2 step = dt_ * (view_.velocity_at(v, c.point, {}) - view_.velocity_at(e, c.point, key.edge_offset));
    const double damping = -0.5 * dot(c.viscous_force, step);
    sums.damping += damping;
    c.damping_total += damping;
    if (law.kt > 0.0) {
      const double sliding = -0.5 * dot(-law.kt * c.xi, step) + 0.5 * law.kt * norm2(c.xi);
      sums.sliding += sliding;
      c.sliding_total += sliding;
    }
    if (&sums != &uncounted_) ended_.damping.add(c.damping_total), ended_.sliding.add(c.sliding_total);
    forget_history(key, c);
  }

  bool counts(const Candidate& key) const {
    return counts_pair(counted_, *view_.world, key.vertex_body, key.edge_body);
  }

  ContactEnergySums evaluate_chunk(std::size_t chunk, int run) {
    ContactEnergySums sums;
    for (std::size_t k = chunk * kContactChunk; k < std::min(count_, (chunk + 1) * kContactChunk); ++k) {
      Candidate& key = keys_[k];
      const ContactGeometry g = contact_geometry(view_, key);
      if (!g.touching) {
        // A re-evaluation without a step (dt = 0) leaves the books of an
        // opening contact to the next real step.
        if (dt_ == 0.0 || !key.active) {
          if (kept_ && key.active) kept_[k] = {};
          continue;
        }
        close_opened(key, state_[k], counts(key) ? sums : uncounted_);
        continue;
      }
      if (kept_) kept_[k] = {g.normal, g.overlap};
      evaluate_touching(key, state_[k], g, run, counts(key) ? sums : uncounted_);
    }
    return sums;
  }

  // Dissipation is booked as the work of the viscous and tangential-spring
  // forces over the step, trapezoidal in the force like velocity Verlet's
  // kicks, against the relative displacement Δ = v_rel dt at the contact
  // point; sliding = that spring work minus the change of spring energy.
  // (Booking ½ k_t (|ξ_trial|² − |ξ_capped|²) instead would overestimate
  // by ½ k_t |Δ|² per step: a first-order error in the first law.)
  void evaluate_touching(Candidate& key, ContactState& c, const ContactGeometry& g, int run, ContactEnergySums& sums) {
    const ContactLaw& law = view_.law_between(key.vertex_body, key.edge_body);
    // A re-evaluation without a step (dt = 0) works on a copy of the
    // spring, which it would otherwise turn and cap.
    Vec2 spring = c.xi;
    const Touch t = respond(key, law, g, spring);
    const ContactResponse& r = t.response;
    if (dt_ > 0.0) {
      const Vec2 step = dt_ * t.relative;
      const double damping = -0.5 * dot(c.viscous_force + r.viscous_force, step);
      sums.damping += damping;
      c.damping_total += damping;
      // The spring's force and energy before this step: −k_t ξ, ½ k_t |ξ|².
      if (law.kt > 0.0) {
        const double sliding = -(0.5 * dot(-law.kt * c.xi + r.tangential_spring_force, step) +
                                 (r.tangential_energy - 0.5 * law.kt * norm2(c.xi)));
        sums.sliding += sliding;
        c.sliding_total += sliding;
      }
      c.xi = spring;
    }
    sums.normal_energy += r.normal_energy;
    sums.tangential_energy += r.tangential_energy;
    sums.deepest = std::max(sums.deepest, g.overlap / key.reach);
    // Flags written only when they change: a store would dirty the
    // candidate's cache line, and writing the read-mostly candidates back
    // to memory every step costs bandwidth.
    if (!key.active) key.active = true;
    if (key.sliding != r.sliding) key.sliding = r.sliding;
    c.point = t.point;
    c.force = r.force_on_vertex_body;
    c.normal_force = r.normal_force;
    c.viscous_force = r.viscous_force;
    add_force(key, t, run);
  }

  const WorldView view_;
  Candidate* const keys_;
  ContactState* const state_;
  const std::size_t count_;
  TouchGeometry* const kept_;  // each touching candidate's geometry, where a frame asked for it
  const int* const owner_;
  Vec2* const force_;
  double* const torque_;
  WorkSplit& split_;
  const bool alone_;
  const double dt_;
  const std::uint8_t* const counted_;
  ContactEnergySums uncounted_;  // where the sums of candidates not counted go
  EndedContacts& ended_;         // this member's
};

}  // namespace

StepContactSums ContactPass::evaluate(World& w, NeighbourList& list, int threads, double dt,
                                      const std::uint8_t* counted) {
  const std::size_t count = list.candidates().size();
  // Energies and dissipation are summed per fixed chunk of candidates, in
  // candidate order, and the chunks' sums in chunk order: the same numbers
  // whatever the number of threads, without a serial pass over all
  // candidates after the parallel one.
  const std::size_t chunks = (count + kContactChunk - 1) / kContactChunk;
  chunk_sums_.assign(chunks, ContactEnergySums{});
  if (threads > 1 && !split_.fits(threads, list, chunks, w.size())) split_.make(threads, list, chunks, w.size());
  ended_by_member_.assign(static_cast<std::size_t>(std::max(threads, 1)), EndedContacts{});
  TouchGeometry* const kept = list.take_contact_geometry_request();
  // Each run adds to each body it owns (WorkSplit::owner) the forces of
  // that body's candidates in candidate order: the same sums in the same
  // order whatever the number of threads. One run per requested thread,
  // whatever the team (a run is never split between two threads).
  ThreadTeam::run(threads, [&](int member, int team) {
    ContactSweep sweep(w, list, kept, split_, threads, dt, counted, ended_by_member_[static_cast<std::size_t>(member)]);
    for (int run = member; run < threads; run += team) {
      if (threads == 1) {
        sweep.sweep(run, chunks, chunk_sums_.data());
        continue;
      }
      const auto started = std::chrono::steady_clock::now();
      sweep.sweep(run, chunks, chunk_sums_.data());
      split_.add_contact_time(run, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
  });
  StepContactSums total;
  for (const ContactEnergySums& s : chunk_sums_) total.running.add(s);
  for (const EndedContacts& c : ended_by_member_) total.ended.add(c);
  list.stats().feature_pairs_evaluated += static_cast<long>(count);
  if (kept) list.contact_geometry_kept();
  // Only now, with the pass done: a new split copies the springs.
  if (threads > 1) split_.balance(list);
  return total;
}

std::size_t ContactPass::memory_bytes() const {
  return split_.memory_bytes() + capacity_bytes(chunk_sums_) + capacity_bytes(ended_by_member_);
}

}  // namespace sphero
