// Every vertex contact written to contact_points_NNNNN.vtu: a disk pressed
// into a floor, whose one contact is known by hand; and a settling sample,
// whose particles' Love–Weber stresses a referee recomputes from the
// contact points alone, to round-off.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>

#include "engine/stress.h"
#include "io/frame_reader.h"
#include "io/run_output.h"
#include "io/scene.h"
#include "io/state_vtu.h"

namespace sphero {
namespace {

namespace fs = std::filesystem;

fs::path fresh_directory(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

Engine engine_from(const std::string& scene_text, const fs::path& base) {
  const SceneConfig scene = parse_scene(scene_text, "t.ini", base);
  World w = build_world(scene);
  const EngineSettings s = resolve_engine_settings(scene, w);
  return Engine(std::move(w), s);
}

const std::vector<std::string> kFields{"particles", "contacts", "walls", "state", "contact_points"};

TEST(ContactPoints, ADiskPressedIntoAFloorHasItsOneContactWhereTheModelPutsIt) {
  // Disk r = 0.5 at height 0.59 over a floor of sphero-radius 0.1: overlap
  // δ = 0.01, normal (0, −1) from the disk's vertex to the floor's edge,
  // point of application X + (r − δ/2) n = (1, 0.095), force k_n δ = 100 up.
  const fs::path dir = fresh_directory("sphero_contact_points_disk");
  BodySpec floor, disk;
  floor.shape = make_shape("floor", SkeletonKind::segment, {{-5, 0}, {5, 0}}, 0.1);
  floor.is_wall = true;
  disk.shape = make_shape("disk", SkeletonKind::point, {{0, 0}}, 0.5);
  disk.position = {1, 0.59};
  write_packing_vtu(dir / "disk.vtu", {floor, disk});
  Engine engine = engine_from(
      "duration = 1\ndt = 1e-5\ngravity = 0,0\nlaw = 0 0 linear kn=1e4 kt=5e3 mu=0.5\n"
      "packing = disk.vtu\n",
      dir);
  engine.step();  // the forces of the state the step started from are the ones written
  const fs::path out = dir / "run";
  fs::create_directories(out);
  RunOutput(out, engine.world(), 16, kFields).write_frame(engine);
  const FrameData f = read_frame(out, 0);
  ASSERT_EQ(f.vertex_contacts.size(), 1u);
  const VertexContactRecord& c = f.vertex_contacts[0];
  EXPECT_EQ(c.vertex_body, 1);
  EXPECT_EQ(c.edge_body, 0);
  EXPECT_EQ(c.vertex, 0);
  EXPECT_EQ(c.edge, 0);
  EXPECT_FALSE(c.vertex_to_vertex);
  EXPECT_FALSE(c.sliding);
  const double y = engine.world().position[1].y, overlap = 0.6 - y;  // the step moved the disk a little
  EXPECT_NEAR(overlap, 0.01, 1e-6);
  EXPECT_NEAR(c.overlap, overlap, 1e-15);
  EXPECT_NEAR(c.point.x, 1.0, 1e-15);
  EXPECT_NEAR(c.point.y, y - (0.5 - overlap / 2), 1e-15);
  EXPECT_NEAR(c.normal.x, 0.0, 1e-15);
  EXPECT_NEAR(c.normal.y, -1.0, 1e-15);
  EXPECT_NEAR(c.normal_force, 1e4 * overlap, 1e-9);
  EXPECT_NEAR(c.force.x, 0.0, 1e-12);
  EXPECT_NEAR(c.force.y, 1e4 * overlap, 1e-9);
  EXPECT_EQ(c.edge_offset.x, 0.0);
  EXPECT_EQ(c.edge_offset.y, 0.0);
}

TEST(ContactPoints, EveryParticlesStressIsRecomputedFromTheContactPointsAlone) {
  Engine engine = engine_from(
      "duration = 1\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e4 kt=5e3 mu=0.5 gamma_n=2\n"
      "wall = radius=0.05 points=0,14;0,0;8,0;8,14\n"
      "grains = shape=peanut.shape count=8 region=0.5,0.5,7.5,5 speed=1\n"
      "grains = shape=disk.shape count=6 region=0.5,5.5,7.5,9\n"
      "grains = shape=cow.shape count=1 region=0.5,9.5,7.5,13.5\n",
      SPHERO_DATA_DIR "/shapes");
  engine.run(20000);
  const fs::path out = fresh_directory("sphero_contact_points_stress");
  RunOutput(out, engine.world(), 16, kFields).write_frame(engine);
  const FrameData f = read_frame(out, 0);
  long active = 0;
  for (const Contact& c : engine.contacts()) active += c.active;
  ASSERT_GT(active, 20);
  ASSERT_EQ(static_cast<long>(f.vertex_contacts.size()), active);
  // σ_p = −(1/A_p) Σ (R_c − x_p) ⊗ f_c over the particle's own vertex
  // contacts: at `point` with `force` for the vertex body, at
  // point − edge_offset with −force for the edge body.
  std::map<int, std::vector<ContactOnParticle>> on;
  for (const VertexContactRecord& c : f.vertex_contacts) {
    on[c.vertex_body].push_back({c.point, c.force});
    on[c.edge_body].push_back({c.point - c.edge_offset, -c.force});
    EXPECT_NEAR(norm(c.force + c.normal_force * c.normal - (c.force - dot(c.force, c.normal) * c.normal)), 0.0,
                1e-12 * (1.0 + norm(c.force)));  // the normal part is −f_n n
  }
  for (const ParticleRecord& p : f.particles) {
    const Stress s = love_weber(p.centre, on[p.id], p.area);
    const double scale = 1e-12 * (1.0 + std::abs(p.stress[0]) + std::abs(p.stress[3]));
    EXPECT_NEAR(s.xx, p.stress[0], scale) << "body " << p.id;
    EXPECT_NEAR(s.xy, p.stress[1], scale) << "body " << p.id;
    EXPECT_NEAR(s.yx, p.stress[2], scale) << "body " << p.id;
    EXPECT_NEAR(s.yy, p.stress[3], scale) << "body " << p.id;
  }
  // The contacts file's pair lines are these contacts summed.
  std::map<std::pair<int, int>, Vec2> summed;
  for (const VertexContactRecord& c : f.vertex_contacts)
    if (c.vertex_body < c.edge_body) summed[{c.vertex_body, c.edge_body}] += c.force;
    else summed[{c.edge_body, c.vertex_body}] -= c.force;
  ASSERT_EQ(summed.size(), f.pairs.size());
  for (const PairRecord& pair : f.pairs)
    EXPECT_NEAR(norm(pair.force - summed[{pair.body_a, pair.body_b}]), 0.0, 1e-9) << pair.body_a << "-" << pair.body_b;
}

}  // namespace
}  // namespace sphero
