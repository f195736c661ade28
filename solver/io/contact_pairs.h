// The interacting pairs of bodies of a frame: each pair's vertex contacts
// summed, as the contacts file draws them, and what is counted from them.
#pragma once

#include <algorithm>
#include <array>
#include <tuple>
#include <vector>

#include "engine/contact.h"
#include "engine/world.h"

namespace sphero {

// One line per interacting pair of bodies (and periodic image), summing its
// vertex–edge contacts; force on the first body. Contact points are taken
// in the first body's frame of images.
struct ContactPair {
  int a = 0, b = 0;            // a <= b
  std::array<int, 2> image{};  // b's periodic image, seen from a
  Vec2 b_offset, force, normal_sum, point_sum, direction_sum;
  double normal = 0.0, overlap = 0.0;
  bool sliding = false;
  int contacts = 0;
};

// A vertex contact as a pair's share: the pair's key (a, b and the image)
// and the contact, seen from a.
struct PairShare {
  int a = 0, b = 0;
  std::array<int, 2> image{};
  const Contact* contact = nullptr;
  bool vertex_first = true;

  PairShare() = default;
  explicit PairShare(const Contact& c)
      : a(std::min(c.vertex_body, c.edge_body)),
        b(std::max(c.vertex_body, c.edge_body)),
        image(c.vertex_body < c.edge_body ? c.image : std::array<int, 2>{-c.image[0], -c.image[1]}),
        contact(&c),
        vertex_first(c.vertex_body < c.edge_body) {}
  bool operator<(const PairShare& o) const { return std::tie(a, b, image) < std::tie(o.a, o.b, o.image); }
  bool same_pair(const ContactPair& p) const { return p.a == a && p.b == b && p.image == image; }
};

// pairs_of() contact by contact, for contacts that come in the order of
// (a, b, image), as a neighbour list's canonical order has them
// (engine/candidate_order.h): add() each in turn.
class PairSums {
 public:
  // Room for `expected` pairs, so that the sums are not moved as they grow.
  explicit PairSums(std::size_t expected = 0) { pairs_.reserve(expected); }
  void add(const Contact& c);
  // False where a contact came out of that order: take pairs_of() of
  // them all then.
  bool ordered() const { return ordered_; }
  std::vector<ContactPair> take() { return std::move(pairs_); }

 private:
  std::vector<ContactPair> pairs_;
  PairShare last_;
  bool ordered_ = true;
};

// Every pair of bodies (and periodic image) that `contacts` join, in the
// order of (a, b, image) with a <= b, each summing its contacts in the
// engine's order.
std::vector<ContactPair> pairs_of(const World& w, const std::vector<Contact>& contacts);

// Per body of `w`, the distinct bodies it touches, from every pair of
// pairs_of().
std::vector<int> coordination_numbers(const World& w, const std::vector<ContactPair>& pairs);

}  // namespace sphero
