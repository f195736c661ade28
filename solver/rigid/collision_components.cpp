#include "rigid/collision_components.h"

#include <algorithm>
#include <numeric>

namespace sphero {
namespace {

// Groups of fewer bodies than this share programs of about kSharedBodies.
constexpr int kSharedBelow = 64, kSharedBodies = 256;

// Union–find with path halving; the root of each group is its lowest body.
class Groups {
 public:
  explicit Groups(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  int find(int i) {
    while (parent_[static_cast<std::size_t>(i)] != i) {
      parent_[static_cast<std::size_t>(i)] = parent_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(i)])];
      i = parent_[static_cast<std::size_t>(i)];
    }
    return i;
  }
  void join(int a, int b) {
    a = find(a), b = find(b);
    if (a != b) parent_[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
  }

 private:
  std::vector<int> parent_;
};

// Each program's result, the largest programs started first so that the
// threads finish together.
std::vector<CollisionResult> solve_apart(const std::vector<std::vector<RigidBodyState>>& bodies,
                                         const std::vector<std::vector<CollisionContact>>& contacts,
                                         const CollisionSettings& settings, const RunApart& run_apart) {
  std::vector<CollisionResult> results(bodies.size());
  std::vector<std::size_t> order(bodies.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return contacts[a].size() > contacts[b].size(); });
  const auto solve = [&](std::size_t k) {
    const std::size_t g = order[k];
    results[g] = resolve_collisions(bodies[g], contacts[g], settings);
  };
  if (run_apart && order.size() > 1) {
    run_apart(order.size(), solve);
  } else {
    for (std::size_t k = 0; k < order.size(); ++k) solve(k);
  }
  return results;
}

}  // namespace

CollisionResult resolve_collisions_by_group(const std::vector<RigidBodyState>& bodies,
                                            const std::vector<CollisionContact>& contacts,
                                            const CollisionSettings& settings, ComponentStats* stats,
                                            const RunApart& run_apart) {
  const std::size_t n = bodies.size();
  Groups groups(n);
  for (const CollisionContact& c : contacts)
    if (c.other >= 0) groups.join(c.body, c.other);
  // Each body's group, numbered in the order of the groups' lowest bodies,
  // and each group's program: small groups share one (a block-diagonal
  // program costs its blocks, and the call's fixed cost once).
  std::vector<int> group_of_root(n, -1), group_size;
  for (std::size_t b = 0; b < n; ++b) {
    int& g = group_of_root[static_cast<std::size_t>(groups.find(static_cast<int>(b)))];
    if (g < 0) g = static_cast<int>(group_size.size()), group_size.push_back(0);
    ++group_size[static_cast<std::size_t>(g)];
  }
  // A group of one contact is a program of its own too: one row is solved
  // in closed form, exactly (convex_qp.h).
  std::vector<int> group_contact_count(group_size.size(), 0);
  for (const CollisionContact& c : contacts)
    ++group_contact_count[static_cast<std::size_t>(group_of_root[static_cast<std::size_t>(groups.find(c.body))])];
  std::vector<int> program_of_group(group_size.size());
  int programs = 0, batch = -1, batch_bodies = 0;
  for (std::size_t g = 0; g < group_size.size(); ++g) {
    if (group_size[g] >= kSharedBelow || group_contact_count[g] == 1) {
      program_of_group[g] = programs++;
      continue;
    }
    if (batch < 0 || batch_bodies >= kSharedBodies) batch = programs++, batch_bodies = 0;
    program_of_group[g] = batch;
    batch_bodies += group_size[g];
  }
  std::vector<int> group_of(n), place(n);
  std::vector<std::vector<RigidBodyState>> group_bodies(static_cast<std::size_t>(programs));
  std::vector<std::vector<int>> members(static_cast<std::size_t>(programs));
  for (std::size_t b = 0; b < n; ++b) {
    const int group = group_of_root[static_cast<std::size_t>(groups.find(static_cast<int>(b)))];
    const auto g = static_cast<std::size_t>(program_of_group[static_cast<std::size_t>(group)]);
    group_of[b] = static_cast<int>(g);
    place[b] = static_cast<int>(group_bodies[g].size());
    group_bodies[g].push_back(bodies[b]);
    members[g].push_back(static_cast<int>(b));
  }
  std::vector<std::vector<CollisionContact>> group_contacts(group_bodies.size());
  std::vector<std::vector<std::size_t>> contact_index(group_bodies.size());
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    CollisionContact c = contacts[k];
    const auto g = static_cast<std::size_t>(group_of[static_cast<std::size_t>(c.body)]);
    c.body = place[static_cast<std::size_t>(c.body)];
    if (c.other >= 0) c.other = place[static_cast<std::size_t>(c.other)];
    group_contacts[g].push_back(c);
    contact_index[g].push_back(k);
  }

  CollisionResult out;
  out.velocity.resize(n);
  out.angular_velocity.resize(n);
  out.normal_percussion.resize(contacts.size());
  out.tangential_percussion.resize(contacts.size());
  out.program.converged = true;
  const std::vector<CollisionResult> results = solve_apart(group_bodies, group_contacts, settings, run_apart);
  for (std::size_t g = 0; g < group_bodies.size(); ++g) {
    const CollisionResult& r = results[g];
    for (std::size_t m = 0; m < members[g].size(); ++m) {
      const auto b = static_cast<std::size_t>(members[g][m]);
      out.velocity[b] = r.velocity[m];
      out.angular_velocity[b] = r.angular_velocity[m];
    }
    for (std::size_t k = 0; k < contact_index[g].size(); ++k) {
      out.normal_percussion[contact_index[g][k]] = r.normal_percussion[k];
      out.tangential_percussion[contact_index[g][k]] = r.tangential_percussion[k];
    }
    for (const std::size_t k : r.jammed) out.jammed.push_back(contact_index[g][k]);
    out.dissipated += r.dissipated;
    out.wall_work += r.wall_work;
    out.program.converged = out.program.converged && r.program.converged;
    out.program.stalled = out.program.stalled || r.program.stalled;
    out.program.kkt_residual = std::max(out.program.kkt_residual, r.program.kkt_residual);
    out.program.iterations = std::max(out.program.iterations, r.program.iterations);
    if (stats) {
      ++stats->programs;
      stats->iterations += r.program.iterations;
      stats->stalled += r.program.stalled ? 1 : 0;
    }
  }
  if (stats)
    for (int size : group_size) stats->largest_group = std::max(stats->largest_group, static_cast<long>(size));
  if (stats) stats->groups += static_cast<long>(group_size.size());
  std::sort(out.jammed.begin(), out.jammed.end());
  return out;
}

}  // namespace sphero
