#include "io/contact_pairs.h"

#include <algorithm>
#include <array>
#include <tuple>
#include <utility>

namespace sphero {
namespace {

// The entries of `keys` (a body and what sorts its entries) grouped by
// body: the first entry of body i is at first[i], each body's entries in
// the order `keys` gives them.
template <class Entry>
std::vector<std::size_t> group_by_body(std::size_t bodies, const std::vector<std::pair<std::size_t, Entry>>& keys,
                                       std::vector<Entry>& grouped) {
  std::vector<std::size_t> first(bodies + 1, 0);
  for (const auto& k : keys) ++first[k.first + 1];
  for (std::size_t i = 0; i < bodies; ++i) first[i + 1] += first[i];
  grouped.resize(keys.size());
  std::vector<std::size_t> next(first.begin(), first.end() - 1);
  for (const auto& k : keys) grouped[next[k.first]++] = k.second;
  return first;
}

// Adds a share to the last pair where it is its pair's, else to a new one.
void add_share(std::vector<ContactPair>& pairs, const PairShare& s) {
  const Contact& c = *s.contact;
  const bool vertex_first = s.vertex_first;
  if (pairs.empty() || !s.same_pair(pairs.back())) {
    ContactPair fresh;
    fresh.a = s.a, fresh.b = s.b, fresh.image = s.image;
    fresh.b_offset = vertex_first ? c.edge_offset : -c.edge_offset;
    pairs.push_back(fresh);
  }
  ContactPair& p = pairs.back();
  p.force += vertex_first ? c.force : -c.force;
  p.point_sum += c.point - (vertex_first ? Vec2{} : c.edge_offset);
  p.direction_sum += vertex_first ? c.normal : -c.normal;  // from a towards b
  p.normal += c.normal_force;
  p.normal_sum += vertex_first ? -c.normal_force * c.normal : c.normal_force * c.normal;
  p.overlap = std::max(p.overlap, c.overlap);
  p.sliding |= c.sliding;
  ++p.contacts;
}

// The same from contacts in any order: grouped by a, each group sorted by
// (b, image), stably.
std::vector<ContactPair> pairs_in_any_order(const World& w, const std::vector<Contact>& contacts) {
  std::vector<std::pair<std::size_t, PairShare>> shares;
  shares.reserve(contacts.size());
  for (const Contact& c : contacts)
    if (c.active) shares.push_back({static_cast<std::size_t>(std::min(c.vertex_body, c.edge_body)), PairShare(c)});
  std::vector<PairShare> grouped;
  const std::vector<std::size_t> first = group_by_body(w.size(), shares, grouped);
  std::vector<ContactPair> pairs;
  pairs.reserve(grouped.size());
  for (std::size_t a = 0; a < w.size(); ++a) {
    const auto begin = grouped.begin() + static_cast<std::ptrdiff_t>(first[a]),
               end = grouped.begin() + static_cast<std::ptrdiff_t>(first[a + 1]);
    // A grain has a handful of contacts: sorted in place (stable_sort would
    // allocate for each); a wall may have thousands.
    if (end - begin > 32) std::stable_sort(begin, end);
    for (auto s = begin; s != end; ++s)
      for (auto t = s; t != begin && *t < *(t - 1); --t) std::iter_swap(t, t - 1);
    for (auto s = begin; s != end; ++s) add_share(pairs, *s);
  }
  return pairs;
}

}  // namespace

void PairSums::add(const Contact& c) {
  if (!c.active || !ordered_) return;
  const PairShare share(c);
  if (!pairs_.empty() && share < last_) {
    ordered_ = false;
    pairs_.clear();
    return;
  }
  add_share(pairs_, share);
  last_ = share;
}

std::vector<ContactPair> pairs_of(const World& w, const std::vector<Contact>& contacts) {
  PairSums sums;
  for (const Contact& c : contacts) sums.add(c);
  return sums.ordered() ? sums.take() : pairs_in_any_order(w, contacts);
}

// Each pair of two bodies counts once for each, whatever its images (which
// pairs_of() puts next to each other); a grain touching its own image
// counts once.
std::vector<int> coordination_numbers(const World& w, const std::vector<ContactPair>& pairs) {
  std::vector<int> counts(w.size(), 0);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const ContactPair& p = pairs[k];
    if (k > 0 && pairs[k - 1].a == p.a && pairs[k - 1].b == p.b) continue;  // another image of the same body
    ++counts[static_cast<std::size_t>(p.a)];
    if (p.b != p.a) ++counts[static_cast<std::size_t>(p.b)];
  }
  return counts;
}

}  // namespace sphero
