// A frame made in memory straight from the engine (io/frame_grids.h) is
// what its files hold: written and read back, every record of every field
// is the same, to the bit.
#include <gtest/gtest.h>

#include <filesystem>

#include "io/frame_grids.h"
#include "io/frame_reader.h"
#include "io/run_output.h"
#include "io/scene.h"

namespace sphero {
namespace {

namespace fs = std::filesystem;

// Grains pressed by a plate whose pressure spans two side walls: grains,
// walls, contacts on both, sliding and sticking, a plate in the state.
Engine pressed_pile() {
  const SceneConfig scene = parse_scene(
      "duration = 1\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e4 kt=5e3 mu=0.3 gamma_n=2\n"
      "law = 0 1 linear kn=1e4 kt=5e3 mu=0.3 gamma_n=2\nlaw = 1 1 linear kn=1e4 kt=5e3 mu=0.3 gamma_n=2\n"
      "wall = name=left radius=0.05 points=0,0;0,12\nwall = name=right radius=0.05 points=8,0;8,12\n"
      "wall = name=floor radius=0.05 points=-1,0;9,0\n"
      "wall = name=lid radius=0.05 points=-1,9;9,9 pressure=20 inward=0,-1 span=left,right\n"
      "grains = shape=peanut.shape count=8 region=0.5,0.5,7.5,5 speed=1\n"
      "grains = shape=disk.shape count=12 region=0.5,5.5,7.5,8.5 material=1\n",
      "t.ini", SPHERO_DATA_DIR "/shapes");
  World w = build_world(scene);
  const EngineSettings s = resolve_engine_settings(scene, w);
  Engine engine(std::move(w), s);
  engine.run(3000);
  return engine;
}

void expect_same_particles(const FrameData& a, const FrameData& b) {
  ASSERT_EQ(a.particles.size(), b.particles.size());
  for (std::size_t k = 0; k < a.particles.size(); ++k) {
    const ParticleRecord &p = a.particles[k], &q = b.particles[k];
    EXPECT_EQ(p.id, q.id);
    EXPECT_EQ(p.centre, q.centre);
    EXPECT_EQ(p.area, q.area);
    EXPECT_EQ(p.stress, q.stress);
    EXPECT_EQ(p.wall_stress, q.wall_stress);
    EXPECT_EQ(p.coordination, q.coordination);
    EXPECT_EQ(p.kinetic_energy, q.kinetic_energy);
    EXPECT_EQ(p.radius, q.radius);
    EXPECT_EQ(p.shape, q.shape);
    EXPECT_EQ(p.velocity, q.velocity);
    EXPECT_EQ(p.angular_velocity, q.angular_velocity);
    EXPECT_EQ(p.mass, q.mass);
    EXPECT_EQ(p.material, q.material);
    EXPECT_EQ(a.outlines[k], b.outlines[k]);
    EXPECT_EQ(a.exact_shapes[k].shape.vertices, b.exact_shapes[k].shape.vertices);
    EXPECT_EQ(a.exact_shapes[k].position, b.exact_shapes[k].position);
    EXPECT_EQ(a.exact_shapes[k].angle, b.exact_shapes[k].angle);
  }
}

void expect_same_pairs(const FrameData& a, const FrameData& b) {
  ASSERT_EQ(a.pairs.size(), b.pairs.size());
  ASSERT_EQ(a.forces.size(), b.forces.size());
  for (std::size_t k = 0; k < a.pairs.size(); ++k) {
    const PairRecord &p = a.pairs[k], &q = b.pairs[k];
    EXPECT_EQ(p.body_a, q.body_a);
    EXPECT_EQ(p.body_b, q.body_b);
    EXPECT_EQ(p.branch, q.branch);
    EXPECT_EQ(p.normal, q.normal);
    EXPECT_EQ(p.force, q.force);
    EXPECT_EQ(p.normal_force, q.normal_force);
    EXPECT_EQ(p.tangential_force, q.tangential_force);
    EXPECT_EQ(p.overlap, q.overlap);
    EXPECT_EQ(p.vertex_contacts, q.vertex_contacts);
    EXPECT_EQ(a.forces[k].a, b.forces[k].a);
    EXPECT_EQ(a.forces[k].b, b.forces[k].b);
    EXPECT_EQ(a.forces[k].magnitude, b.forces[k].magnitude);
    EXPECT_EQ(a.forces[k].sliding, b.forces[k].sliding);
  }
}

void expect_same_walls(const FrameData& a, const FrameData& b) {
  ASSERT_EQ(a.walls.size(), b.walls.size());
  EXPECT_EQ(a.wall_outlines, b.wall_outlines);
  for (std::size_t k = 0; k < a.walls.size(); ++k) {
    EXPECT_EQ(a.walls[k].id, b.walls[k].id);
    EXPECT_EQ(a.walls[k].skeleton, b.walls[k].skeleton);
    EXPECT_EQ(a.walls[k].force, b.walls[k].force);
    ASSERT_EQ(a.walls[k].contacts.size(), b.walls[k].contacts.size());
    for (std::size_t c = 0; c < a.walls[k].contacts.size(); ++c) {
      EXPECT_EQ(a.walls[k].contacts[c].point, b.walls[k].contacts[c].point);
      EXPECT_EQ(a.walls[k].contacts[c].force, b.walls[k].contacts[c].force);
      EXPECT_EQ(a.walls[k].contacts[c].grain, b.walls[k].contacts[c].grain);
    }
  }
}

void expect_same_vertex_contacts(const FrameData& a, const FrameData& b) {
  ASSERT_EQ(a.vertex_contacts.size(), b.vertex_contacts.size());
  for (std::size_t k = 0; k < a.vertex_contacts.size(); ++k) {
    const VertexContactRecord &p = a.vertex_contacts[k], &q = b.vertex_contacts[k];
    EXPECT_EQ(p.vertex_body, q.vertex_body);
    EXPECT_EQ(p.edge_body, q.edge_body);
    EXPECT_EQ(p.vertex, q.vertex);
    EXPECT_EQ(p.edge, q.edge);
    EXPECT_EQ(p.vertex_to_vertex, q.vertex_to_vertex);
    EXPECT_EQ(p.sliding, q.sliding);
    EXPECT_EQ(p.point, q.point);
    EXPECT_EQ(p.normal, q.normal);
    EXPECT_EQ(p.force, q.force);
    EXPECT_EQ(p.normal_force, q.normal_force);
    EXPECT_EQ(p.overlap, q.overlap);
    EXPECT_EQ(p.edge_offset, q.edge_offset);
  }
}

void expect_same_states(const FrameData& a, const FrameData& b) {
  ASSERT_EQ(a.states.size(), b.states.size());
  for (std::size_t k = 0; k < a.states.size(); ++k) {
    const StateRecord &p = a.states[k], &q = b.states[k];
    EXPECT_EQ(p.id, q.id);
    EXPECT_EQ(p.shape, q.shape);
    EXPECT_EQ(p.skeleton, q.skeleton);
    EXPECT_EQ(p.closed, q.closed);
    EXPECT_EQ(p.material, q.material);
    EXPECT_EQ(p.wall, q.wall);
    EXPECT_EQ(p.held, q.held);
    EXPECT_EQ(p.radius, q.radius);
    EXPECT_EQ(p.centre, q.centre);
    EXPECT_EQ(p.angle, q.angle);
    EXPECT_EQ(p.velocity, q.velocity);
    EXPECT_EQ(p.angular_velocity, q.angular_velocity);
    EXPECT_EQ(p.density, q.density);
    EXPECT_EQ(p.imposed_velocity, q.imposed_velocity);
    EXPECT_EQ(p.imposed_force, q.imposed_force);
    EXPECT_EQ(p.imposed_torque, q.imposed_torque);
    EXPECT_EQ(p.vibration, q.vibration);
    EXPECT_EQ(p.pressure, q.pressure);
    EXPECT_EQ(p.inward, q.inward);
    EXPECT_EQ(p.span, q.span);
  }
}

TEST(FrameInMemory, IsWhatItsFilesHoldRecordForRecord) {
  const Engine engine = pressed_pile();
  const fs::path dir = fs::temp_directory_path() / "sphero_frame_in_memory";
  fs::remove_all(dir);
  fs::create_directories(dir);
  RunOutput output(dir, engine.world(), 24, kFrameFields);
  output.write_frame(engine);
  const FrameData written = read_frame(dir, 0), made = frame_in_memory(engine, 24);
  EXPECT_EQ(made.time, written.time);
  ASSERT_EQ(made.particles.size(), 20u);
  ASSERT_GT(made.pairs.size(), 20u);
  ASSERT_EQ(made.walls.size(), 4u);
  ASSERT_EQ(made.states.size(), 24u);
  EXPECT_EQ(made.states[3].span, (std::array<int, 2>{0, 1}));  // the lid's, by id
  EXPECT_EQ(made.particles.back().material, 1);
  bool sliding = false, sticking = false;
  for (const ForceSegment& f : made.forces) (f.sliding ? sliding : sticking) = true;
  EXPECT_TRUE(sliding && sticking);
  expect_same_particles(made, written);
  expect_same_pairs(made, written);
  expect_same_walls(made, written);
  expect_same_vertex_contacts(made, written);
  expect_same_states(made, written);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sphero
