// A frame's contact pairs: summed in one pass over the engine's contacts
// when they come in its canonical order, and the same, to the bit, from
// contacts in any order; coordination numbers counted from the pairs; and
// the grains' stresses summed contact by contact as from the list; and
// the contacts grid made from the pairs.
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <utility>

#include "engine/engine.h"
#include "engine/stress.h"
#include "io/contact_pairs.h"
#include "io/contacts_grid.h"

namespace sphero {
namespace {

// 4 × 4 hexagons of circumradius 1 and sphero-radius 0.1, pressed 0.01
// into each other: tip to tip along x (one vertex contact a pair), face to
// face along y (two).
Engine pressed_hexagons(bool first_is_wall = false) {
  std::vector<Vec2> corners;
  for (int k = 0; k < 6; ++k)
    corners.push_back({std::cos(k * std::numbers::pi / 3), std::sin(k * std::numbers::pi / 3)});
  const Shape hexagon = make_shape("hexagon", SkeletonKind::polygon, corners, 0.1);
  std::vector<BodySpec> bodies;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      BodySpec b;
      b.shape = hexagon;
      b.position = {2.19 * i, (std::sqrt(3.0) + 0.19) * j};
      b.is_wall = first_is_wall && bodies.empty();
      bodies.push_back(b);
    }
  ContactLaw law;
  law.kn = 1e5;
  law.kt = 5e4;
  law.mu = 0.5;
  EngineSettings s;
  s.dt = 1e-5;
  s.verlet_distance = 0.01;
  Engine engine(make_world(bodies, 1, {law}, {}), s);
  engine.evaluate_forces_now();
  return engine;
}

void expect_same(const ContactPair& p, const ContactPair& q) {
  EXPECT_EQ(p.a, q.a);
  EXPECT_EQ(p.b, q.b);
  EXPECT_EQ(p.image, q.image);
  for (auto [u, v] :
       {std::pair{p.b_offset, q.b_offset}, std::pair{p.force, q.force}, std::pair{p.normal_sum, q.normal_sum},
        std::pair{p.point_sum, q.point_sum}, std::pair{p.direction_sum, q.direction_sum}}) {
    EXPECT_EQ(u.x, v.x);
    EXPECT_EQ(u.y, v.y);
  }
  EXPECT_EQ(p.normal, q.normal);
  EXPECT_EQ(p.overlap, q.overlap);
  EXPECT_EQ(p.sliding, q.sliding);
  EXPECT_EQ(p.contacts, q.contacts);
}

TEST(ContactPairs, TheEnginesOrderIsSummedInOnePassAndAnyOrderGivesTheSamePairs) {
  const Engine engine = pressed_hexagons();
  const std::vector<Contact> contacts = engine.contacts();
  PairSums in_engine_order;
  engine.for_each_touching_contact([&](const Contact& c) { in_engine_order.add(c); });
  ASSERT_TRUE(in_engine_order.ordered()) << "the fast path would never be taken";
  const std::vector<ContactPair> pairs = in_engine_order.take();
  // 3 × 4 tip-to-tip pairs along x and 4 × 3 face-to-face pairs along y.
  ASSERT_EQ(pairs.size(), 24u);
  for (const ContactPair& p : pairs) {
    EXPECT_LT(p.a, p.b);
    EXPECT_GT(p.normal, 0.0);
    EXPECT_GE(p.contacts, 1);
  }

  // The pairs last first, each pair's contacts in their order: the
  // fallback, which must find the same sums.
  std::vector<Contact> reordered = contacts;
  std::stable_sort(reordered.begin(), reordered.end(), [](const Contact& x, const Contact& y) {
    return std::max(x.vertex_body, x.edge_body) > std::max(y.vertex_body, y.edge_body);
  });
  PairSums out_of_order;
  for (const Contact& c : reordered) out_of_order.add(c);
  EXPECT_FALSE(out_of_order.ordered());
  const std::vector<ContactPair> again = pairs_of(engine.world(), reordered);
  ASSERT_EQ(again.size(), pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) expect_same(pairs[k], again[k]);
}

TEST(ContactPairs, CoordinationCountsEachPartnerOnceWhateverItsImages) {
  const Engine engine = pressed_hexagons();
  const World& w = engine.world();
  // From the contacts by brute force: each body's distinct partners.
  std::vector<std::set<int>> partners(w.size());
  for (const Contact& c : engine.contacts())
    if (c.active && c.overlap != 0.0)
      partners[static_cast<std::size_t>(c.vertex_body)].insert(c.edge_body),
          partners[static_cast<std::size_t>(c.edge_body)].insert(c.vertex_body);
  const std::vector<int> counted = coordination_numbers(w, pairs_of(w, engine.contacts()));
  for (std::size_t i = 0; i < w.size(); ++i) EXPECT_EQ(counted[i], static_cast<int>(partners[i].size())) << i;
  EXPECT_EQ(counted[5], 4);  // an inner hexagon
  EXPECT_EQ(counted[0], 2);  // a corner

  // By hand, in a periodic cell: 0 touches its own image, 0 and 1 touch
  // across two images, 1 and 2 once.
  std::vector<ContactPair> periodic(4);
  periodic[0].a = 0, periodic[0].b = 0, periodic[0].image = {1, 0};
  periodic[1].a = 0, periodic[1].b = 1, periodic[1].image = {0, 0};
  periodic[2].a = 0, periodic[2].b = 1, periodic[2].image = {1, 0};
  periodic[3].a = 1, periodic[3].b = 2, periodic[3].image = {0, 0};
  const std::vector<int> hand = coordination_numbers(w, periodic);
  EXPECT_EQ(hand[0], 2);
  EXPECT_EQ(hand[1], 2);
  EXPECT_EQ(hand[2], 1);
  EXPECT_EQ(hand[3], 0);
}

TEST(ContactPairs, StressesSummedContactByContactAreThoseOfTheContactList) {
  const Engine engine = pressed_hexagons();
  const World& w = engine.world();
  const std::vector<double> area(w.size(), 3.0);
  GrainStressSums sums(w);
  engine.for_each_touching_contact([&](const Contact& c) { sums.add(c); });
  const std::vector<Stress> summed = sums.all(area);
  const std::vector<Stress> listed = particle_stresses(w, engine.contacts(), area);
  ASSERT_EQ(summed.size(), listed.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    EXPECT_EQ(summed[i].xx, listed[i].xx) << i;
    EXPECT_EQ(summed[i].xy, listed[i].xy) << i;
    EXPECT_EQ(summed[i].yx, listed[i].yx) << i;
    EXPECT_EQ(summed[i].yy, listed[i].yy) << i;
  }
  // Pressed together, an inner hexagon is compressed both ways.
  EXPECT_GT(summed[5].xx, 0.0);
  EXPECT_GT(summed[5].yy, 0.0);
}

// Both sums of a frame in one pass: the same bits as the contact list's,
// and as its sums leaving the wall's contacts out.
TEST(ContactPairs, GrainStressesAndTheirShareBetweenGrainsComeFromOnePass) {
  const Engine engine = pressed_hexagons(true);
  const World& w = engine.world();
  ASSERT_TRUE(w.is_wall[0]);
  const std::vector<double> area(w.size(), 3.0);
  std::vector<bool> grain(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) grain[i] = !w.is_wall[i];
  GrainStressSums both(w);
  engine.for_each_touching_contact([&](const Contact& c) { both.add(c); });
  const std::vector<Stress> a = particle_stresses(w, engine.contacts(), area),
                            b = particle_stresses(w, engine.contacts(), area, grain);
  const std::vector<Stress> one = both.all(area), two = both.between_grains(area);
  for (std::size_t i = 0; i < w.size(); ++i) {
    for (auto [x, y] : {std::pair{a[i], one[i]}, std::pair{b[i], two[i]}}) {
      EXPECT_EQ(x.xx, y.xx) << i;
      EXPECT_EQ(x.xy, y.xy) << i;
      EXPECT_EQ(x.yx, y.yx) << i;
      EXPECT_EQ(x.yy, y.yy) << i;
    }
  }
  // Body 1 touches the wall (body 0) and grains: the wall's share differs.
  EXPECT_NE(one[1].xx, two[1].xx);
  EXPECT_EQ(two[0].xx, 0.0);
}

// The contacts grid made straight from the pairs: the lines, ends and
// arrays of the grid made from their records, a grain's centre one point
// for all its lines, and a periodic image's end a point of its own.
TEST(ContactPairs, TheContactsGridSharesEachGrainsCentreAndMatchesTheRecords) {
  const Engine engine = pressed_hexagons();
  const World& w = engine.world();
  const std::vector<ContactPair> pairs = pairs_of(w, engine.contacts());
  std::vector<PairRecord> records;
  std::vector<ForceSegment> lines;
  for (const ContactPair& p : pairs) {
    const ContactLine line = contact_line(w, p);
    records.push_back(line.pair), lines.push_back(line.line);
  }
  const ContactExtras extras{true, 0.0};
  const auto from_records = contacts_grid(records, lines, extras);
  const auto direct = contacts_grid(w, pairs, FramePiece{}, extras);
  ASSERT_EQ(direct->GetNumberOfCells(), 24);
  ASSERT_EQ(from_records->GetNumberOfCells(), 24);
  EXPECT_EQ(from_records->GetNumberOfPoints(), 48);
  EXPECT_EQ(direct->GetNumberOfPoints(), 16);  // every hexagon touches another
  for (vtkIdType c = 0; c < 24; ++c) {
    vtkNew<vtkIdList> a, b;
    from_records->GetCellPoints(c, a);
    direct->GetCellPoints(c, b);
    ASSERT_EQ(b->GetNumberOfIds(), 2);
    for (vtkIdType e = 0; e < 2; ++e)
      for (int axis = 0; axis < 3; ++axis)
        EXPECT_EQ(direct->GetPoint(b->GetId(e))[axis], from_records->GetPoint(a->GetId(e))[axis]) << c;
  }
  vtkCellData *x = from_records->GetCellData(), *y = direct->GetCellData();
  ASSERT_EQ(y->GetNumberOfArrays(), x->GetNumberOfArrays());
  for (int k = 0; k < x->GetNumberOfArrays(); ++k) {
    vtkDataArray *u = x->GetArray(k), *v = y->GetArray(u->GetName());
    ASSERT_NE(v, nullptr) << u->GetName();
    for (vtkIdType c = 0; c < 24; ++c)
      for (int m = 0; m < u->GetNumberOfComponents(); ++m)
        EXPECT_EQ(v->GetComponent(c, m), u->GetComponent(c, m)) << u->GetName() << " " << c;
  }

  // Bodies 0 and 1 touching directly and across an image 10 m along x.
  std::vector<ContactPair> imaged(2);
  for (ContactPair& p : imaged) p.a = 0, p.b = 1, p.contacts = 1, p.direction_sum = {1.0, 0.0};
  imaged[1].image = {1, 0}, imaged[1].b_offset = {10.0, 0.0};
  const auto grid = contacts_grid(w, imaged, FramePiece{}, extras);
  ASSERT_EQ(grid->GetNumberOfPoints(), 3);
  vtkNew<vtkIdList> near, far;
  grid->GetCellPoints(0, near);
  grid->GetCellPoints(1, far);
  EXPECT_EQ(near->GetId(0), far->GetId(0));  // 0's centre, shared
  EXPECT_NE(near->GetId(1), far->GetId(1));
  EXPECT_EQ(grid->GetPoint(far->GetId(1))[0], w.position[1].x + 10.0);
}

}  // namespace
}  // namespace sphero
