// The state file holds the skeletons exactly: written, read back and turned
// into a world, it is the same world.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>

#include "io/scene.h"
#include "io/state_vtu.h"

namespace sphero {
namespace {

TEST(StateVtu, RoundTripGivesBackTheSameWorld) {
  const SceneConfig scene = parse_scene(
      "duration = 1\ngravity = 0,-9.81\nlaw = 0 0 linear kn=1e4 kt=5e3 mu=0.5\nlaw = 0 1 linear kn=1e4\n"
      "law = 1 1 hertz kn=1e5\n"
      "wall = radius=0.05 points=0,20;0,0;9,0;9,20\n"
      "wall = radius=0.05 points=-1,19;10,19 velocity=0,-0.5 amplitude=0.1,0 frequency=3 tap_interval=1\n"
      "grains = shape=cow.shape count=2 region=0.3,0.3,8.7,4.5 speed=1 material=1 density=2.5\n"
      "grains = shape=peanut.shape count=3 region=0.5,5,8.5,7 speed=1\n"
      "grains = shape=disk.shape count=2 region=0.5,8,8.5,10\n",
      "t.ini", SPHERO_DATA_DIR "/shapes");
  World original = build_world(scene);
  for (std::size_t i = 0; i < original.size(); ++i) original.angular_velocity[i] = 0.1 * static_cast<double>(i);
  // The lid mid-tap, as a step's drive leaves it: its steady velocity is
  // what the file keeps as imposed.
  original.constraint[1].imposed_velocity[0] = 0.7;
  const auto file = std::filesystem::temp_directory_path() / "sphero_state_test.vtu";
  write_state_vtu(file, original, 1.5);
  const std::vector<BodySpec> specs = read_state_vtu(file);
  std::filesystem::remove(file);
  const World back = make_world(specs, original.material_count, original.law, original.gravity, original.cell);
  ASSERT_EQ(back.size(), original.size());
  EXPECT_EQ(back.constraint[1].vibration.frequency, 3.0);
  EXPECT_EQ(back.constraint[1].vibration.steady_velocity, (Vec2{0.0, -0.5}));
  for (std::size_t i = 0; i < back.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(back.shape_name[i], original.shape_name[i]);
    EXPECT_EQ(back.is_wall[i], original.is_wall[i]);
    EXPECT_EQ(back.material[i], original.material[i]);
    EXPECT_EQ(back.density[i], original.density[i]);
    EXPECT_EQ(back.velocity[i].x, original.velocity[i].x);
    EXPECT_EQ(back.angular_velocity[i], original.angular_velocity[i]);
    EXPECT_EQ(back.constraint[i].held, original.constraint[i].held);
    const Vibration& vibration = original.constraint[i].vibration;
    EXPECT_EQ(back.constraint[i].vibration.amplitude, vibration.amplitude);
    EXPECT_EQ(back.constraint[i].vibration.frequency, vibration.frequency);
    EXPECT_EQ(back.constraint[i].vibration.tap_interval, vibration.tap_interval);
    EXPECT_EQ(back.constraint[i].vibration.steady_velocity, vibration.steady_velocity);
    const std::array<double, 3> imposed =
        vibration.on() ? std::array<double, 3>{vibration.steady_velocity.x, vibration.steady_velocity.y, 0.0}
                       : original.constraint[i].imposed_velocity;
    EXPECT_EQ(back.constraint[i].imposed_velocity, imposed);
    // Centre of mass and skeleton to round-off (the shape is re-centred on
    // its recomputed centre of mass).
    EXPECT_NEAR(back.position[i].x, original.position[i].x, 1e-12);
    EXPECT_NEAR(back.position[i].y, original.position[i].y, 1e-12);
    EXPECT_NEAR(back.mass[i], original.mass[i], 1e-12 * original.mass[i]);
    ASSERT_EQ(back.vertex_count[i], original.vertex_count[i]);
    for (int k = 0; k < back.vertex_count[i]; ++k) {
      EXPECT_NEAR(
          back.world_vertex[back.vertex_begin[i] + k].x, original.world_vertex[original.vertex_begin[i] + k].x, 1e-12);
      EXPECT_NEAR(
          back.world_vertex[back.vertex_begin[i] + k].y, original.world_vertex[original.vertex_begin[i] + k].y, 1e-12);
    }
  }
}

// Written at their own positions and angles, bodies of one shape come back
// with round-off of their own; read back, they share one skeleton (so that
// its exact mass properties are computed once), and a shape that differs
// by more than round-off keeps its own.
TEST(StateVtu, BodiesOfOneShapeComeBackWithOneSkeleton) {
  const SceneConfig scene = parse_scene(
      "duration = 1\nlaw = 0 0 linear kn=1e4\n"
      "grains = shape=cow.shape count=40 generator=random region=-150,-150,150,150\n"
      "grains = shape=peanut.shape count=40 generator=random region=-150,-150,150,150\n",
      "t.ini", SPHERO_DATA_DIR "/shapes");
  World world = build_world(scene);
  // A cow stretched by a millionth: another shape under the same name.
  const std::size_t stretched = 7;
  std::vector<BodySpec> specs;
  const auto file = std::filesystem::temp_directory_path() / "sphero_state_shared_test.vtu";
  write_state_vtu(file, world, 0.0);
  specs = read_state_vtu(file);
  for (Vec2& v : specs[stretched].shape.vertices) v = 1.000001 * v;
  const World stretched_world = make_world(specs, world.material_count, world.law, world.gravity, world.cell);
  write_state_vtu(file, stretched_world, 0.0);
  specs = read_state_vtu(file);
  std::filesystem::remove(file);
  ASSERT_EQ(specs.size(), 80u);
  for (std::size_t i = 1; i < 40; ++i) {
    if (i != stretched) {
      EXPECT_EQ(specs[i].shape.vertices, specs[0].shape.vertices) << "cow " << i;
    }
  }
  EXPECT_NE(specs[stretched].shape.vertices, specs[0].shape.vertices);
  for (std::size_t i = 41; i < 80; ++i) EXPECT_EQ(specs[i].shape.vertices, specs[40].shape.vertices) << "peanut " << i;
  // The shared skeleton is one of the bodies' own, to round-off.
  for (std::size_t k = 0; k < specs[0].shape.vertices.size(); ++k)
    EXPECT_NEAR(norm(specs[0].shape.vertices[k] - specs[1].shape.vertices[k]), 0.0, 1e-12);
}

// Three named walls: a floor, a lid, and a side plate pushing on the span
// between them, all given by name.
SceneConfig scene_with_a_plate() {
  return parse_scene(
      "duration = 1\nlaw = 0 0 linear kn=1e4\n"
      "wall = name=floor radius=0.05 points=-1,0;10,0\n"
      "wall = name=lid radius=0.05 points=-1,9;10,9\n"
      "wall = name=side radius=0.05 points=0,-1;0,10 pressure=5 inward=1,0 span=floor,lid\n"
      "grains = shape=disk.shape count=3 region=1,1,8,8\n",
      "t.ini", SPHERO_DATA_DIR "/shapes");
}

TEST(StateVtu, PlatesKeepTheirNamesPressureAndSpan) {
  const World original = build_world(scene_with_a_plate());
  ASSERT_EQ(original.shape_name[2], "side");
  const auto file = std::filesystem::temp_directory_path() / "sphero_state_plate_test.vtu";
  write_state_vtu(file, original, 0.0);
  const std::vector<BodySpec> specs = read_state_vtu(file);
  std::filesystem::remove(file);
  EXPECT_EQ(specs[0].shape.name, "floor");
  EXPECT_EQ(specs[1].shape.name, "lid");
  const BodyConstraint& side = specs[2].constraint;
  EXPECT_EQ(side.pressure, 5.0);
  EXPECT_EQ(side.inward, (Vec2{1, 0}));
  EXPECT_EQ(side.span_bodies, (std::array<int, 2>{0, 1}));
  EXPECT_TRUE(side.follows_span());
  EXPECT_EQ(specs[3].constraint.span_bodies, (std::array<int, 2>{-1, -1}));
}

TEST(StateVtu, APlateWhoseSpanNamesAGrainIsRefused) {
  World world = build_world(scene_with_a_plate());
  std::vector<BodySpec> bodies;
  for (std::size_t i = 0; i < world.size(); ++i) {
    BodySpec b;
    b.shape = make_shape(world.shape_name[i], SkeletonKind::segment, {{0, 0}, {1, 0}}, 0.05);
    b.position = {3.0 * static_cast<double>(i), 0.0};
    b.is_wall = world.is_wall[i];
    b.constraint = world.constraint[i];
    bodies.push_back(b);
  }
  bodies[2].constraint.span_bodies = {0, 3};  // body 3 is a grain
  const auto file = std::filesystem::temp_directory_path() / "sphero_state_bad_plate_test.vtu";
  write_packing_vtu(file, bodies);
  try {
    read_state_vtu(file);
    FAIL() << "a span naming a grain was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(
        std::string(e.what()).find("body 2: a plate's span names body 3, which is not another wall"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(file);
}

TEST(StateVtu, ForeignOrMissingFilesAreNamed) {
  EXPECT_THROW(read_state_vtu("/no/such/state.vtu"), std::runtime_error);
  try {
    read_state_vtu(SPHERO_DATA_DIR "/shapes/cow.shape");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cow.shape: not a readable .vtu file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sphero
