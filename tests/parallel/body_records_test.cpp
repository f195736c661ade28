// A body sent whole from one rank to another (parallel/body_records.h):
// the world made from the records of some bodies is the world of those
// bodies, field for field and vertex for vertex; candidates passed on in
// portable form come back as they were, in the same order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/candidate_order.h"
#include "engine/engine.h"
#include "parallel/body_records.h"
#include "physics/reproducibility.h"
#include "physics/scenes.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

using namespace test;

// Walls (one a pressure plate spanning two others), hexagons, disks and
// cows, turned and moving: every kind of body a run sends.
World mixed_world() {
  std::vector<BodySpec> bodies;
  bodies.push_back(wall({{-1, 0}, {31, 0}}, 0.1));
  bodies.push_back(wall({{0, -1}, {0, 20}}, 0.1));
  bodies.push_back(wall({{30, -1}, {30, 20}}, 0.1));
  BodySpec lid = wall({{-1, 12}, {31, 12}}, 0.1);
  lid.constraint = pressure_plate(50.0, 32.0, {0.0, -1.0});
  lid.constraint.span_bodies = {1, 2};
  bodies.push_back(lid);
  const Shape cow = read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape");
  for (int k = 0; k < 12; ++k) {
    BodySpec b = k % 3 == 0 ? regular_polygon_body(6, 0.8, 0.15, {}, 0.0) : (k % 3 == 1 ? disk({}, 0.9) : BodySpec{});
    if (k % 3 == 2) b.shape = cow;
    b.position = {3.0 + 2.2 * k, 2.0 + 0.3 * k};
    b.angle = 0.37 * k;
    b.velocity = {0.1 * k, -0.2 * k};
    b.angular_velocity = 0.05 * k;
    if (k == 5) b.constraint.imposed_force = {3.0, -1.0};
    bodies.push_back(b);
  }
  World w = world_of(bodies, linear_law(1e5, 50.0, 5e4, 0.5), {0, -9.81});
  update_world_vertices(w);
  return w;
}

void expect_same_constraint(const BodyConstraint& a, const BodyConstraint& b) {
  EXPECT_EQ(a.held, b.held);
  for (int d = 0; d < 3; ++d) EXPECT_TRUE(same_bits(a.imposed_velocity[d], b.imposed_velocity[d]));
  EXPECT_TRUE(same_bits(a.imposed_force, b.imposed_force) && same_bits(a.imposed_torque, b.imposed_torque));
  EXPECT_TRUE(same_bits(a.pressure, b.pressure) && same_bits(a.inward, b.inward));
  EXPECT_EQ(a.span_bodies, b.span_bodies);
  EXPECT_TRUE(same_bits(a.vibration.amplitude, b.vibration.amplitude) &&
              same_bits(a.vibration.frequency, b.vibration.frequency));
}

void expect_same_candidate(const Candidate& a, const Candidate& b) {
  EXPECT_EQ(a.vertex_body, b.vertex_body);
  EXPECT_EQ(a.edge_body, b.edge_body);
  EXPECT_EQ(a.vertex, b.vertex);
  EXPECT_EQ(a.feature, b.feature);
  EXPECT_EQ(a.feature_end, b.feature_end);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.active, b.active);
  EXPECT_EQ(a.image, b.image);
  EXPECT_TRUE(same_bits(a.reach, b.reach) && same_bits(a.edge_offset, b.edge_offset));
}

std::vector<BodyRecord> records_of_bodies(const World& w, const std::vector<int>& bodies) {
  std::vector<int> numbers(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) numbers[i] = static_cast<int>(i);
  std::vector<BodyRecord> records;
  for (int b : bodies) {
    const auto k = static_cast<std::size_t>(b);
    records.push_back(
        body_record(w, k, numbers, OwnedBody{b, b % 3, motion_of(w, k), w.position[k], w.angle[k], {1, -1}, {}}));
  }
  return records;
}

