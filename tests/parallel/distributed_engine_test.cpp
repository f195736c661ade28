// The engine spread over ranks against the serial engine: every body's
// motion to the bit, the touching contacts with their springs, while the
// grains fall, collide, change subdomain and are shared out again.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "parallel/distributed_engine.h"
#include "physics/scenes.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

using namespace test;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(Vec2 a, Vec2 b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y); }

// Cows, hexagons and disks thrown into a closed box under gravity, with
// friction and damping, a lid driven down and one grain pushed sideways:
// grains cross subdomains, contacts open and close with their springs.
World box_of_grains(int rows) {
  std::vector<BodySpec> bodies;
  bodies.push_back(wall({{-1, 0}, {61, 0}}, 0.1));
  bodies.push_back(wall({{0, -1}, {0, 8.0 * rows}}, 0.1));
  bodies.push_back(wall({{60, -1}, {60, 8.0 * rows}}, 0.1));
  BodySpec lid = wall({{-1, 4.0 * rows + 3.0}, {61, 4.0 * rows + 3.0}}, 0.1);
  lid.constraint.held = {true, true, true};
  lid.constraint.imposed_velocity = {0.0, -6.0, 0.0};
  bodies.push_back(lid);
  const Shape cow = read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape");
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> turn(0.0, 6.28), speed(-4.0, 4.0);
  for (int k = 0; k < 14 * rows; ++k) {
    BodySpec b = k % 3 == 0 ? regular_polygon_body(6, 0.8, 0.15, {}, 0.0) : (k % 3 == 1 ? disk({}, 0.9) : BodySpec{});
    if (k % 3 == 2) b.shape = cow;
    b.position = {4.0 + 4.0 * (k % 14), 2.5 + 4.0 * (k / 14)};
    b.angle = turn(random);
    b.velocity = {speed(random), speed(random)};
    if (k == 7 * rows) b.constraint.imposed_force = {300.0, 0.0};
    bodies.push_back(b);
  }
  return world_of(bodies, linear_law(1e5, 50.0, 5e4, 0.5), {0, -20.0});
}

EngineSettings settings_of_box() {
  EngineSettings s;
  s.dt = 1e-4;
  s.verlet_distance = 0.2;
  s.adaptive_verlet_distance = true;
  return s;
}

void expect_same_motion(const World& serial, const World& spread) {
  ASSERT_EQ(serial.size(), spread.size());
  int differing = 0;
  for (std::size_t i = 0; i < serial.size(); ++i) {
    const bool same = same_bits(serial.position[i], spread.position[i]) && same_bits(serial.velocity[i], spread.velocity[i]) &&
                      same_bits(serial.angle[i], spread.angle[i]) &&
                      same_bits(serial.angular_velocity[i], spread.angular_velocity[i]) &&
                      same_bits(serial.force[i], spread.force[i]) && same_bits(serial.torque[i], spread.torque[i]);
    if (!same && ++differing <= 5) ADD_FAILURE() << "body " << i << " differs";
  }
  EXPECT_EQ(differing, 0);
}

// The touching contacts of both, in the serial list's order, field for field.
void expect_same_contacts(const std::vector<Contact>& serial, const std::vector<Contact>& spread) {
  std::vector<Contact> a, b;
  for (const Contact& c : serial)
    if (c.active) a.push_back(c);
  for (const Contact& c : spread)
    if (c.active) b.push_back(c);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_GT(a.size(), 5u);
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].vertex_body, b[k].vertex_body);
    EXPECT_EQ(a[k].edge_body, b[k].edge_body);
    EXPECT_EQ(a[k].vertex, b[k].vertex);
    EXPECT_EQ(a[k].feature, b[k].feature);
    EXPECT_TRUE(same_bits(a[k].xi, b[k].xi)) << "contact " << k;
    EXPECT_TRUE(same_bits(a[k].force, b[k].force)) << "contact " << k;
  }
}

TEST(DistributedEngine, EveryGrainMovesAsInTheSerialRunToTheBit) {
  const Ranks ranks;
  Engine serial(box_of_grains(12), settings_of_box());
  DistributedEngine spread(ranks, serial.snapshot());
  for (int chunk = 0; chunk < 4; ++chunk) {
    serial.run(5000);
    for (int k = 0; k < 5000; ++k) spread.step();
    EngineSnapshot gathered = spread.gather();
    const EnergyLedger b = spread.ledger();  // collective, as gather()
    if (!ranks.root()) continue;
    expect_same_motion(serial.world(), gathered.world);
    const Engine rebuilt(std::move(gathered));
    expect_same_contacts(serial.contacts(), rebuilt.contacts());
    // The energies are sums over the ranks' parts: the same to rounding.
    const EnergyLedger& a = serial.ledger();
    EXPECT_NEAR(a.mechanical(), b.mechanical(), 1e-9 * std::abs(a.mechanical()));
    EXPECT_NEAR(a.dissipated(), b.dissipated(), 1e-9 * a.dissipated());
    EXPECT_NEAR(a.external_work, b.external_work, 1e-9 * std::abs(a.external_work));
  }
  // The run was no still life: grains travelled, were shared out anew.
  const World& w = serial.world();
  EXPECT_LT(w.position[3].y, 4.0 * 12 + 3.0 - 1.0);  // the lid came down
  EXPECT_GT(serial.ledger().dissipated(), 1.0);
  if (ranks.size() > 1) {
    EXPECT_GT(spread.decompositions(), 2);
    EXPECT_LT(spread.grains_owned(), serial.world().size());
  }
}

// A scene whose grains are fewer than the ranks, and what ranks cannot
// run yet, are refused on every rank with words a user can act on.
TEST(DistributedEngine, RefusesWhatRanksCannotRun) {
  const Ranks ranks;
  World periodic = box_of_grains(1);
  periodic.cell.periodic = {true, false};
  periodic.cell.low = {0, -5};
  periodic.cell.size = {60, 100};
  try {
    DistributedEngine e(ranks, Engine(std::move(periodic), settings_of_box()).snapshot());
    ADD_FAILURE() << "a periodic cell was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("periodic cells do not run on several ranks"), std::string::npos) << e.what();
  }
  EngineSettings gear = settings_of_box();
  gear.integrator = Integrator::gear;
  EXPECT_THROW(DistributedEngine(ranks, Engine(box_of_grains(1), gear).snapshot()), std::invalid_argument);
  if (ranks.size() > 1) {
    World two = world_of({disk({1, 1}, 0.5)}, linear_law(1e5));
    try {
      DistributedEngine e(ranks, Engine(std::move(two), settings_of_box()).snapshot());
      ADD_FAILURE() << "one grain was spread over " << ranks.size() << " ranks";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("grains for"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace sphero
