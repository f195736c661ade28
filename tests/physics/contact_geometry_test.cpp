// Two bodies, hand-computed: force, torque and point of application for
// each kind of contact, in both directions, with Newton's third law and the
// balance of angular momentum to round-off.
#include <gtest/gtest.h>

#include "physics/scenes.h"

namespace sphero {
namespace {

using test::disk;
using test::linear_law;
using test::world_of;

constexpr double kn = 1000.0;

Engine frozen(std::vector<BodySpec> bodies) {
  EngineSettings s;
  s.dt = 1e-6;
  s.verlet_distance = 0.05;
  Engine engine(world_of(std::move(bodies), linear_law(kn)), s);
  return engine;
}

// Σ F = 0 and Σ (x × F + τ) = 0 about the origin: the contact forces are
// internal, so they carry no net force and no net moment.
void expect_balanced(const World& w) {
  Vec2 total;
  double moment = 0.0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    total += w.force[i];
    moment += cross(w.position[i], w.force[i]) + w.torque[i];
  }
  EXPECT_NEAR(total.x, 0.0, 1e-12);
  EXPECT_NEAR(total.y, 0.0, 1e-12);
  EXPECT_NEAR(moment, 0.0, 1e-12);
}

int active_contacts(const Engine& e) {
  int n = 0;
  for (const Contact& c : e.contacts()) n += c.active;
  return n;
}

TEST(ContactForces, DiskPressedOnASegmentFeelsKnDeltaStraightUp) {
  // Disk r1 = 0.3 at (0.3, 0.4) above the segment (−1,0)–(1,0) with r2 = 0.2:
  // d = 0.4, δ = 0.1, n = (0, −1) from the disk's centre to the segment.
  const Engine e = frozen({disk({0.3, 0.4}, 0.3), test::segment_body({-1, 0}, {1, 0}, 0.2)});
  ASSERT_EQ(active_contacts(e), 1);
  const World& w = e.world();
  const double delta = 0.1;
  EXPECT_NEAR(w.force[0].x, 0.0, 1e-12);
  EXPECT_NEAR(w.force[0].y, kn * delta, 1e-9);
  EXPECT_NEAR(w.force[1].y, -kn * delta, 1e-9);
  // R = X + (r1 − δ/2) n = (0.3, 0.4 − 0.25) = (0.3, 0.15).
  const std::vector<Contact> contacts = e.contacts();
  const Contact& c = *std::find_if(contacts.begin(), contacts.end(), [](const Contact& k) { return k.active; });
  EXPECT_NEAR(c.point.x, 0.3, 1e-12);
  EXPECT_NEAR(c.point.y, 0.15, 1e-12);
  EXPECT_NEAR(w.torque[0], 0.0, 1e-12);               // force through the disk's centre
  EXPECT_NEAR(w.torque[1], 0.3 * -kn * delta, 1e-9);  // (R − x_seg) × (−F)
  expect_balanced(w);
}

TEST(ContactForces, TwoDisksMeetVertexToVertexAlongTheLineOfCentres) {
  // Centres 0.7 apart along (3,4)/5, radii 0.3 and 0.5: δ = 0.1.
  const Vec2 u{0.6, 0.8};
  const Engine e = frozen({disk({1, 1}, 0.3), disk(Vec2{1, 1} + 0.7 * u, 0.5)});
  ASSERT_EQ(active_contacts(e), 1);
  const World& w = e.world();
  EXPECT_NEAR(w.force[0].x, -kn * 0.1 * u.x, 1e-9);
  EXPECT_NEAR(w.force[0].y, -kn * 0.1 * u.y, 1e-9);
  const Contact c = e.contacts().front();
  // R = X + (r_V − δ/2) n: 0.25 from the first centre along u.
  const Vec2 expected = Vec2{1, 1} + 0.25 * u;
  EXPECT_NEAR(c.point.x, expected.x, 1e-12);
  EXPECT_NEAR(c.point.y, expected.y, 1e-12);
  EXPECT_NEAR(w.torque[0], 0.0, 1e-12);
  EXPECT_NEAR(w.torque[1], 0.0, 1e-12);
  expect_balanced(w);
}

TEST(ContactForces, OrderOfTheBodiesDoesNotMatter) {
  const Engine ab = frozen({disk({0.3, 0.4}, 0.3), test::segment_body({-1, 0}, {1, 0}, 0.2)});
  const Engine ba = frozen({test::segment_body({-1, 0}, {1, 0}, 0.2), disk({0.3, 0.4}, 0.3)});
  EXPECT_DOUBLE_EQ(ab.world().force[0].y, ba.world().force[1].y);
  EXPECT_DOUBLE_EQ(ab.world().torque[1], ba.world().torque[0]);
}

TEST(ContactForces, ParallelSegmentsTouchAtTheTwoEndsOverTheOther) {
  // Rice A (−1,0)–(1,0) and rice B (0,0.3)–(2,0.3), r = 0.2 each: δ = 0.1.
  // A's end (1,0) lies over B's interior and B's end (0,0.3) over A's: two
  // vertex–edge contacts, one in each direction.
  const Engine e = frozen({test::segment_body({-1, 0}, {1, 0}, 0.2), test::segment_body({0, 0.3}, {2, 0.3}, 0.2)});
  ASSERT_EQ(active_contacts(e), 2);
  const World& w = e.world();
  EXPECT_NEAR(w.force[0].y, -2.0 * kn * 0.1, 1e-9);
  EXPECT_NEAR(w.force[1].y, 2.0 * kn * 0.1, 1e-9);
  EXPECT_NEAR(w.force[0].x, 0.0, 1e-12);
  // Both contacts at height 0.15, at x = 1 and x = 0; torques about each
  // centre: A (0,0): 1·(−kδ) + 0·(−kδ); B (1,0.3): (1−1)·kδ + (0−1)·kδ.
  EXPECT_NEAR(w.torque[0], -kn * 0.1, 1e-9);
  EXPECT_NEAR(w.torque[1], -kn * 0.1, 1e-9);
  expect_balanced(w);
}

TEST(ContactForces, SquareCornerOnATiltedSquareFace) {
  // A unit square rotated by 45° poking its lower corner into the top face
  // of an axis-aligned unit square (both r = 0.05).
  const double h = std::sqrt(0.5);
  const double gap = 0.08;  // corner-to-face distance: δ = 0.1 − 0.08
  const Engine e = frozen(
      {test::square_body(1.0, 0.05, {0.1, 0.5 + gap + h}, std::numbers::pi / 4), test::square_body(1.0, 0.05, {0, 0})});
  ASSERT_EQ(active_contacts(e), 1);
  const World& w = e.world();
  EXPECT_NEAR(w.force[0].y, kn * 0.02, 1e-9);
  EXPECT_NEAR(w.force[0].x, 0.0, 1e-12);
  // The corner is right below the rotated square's centre: no torque on it;
  // the lower square is pushed 0.1 off its centre.
  EXPECT_NEAR(w.torque[0], 0.0, 1e-12);
  EXPECT_NEAR(w.torque[1], 0.1 * -kn * 0.02, 1e-9);
  expect_balanced(w);
}

TEST(ContactForces, ADiskFeelsTheSameStiffnessOnACornerAsOnAFlatFace) {
  const double r = 0.25, delta = 0.03;
  // Along the diagonal onto the corner (0.5, 0.5) of a sharp-cornered
  // (r = 0.05) unit square centred at the origin ...
  const double along = 0.25 + 0.05 - delta;
  const Vec2 diagonal{std::sqrt(0.5), std::sqrt(0.5)};
  const Engine corner = frozen({disk(Vec2{0.5, 0.5} + along * diagonal, r), test::square_body(1.0, 0.05, {0, 0})});
  // ... and straight down onto the middle of its top face.
  const Engine face = frozen({disk({0.0, 0.5 + along}, r), test::square_body(1.0, 0.05, {0, 0})});
  ASSERT_EQ(active_contacts(corner), 1);  // one contact with the corner, not one per edge
  ASSERT_EQ(active_contacts(face), 1);
  EXPECT_NEAR(norm(corner.world().force[0]), kn * delta, 1e-9);
  EXPECT_NEAR(norm(face.world().force[0]), kn * delta, 1e-9);
  EXPECT_NEAR(corner.world().force[0].x, kn * delta * diagonal.x, 1e-9);
}

TEST(ContactForces, ADiskInAConcaveCornerTouchesBothFaces) {
  // An L-shaped polyline wall (0,1)–(0,0)–(1,0); a disk in its inner corner.
  const double r = 0.2, delta = 0.01;
  const Engine e = frozen({disk({r - delta, r - delta}, r), test::wall({{0, 1}, {0, 0}, {1, 0}}, 0.0001)});
  ASSERT_EQ(active_contacts(e), 2);
  EXPECT_NEAR(e.world().force[0].x, kn * (delta + 0.0001), 1e-9);
  EXPECT_NEAR(e.world().force[0].y, kn * (delta + 0.0001), 1e-9);
}

TEST(ContactForces, TwoPolygonsFaceToFace) {
  // Two unit squares (r = 0.05) side by side, 0.08 apart, offset by half a
  // side: each has one corner over the other's face. δ = 0.02 at each.
  const Engine e = frozen({test::square_body(1.0, 0.05, {0, 0}), test::square_body(1.0, 0.05, {1.08, 0.5})});
  ASSERT_EQ(active_contacts(e), 2);
  EXPECT_NEAR(e.world().force[0].x, -2.0 * kn * 0.02, 1e-9);
  EXPECT_NEAR(e.world().force[0].y, 0.0, 1e-12);
  expect_balanced(e.world());
}

}  // namespace
}  // namespace sphero