TEST(BodyRecords, TheWorldOfSomeBodiesRecordsIsTheWorldOfThoseBodies) {
  const World whole = mixed_world();
  const std::vector<int> kept{1, 3, 4, 6, 7, 9, 12, 15};  // a wall, the plate, hexagons, disks, cows
  std::vector<char> bytes;
  append_records(bytes, records_of_bodies(whole, kept));
  const std::vector<BodyRecord> received = body_records_of(bytes);
  ASSERT_EQ(received.size(), kept.size());
  EXPECT_EQ(received[1].facts.owned.owner, 0);
  EXPECT_EQ(received[1].facts.owned.wraps, (std::array<int, 2>{1, -1}));
  World made = world_of_records(received, world_of_shared(shared_bytes(whole)));
  update_world_vertices(made);
  ASSERT_EQ(made.size(), kept.size());
  int first_vertex = 0;
  for (std::size_t k = 0; k < made.size(); ++k) {
    const auto b = static_cast<std::size_t>(kept[k]);
    SCOPED_TRACE(b);
    EXPECT_TRUE(same_bits(made.position[k], whole.position[b]) && same_bits(made.velocity[k], whole.velocity[b]));
    EXPECT_TRUE(same_bits(made.angle[k], whole.angle[b]) &&
                same_bits(made.angular_velocity[k], whole.angular_velocity[b]));
    EXPECT_TRUE(same_bits(made.force[k], whole.force[b]) && same_bits(made.torque[k], whole.torque[b]));
    EXPECT_TRUE(same_bits(made.mass[k], whole.mass[b]) && same_bits(made.inertia[k], whole.inertia[b]));
    EXPECT_TRUE(same_bits(made.inverse_mass[k], whole.inverse_mass[b]) &&
                same_bits(made.inverse_inertia[k], whole.inverse_inertia[b]));
    EXPECT_TRUE(same_bits(made.density[k], whole.density[b]) && same_bits(made.radius[k], whole.radius[b]));
    EXPECT_TRUE(same_bits(made.bounding_radius[k], whole.bounding_radius[b]));
    EXPECT_EQ(made.material[k], whole.material[b]);
    EXPECT_EQ(made.is_wall[k], whole.is_wall[b]);
    EXPECT_EQ(made.closed[k], whole.closed[b]);
    if (b != 3) expect_same_constraint(made.constraint[k], whole.constraint[b]);
    EXPECT_EQ(made.shape_name[k], whole.shape_name[b]);
    EXPECT_EQ(made.vertex_begin[k], first_vertex);
    ASSERT_EQ(made.vertex_count[k], whole.vertex_count[b]);
    first_vertex += made.vertex_count[k];
    EXPECT_TRUE(same_bits(made.orientation[k], whole.orientation[b]) && same_bits(made.seam[k], whole.seam[b]));
    for (int j = 0; j < made.vertex_count[k]; ++j) {
      const int v = made.vertex_begin[k] + j, u = whole.vertex_begin[b] + j;
      EXPECT_TRUE(
          same_bits(local_vertex_of(made, static_cast<int>(k), v), local_vertex_of(whole, static_cast<int>(b), u)));
      EXPECT_EQ(made.local_bend[static_cast<std::size_t>(v + made.local_shift[k])],
                whole.local_bend[static_cast<std::size_t>(u + whole.local_shift[b])]);
      EXPECT_TRUE(
          same_bits(made.world_vertex[static_cast<std::size_t>(v)], whole.world_vertex[static_cast<std::size_t>(u)]));
    }
  }
  // The plate spans bodies 1 (kept: now body 0) and 2 (not kept).
  EXPECT_EQ(made.constraint[1].span_bodies, (std::array<int, 2>{0, -1}));
  // Bodies of one skeleton share its body-frame vertices (two hexagons and
  // three cows are kept): each distinct skeleton once.
  std::set<std::vector<std::pair<double, double>>> skeletons;
  std::size_t distinct = 0;
  for (int b : kept) {
    std::vector<std::pair<double, double>> points;
    for (Vec2 v : local_skeleton(whole, static_cast<std::size_t>(b))) points.emplace_back(v.x, v.y);
    if (skeletons.insert(points).second) distinct += points.size();
  }
  EXPECT_LT(distinct, made.world_vertex.size());
  EXPECT_EQ(made.local_vertex.size(), distinct);
  EXPECT_EQ(made.law.size(), whole.law.size());
  EXPECT_TRUE(same_bits(made.gravity, whole.gravity));
}

TEST(BodyRecords, BytesThatEndInsideARecordAreRefused) {
  const World whole = mixed_world();
  std::vector<char> bytes;
  append_records(bytes, records_of_bodies(whole, {4, 6}));
  bytes.pop_back();
  EXPECT_THROW(body_records_of(bytes), std::logic_error);
  std::vector<BodyRecord> out_of_order = records_of_bodies(whole, {6, 4});
  EXPECT_THROW(world_of_records(out_of_order, whole), std::logic_error);
}

// A settled pile's candidates (touching and not, vertex–edge and vertex–
// vertex) through portable form and back, and their canonical order kept.
TEST(BodyRecords, PortableCandidatesComeBackInTheirOrder) {
  EngineSettings settings;
  settings.dt = 1e-4;
  settings.verlet_distance = 0.3;
  Engine engine(mixed_world(), settings);
  for (int s = 0; s < 2000; ++s) engine.step();
  const World& w = engine.world();
  const std::vector<Candidate>& candidates = engine.neighbour_list().candidates();
  ASSERT_GT(candidates.size(), 20u);
  std::vector<int> numbers(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) numbers[i] = static_cast<int>(i) * 3 + 7;  // numbers of a larger run
  std::vector<SortKey> order;
  for (const Candidate& c : candidates) {
    const Candidate p = portable(c, w, numbers);
    order.push_back(sort_key(p));
    EXPECT_NE(p.vertex_body, c.vertex_body);
    expect_same_candidate(localized(p, w, c.vertex_body, c.edge_body), c);
  }
  EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
}

}  // namespace
}  // namespace sphero
