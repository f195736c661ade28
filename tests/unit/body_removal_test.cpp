// Removing bodies between steps (engine/body_removal.h): ids kept and
// never given twice, every other contact kept with its spring and history,
// the books closed, and a plate's span refused.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <tuple>

#include "engine/body_removal.h"
#include "io/scene.h"

namespace sphero {
namespace {

std::unique_ptr<Engine> engine_of(const std::string& text) {
  const SceneConfig scene = parse_scene(text, "t.ini", SPHERO_DATA_DIR "/shapes");
  World w = build_world(scene);
  const EngineSettings s = resolve_engine_settings(scene, w);
  return std::make_unique<Engine>(std::move(w), s);
}

// Peanuts and disks settled in a box: many contacts, sticking and sliding.
std::unique_ptr<Engine> settled_pile() {
  auto engine = engine_of(
      "duration = 1\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e4 kt=5e3 mu=0.5 gamma_n=2\n"
      "wall = radius=0.05 points=0,10;0,0;8,0;8,10\n"
      "grains = shape=peanut.shape count=8 region=0.5,0.5,7.5,4 speed=1\n"
      "grains = shape=disk.shape count=12 region=0.5,4.5,7.5,8\n");
  engine->run(4000);
  return engine;
}

// A contact as the ids and body-frame features name it.
using ContactKey = std::tuple<int, int, int, int, int, int, int>;
std::map<ContactKey, Contact> contacts_by_id(const EngineSnapshot& s) {
  const World& w = s.world;
  std::map<ContactKey, Contact> out;
  for (const Contact& c : s.neighbours.contacts) {
    const auto v = static_cast<std::size_t>(c.vertex_body), e = static_cast<std::size_t>(c.edge_body);
    out[{w.id[v], w.id[e], c.vertex - w.vertex_begin[v], c.feature - w.vertex_begin[e], static_cast<int>(c.kind),
         c.image[0], c.image[1]}] = c;
  }
  return out;
}

TEST(BodyRemoval, KeepsEveryOtherContactAndClosesTheBooks) {
  const std::unique_ptr<Engine> engine = settled_pile();
  const EngineSnapshot before = engine->snapshot();
  const World& w = before.world;
  // Two grains that touch others, one of them through a sliding or
  // sticking spring: their contacts leave with them.
  std::vector<std::uint8_t> removed(w.size(), 0);
  int touching = 0;
  for (const Contact& c : before.neighbours.contacts)
    if (c.active && !w.is_wall[c.vertex_body] && !w.is_wall[c.edge_body] && touching < 2 && !removed[c.vertex_body] &&
        !removed[c.edge_body]) {
      removed[c.vertex_body] = 1;
      ++touching;
    }
  ASSERT_EQ(touching, 2);
  EngineSnapshot after = before;
  remove_bodies(after, removed);

  ASSERT_EQ(after.world.size(), w.size() - 2);
  std::vector<int> kept_ids;
  std::vector<std::string> kept_names;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!removed[i]) kept_ids.push_back(w.id[i]), kept_names.push_back(w.shape_name[i]);
  EXPECT_EQ(after.world.id, kept_ids);
  EXPECT_EQ(after.world.shape_name, kept_names);
  EXPECT_EQ(after.world.next_id, w.next_id);

  const auto old_contacts = contacts_by_id(before), new_contacts = contacts_by_id(after);
  std::size_t kept = 0, springs = 0;
  for (const auto& [key, c] : old_contacts) {
    const bool leaves = removed[static_cast<std::size_t>(index_of_id(w, std::get<0>(key)))] ||
                        removed[static_cast<std::size_t>(index_of_id(w, std::get<1>(key)))];
    const auto found = new_contacts.find(key);
    ASSERT_EQ(found == new_contacts.end(), leaves);
    if (leaves) continue;
    ++kept;
    springs += c.active && !(c.xi == Vec2{});
    EXPECT_EQ(found->second.xi, c.xi);
    EXPECT_EQ(found->second.damping_total, c.damping_total);
    EXPECT_EQ(found->second.sliding_total, c.sliding_total);
    EXPECT_EQ(found->second.active, c.active);
  }
  EXPECT_EQ(kept, new_contacts.size());
  EXPECT_GT(springs, 10u);

  // What left is booked as work out: the residual of the first law stays,
  // the dissipation so far stays, the external work falls by what left.
  const EnergyLedger l0 = Engine(before).ledger(), l1 = Engine(after).ledger();
  const double scale = std::abs(l0.mechanical()) + l0.dissipated() + std::abs(l0.external_work);
  EXPECT_NEAR(l1.first_law_residual(), l0.first_law_residual(), 1e-12 * scale);
  EXPECT_NEAR(l1.dissipated(), l0.dissipated(), 1e-12 * scale);
  EXPECT_NEAR(l0.external_work - l1.external_work, l0.mechanical() - l1.mechanical(), 1e-12 * scale);
  EXPECT_GT(l0.elastic() - l1.elastic(), 0.0);  // the removed grains' contacts were pressed

  // The rest falls into the holes; the books close as well as they did
  // while the pile settled from its start (the integrator's error, about
  // 0.5% of what is dissipated at this dt).
  Engine continued(after);
  continued.run(2000);
  const EnergyLedger l2 = continued.ledger();
  const double drift = std::abs(l2.first_law_residual() - l1.first_law_residual());
  EXPECT_GT(l2.dissipated() - l1.dissipated(), 10.0);
  EXPECT_LT(drift / (l2.dissipated() - l1.dissipated()), std::abs(l0.first_law_residual()) / l0.dissipated());
}

TEST(BodyRemoval, IdsAreNeverGivenTwice) {
  const auto disk_at = [](double x) {
    BodySpec b;
    b.shape = make_shape("d", SkeletonKind::point, {{0, 0}}, 0.5);
    b.position = {x, 0};
    return b;
  };
  World w = make_world({disk_at(0), disk_at(2), disk_at(4)}, 1, {placeholder_law()}, {});
  EXPECT_EQ(w.id, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(remove_bodies(w, {0, 0, 1}), (std::vector<int>{0, 1, -1}));
  add_bodies(w, {disk_at(6)});
  EXPECT_EQ(w.id, (std::vector<int>{0, 1, 3}));  // 2 was the removed grain's
  EXPECT_EQ(index_of_id(w, 3), 2);
  EXPECT_EQ(index_of_id(w, 2), -1);
  EXPECT_EQ(w.position[2], (Vec2{6, 0}));
}

TEST(BodyRemoval, APlateKeepsTheWallsItsPressureSpans) {
  auto engine = engine_of(
      "duration = 1\nlaw = 0 0 linear kn=1e4\n"
      "wall = name=left radius=0.05 points=0,0;0,4\nwall = name=right radius=0.05 points=4,0;4,4\n"
      "wall = name=top radius=0.05 points=0,3;4,3 pressure=10 inward=0,-1 span=left,right\n"
      "grains = shape=disk.shape count=2 region=0.5,0.5,3.5,2\n");
  EngineSnapshot state = engine->snapshot();
  const EngineSnapshot unchanged = state;
  std::vector<std::uint8_t> removed(state.world.size(), 0);
  removed[1] = 1;  // right
  try {
    remove_bodies(state, removed);
    FAIL() << "a plate's span was removed";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("body 2 ('top') keeps its pressure over its span to body 1 ('right')"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(state.world.size(), unchanged.world.size());
  removed = {0, 0, 1, 0, 0};  // the plate itself may go
  remove_bodies(state, removed);
  EXPECT_EQ(state.world.id, (std::vector<int>{0, 1, 3, 4}));
}

}  // namespace
}  // namespace sphero
