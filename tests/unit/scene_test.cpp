// Scenes: what they set, and every mistake named with its line and key.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/scene.h"

namespace sphero {
namespace {

const std::string kShapes = SPHERO_DATA_DIR "/shapes";

std::string minimal(const std::string& extra = "") {
  return "duration = 1\n"
         "law = 0 0 linear kn=1e4 kt=5e3 mu=0.5\n"
         "wall = radius=0.1 points=0,10;0,0;10,0;10,10\n"
         "grains = shape=disk.shape count=4 region=1,1,9,9\n" +
         extra;
}

std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    const SceneConfig scene = parse_scene(text, "s.ini", kShapes, overrides);
    build_world(scene);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(Scene, ReadsKeysAndLetsTheCommandLineOverride) {
  const SceneConfig s = parse_scene(minimal("gravity = 0,-9.81\ndt = 1e-4\nintegrator = gear\n"), "s.ini", kShapes,
                                    {"--gravity", "1,-2", "--add-wall", "radius=0.1 points=0,5;10,5"});
  EXPECT_EQ(s.gravity.x, 1.0);
  EXPECT_EQ(s.gravity.y, -2.0);
  EXPECT_EQ(s.engine.dt, 1e-4);
  EXPECT_EQ(s.engine.integrator, Integrator::gear);
  ASSERT_EQ(s.walls.size(), 2u);
  EXPECT_EQ(s.walls[0].at.where, "s.ini:3");
  EXPECT_EQ(s.walls[1].at.where, "command line --add-wall");
  const World w = build_world(s);
  EXPECT_EQ(w.size(), 2u + 4u);
}

TEST(Scene, AListKeyOnTheCommandLineReplacesTheScenes) {
  const SceneConfig s = parse_scene(
      minimal(), "s.ini", kShapes, {"--wall", "radius=0.1 points=0,5;10,5", "--wall", "radius=0.1 points=0,6;10,6"});
  ASSERT_EQ(s.walls.size(), 2u);
  EXPECT_EQ(s.walls[0].at.where, "command line --wall");
  EXPECT_EQ(s.walls[0].points[0].y, 5.0);
  EXPECT_EQ(s.walls[1].points[0].y, 6.0);
  EXPECT_EQ(s.laws.size(), 1u);  // the keys not given keep the scene's entries
  EXPECT_NE(error_of("duration = 1\nadd-wall = radius=0.1 points=0,5;10,5\n").find("unknown key 'add-wall'"),
            std::string::npos);
}

TEST(Scene, StagesFollowTheFirstWithWhatEachChanges) {
  const SceneConfig s = parse_scene(minimal("output_interval = 0.1\n\n[stage shear]  # the second\nduration = 2\n"
                                            "set_wall = 0 velocity=1,0\nlaw = 0 1 linear kn=1e4\n"
                                            "[stage rest]\nduration = 0.5\ngravity = 0,-1\ndt = auto\n"),
                                    "s.ini", kShapes);
  EXPECT_EQ(s.duration, 1.0);
  EXPECT_EQ(s.wall_changes.size(), 0u);  // the stages' own, not the first's
  ASSERT_EQ(s.stages.size(), 2u);
  const StageSpec& shear = s.stages[0];
  EXPECT_EQ(shear.name, "shear");
  EXPECT_EQ(shear.at.where, "s.ini:7");
  EXPECT_EQ(shear.duration, 2.0);
  ASSERT_EQ(shear.wall_changes.size(), 1u);
  EXPECT_EQ(shear.wall_changes[0].at.where, "s.ini:9");
  ASSERT_EQ(shear.laws.size(), 1u);
  EXPECT_FALSE(shear.gravity);
  EXPECT_FALSE(shear.dt);
  const StageSpec& rest = s.stages[1];
  EXPECT_EQ(rest.gravity, (Vec2{0, -1}));
  EXPECT_EQ(rest.dt, 0.0);  // auto
  EXPECT_TRUE(rest.wall_changes.empty());
  const auto refused = [](const std::string& stage) { return error_of(minimal("[stage s]\n" + stage)); };
  EXPECT_NE(refused("duration = 1\nthreads = 2\n").find("s.ini:7: 'threads' cannot change in a stage (stage s)"),
            std::string::npos);
  const SceneConfig removing = parse_scene(
      minimal("[stage s]\nduration = 1\nset_wall = 0 remove\nremove = region=0,0,2,1.5\nremove = ids=3,7\n"), "s.ini",
      kShapes);
  const StageSpec& cut = removing.stages.front();
  EXPECT_TRUE(cut.wall_changes.front().remove);
  ASSERT_EQ(cut.removals.size(), 2u);
  EXPECT_EQ(cut.removals[0].region, (std::array<double, 4>{0, 0, 2, 1.5}));
  EXPECT_EQ(cut.removals[1].ids, (std::vector<int>{3, 7}));
  EXPECT_EQ(cut.removals[1].at.where, "s.ini:9");
  EXPECT_NE(refused("duration = 1\nremove = region=0,0,1\n").find("s.ini:7: remove: expected 4 comma-separated"),
            std::string::npos);
  EXPECT_NE(refused("duration = 1\nremove = ids=2 region=0,0,1,1\n").find("s.ini:7: remove: give region="),
            std::string::npos);
  EXPECT_NE(refused("duration = 1\nremove = ids=2,-1\n").find("s.ini:7: remove: expected a whole number >= 0"),
            std::string::npos);
  EXPECT_NE(refused("duration = 1\narc_resolution = 8\n").find("'arc_resolution' cannot change in a stage"),
            std::string::npos);
  const SceneConfig fields =
      parse_scene(minimal("[stage s]\nduration = 1\nfields = particles,contact_points\n"), "s.ini", kShapes);
  // The state comes first, named or not; particles is the outlines' former name.
  EXPECT_EQ(fields.stages.front().fields, (std::vector<std::string>{"state", "outlines", "contact_points"}));
  EXPECT_NE(
      refused("duration = 1\nfields = state,pictures\n").find("unknown field 'pictures'; use state, contacts, walls"),
      std::string::npos);
  EXPECT_NE(refused("gravity = 0,1\n").find("s.ini:5: stage s: missing 'duration = SECONDS'"), std::string::npos);
  EXPECT_NE(
      error_of(minimal("[stage]\nduration = 1\n")).find("s.ini:5: '[stage]': the only sections"), std::string::npos);
}

TEST(Scene, AutoTimeStepIsAFiftiethOfTheContactPeriod) {
  const SceneConfig s = parse_scene(minimal(), "s.ini", kShapes);
  const World w = build_world(s);
  const EngineSettings e = resolve_engine_settings(s, w);
  const double m = 3.14159265358979 * 0.25;  // the library disk, r = 0.5
  EXPECT_NEAR(e.dt, 2 * 3.14159265358979 * std::sqrt(m / 1e4) / 50.0, 1e-12);
  EXPECT_NEAR(e.verlet_distance, 0.05, 1e-12);
}

TEST(Scene, EveryMistakeNamesItsLineAndKey) {
  EXPECT_EQ(error_of(minimal("colour = red\n")), "s.ini:5: unknown key 'colour'; `sphero run --help` lists the keys");
  EXPECT_EQ(error_of(minimal("dt = fast\n")), "s.ini:5: dt: expected a number, found 'fast'");
  EXPECT_EQ(error_of(minimal("gravity = 0\n")), "s.ini:5: gravity: expected 2 comma-separated numbers, found '0'");
  EXPECT_EQ(error_of(minimal("dt = 1e-4\ndt = 2e-4\n")), "s.ini:6: 'dt' is given more than once; it takes one value");
  EXPECT_EQ(
      error_of(minimal("integrator = euler\n")), "s.ini:5: integrator: unknown integrator 'euler': use verlet or gear");
  EXPECT_NE(error_of("law = 0 0 linear kn=1\n").find("missing 'duration"), std::string::npos);
  EXPECT_NE(error_of(minimal("[run]\n")).find("s.ini:5: '[run]': the only sections of a scene are '[stage NAME]'"),
            std::string::npos);
  EXPECT_EQ(error_of(minimal(), {"--dt", "-1"}), "command line --dt: dt: must be positive, found -1");
  EXPECT_NE(
      error_of(minimal(), {"--bogus", "1"}).find("command line: unrecognised option '--bogus'"), std::string::npos);
}

TEST(Scene, BadBodiesAreNamed) {
  EXPECT_NE(error_of(minimal("grains = shape=nowhere.shape count=1 region=1,1,2,2\n"))
                .find("s.ini:5: grains: " + kShapes + "/nowhere.shape: cannot open the shape file"),
            std::string::npos);
  EXPECT_NE(error_of(minimal("grains = shape=disk.shape count=99 region=1,1,4,4\n"))
                .find("s.ini:5: grains: the region holds 2 x 2 = 4"),
            std::string::npos);
  EXPECT_NE(
      error_of(minimal("grains = shape=disk.shape count=1 region=9.6,1,11,3\n")).find("overlaps the wall of s.ini:3"),
      std::string::npos);
  EXPECT_NE(
      error_of(minimal("grains = shape=disk.shape count=4 region=1,1,9,9\n")).find("overlaps grains from s.ini:4"),
      std::string::npos);
  EXPECT_NE(error_of(minimal("wall = radius=0.1 points=0,0\n")).find("s.ini:5: wall: a wall needs at least two points"),
            std::string::npos);
  EXPECT_NE(error_of(minimal("wall = radius=0.1 points=0,0;1,1 speed=3\n")).find("unknown setting 'speed'"),
            std::string::npos);
  EXPECT_NE(error_of(minimal("grains = shape=disk.shape count=1 region=12,1,14,3 material=1\n"))
                .find("no contact law between materials 0 and 1"),
            std::string::npos);
  EXPECT_NE(
      error_of(minimal("law = 0 0 linear kn=-5\n")).find("s.ini:5: law: the normal stiffness kn must be positive"),
      std::string::npos);
  EXPECT_NE(error_of(minimal("law = 0 0 linear kn=5\n")).find("already have a law (s.ini:2)"), std::string::npos);
}

TEST(Scene, WallsMoveAsToldAndSetWallChangesOrRemovesThem) {
  // minimal()'s box is wall 0; a lid (1) and a gate (2) follow.
  const std::string walls =
      "wall = radius=0.1 points=0,9;10,9 pressure=5 inward=0,-1 velocity=2,0\n"
      "wall = radius=0.1 points=4,0.2;6,0.2\n";
  World w = build_world(parse_scene(minimal(walls), "s.ini", kShapes));
  ASSERT_EQ(w.size(), 7u);
  EXPECT_TRUE(w.constraint[1].held[dof_x] && !w.constraint[1].held[dof_y]);
  EXPECT_EQ(w.constraint[1].imposed_velocity[dof_x], 2.0);
  EXPECT_EQ(w.constraint[1].imposed_force.y, -50.0);  // p × length 10
  // The gate removed, the box's other walls kept; the lid now a side plate
  // whose pressure acts on the span between walls 0 and 2.
  w = build_world(parse_scene(minimal(walls + "set_wall = 2 remove\nset_wall = 1 fixed\n"), "s.ini", kShapes));
  ASSERT_EQ(w.size(), 6u);
  EXPECT_TRUE(w.constraint[1].holds_all());
  EXPECT_EQ(w.constraint[1].imposed_velocity[dof_x], 0.0);
  w = build_world(parse_scene(minimal(walls + "set_wall = 1 pressure=3 inward=0,-1 span=0,2\n"), "s.ini", kShapes));
  EXPECT_EQ(w.constraint[1].span_bodies, (std::array<int, 2>{0, 2}));
  // A wall of a material of its own needs the laws for it.
  EXPECT_NE(
      error_of(minimal(walls + "set_wall = 2 fixed material=1\n")).find("no contact law between materials 0 and 1"),
      std::string::npos);
  w = build_world(
      parse_scene(minimal(walls + "set_wall = 2 material=1\nlaw = 0 1 linear kn=1e4\nlaw = 1 1 linear kn=1e4\n"),
                  "s.ini", kShapes));
  EXPECT_EQ(w.material[2], 1);
  EXPECT_TRUE(w.constraint[2].holds_all());
  // A material alone keeps the wall's motion: the lid stays a shear plate.
  w = build_world(
      parse_scene(minimal(walls + "set_wall = 1 material=1\nlaw = 0 1 linear kn=1e4\nlaw = 1 1 linear kn=1e4\n"),
                  "s.ini", kShapes));
  EXPECT_EQ(w.material[1], 1);
  EXPECT_EQ(w.constraint[1].pressure, 5.0);
  EXPECT_EQ(w.constraint[1].imposed_velocity[dof_x], 2.0);

  EXPECT_EQ(error_of(minimal("set_wall = 3 remove\n")),
            "s.ini:5: set_wall: body 3 is not a wall; the walls are 0 (numbered as in energy.csv)");
  EXPECT_NE(
      error_of(minimal("set_wall = 0 vanish\n")).find("s.ini:5: set_wall: expected 'W remove'"), std::string::npos);
  EXPECT_NE(error_of(minimal("set_wall = 0 remove velocity=1,0\n")).find("takes no settings"), std::string::npos);
  EXPECT_NE(error_of(minimal("set_wall = 0 remove material=1\n")).find("takes no settings"), std::string::npos);
  EXPECT_NE(error_of(minimal("set_wall = 0 remove amplitude=0,1 frequency=2\n")).find("takes no settings"),
            std::string::npos);
  EXPECT_NE(error_of(minimal("set_wall = 0 fixed velocity=1,0\n")).find("takes no settings but a vibration"),
            std::string::npos);
  // A packing's wall held and tapped; a scene's wall shaken on top of its velocity.
  w = build_world(parse_scene(
      minimal(walls + "set_wall = 1 fixed amplitude=0,0.5 frequency=2 tap_interval=3\n"), "s.ini", kShapes));
  EXPECT_TRUE(w.constraint[1].holds_all());
  EXPECT_EQ(w.constraint[1].vibration.amplitude, (Vec2{0.0, 0.5}));
  EXPECT_EQ(w.constraint[1].vibration.frequency, 2.0);
  EXPECT_EQ(w.constraint[1].vibration.tap_interval, 3.0);
  w = build_world(parse_scene(
      minimal("wall = radius=0.1 points=0,9;10,9 velocity=1,0 amplitude=0.2,0 frequency=5\n"), "s.ini", kShapes));
  EXPECT_EQ(w.constraint[1].vibration.steady_velocity, (Vec2{1.0, 0.0}));
  EXPECT_EQ(w.constraint[1].vibration.tap_interval, 0.0);
  // A shear plate vibrates across its pressure, not along it.
  w = build_world(parse_scene(
      minimal(walls + "set_wall = 1 pressure=3 inward=0,-1 amplitude=0.1,0 frequency=4\n"), "s.ini", kShapes));
  EXPECT_EQ(w.constraint[1].vibration.amplitude, (Vec2{0.1, 0.0}));
  EXPECT_NE(error_of(minimal(walls + "set_wall = 1 pressure=3 inward=0,-1 amplitude=0,0.1 frequency=4\n"))
                .find("vibrates only along the directions its motion is imposed in"),
            std::string::npos);
  EXPECT_NE(error_of(minimal(walls + "set_wall = 1 pressure=3 inward=0,-1 span=1,2\n"))
                .find("a plate's span is between two other walls"),
            std::string::npos);
  EXPECT_NE(error_of(minimal("wall = radius=0.1 points=0,9;10,9 pressure=5 inward=0,-1 velocity=0,1\n"))
                .find("velocity= must be across it"),
            std::string::npos);
  EXPECT_NE(error_of(minimal("wall = radius=0.1 points=0,9;10,9 span=0,1\n")).find("span= goes with pressure="),
            std::string::npos);
}

TEST(Scene, PeriodicScenesNeedACellAndGrainsInsideIt) {
  EXPECT_NE(
      error_of(minimal("periodic = x\n")).find("s.ini:5: periodic: a periodic scene needs 'cell"), std::string::npos);
  EXPECT_NE(error_of(minimal("periodic = x\ncell = 0,0,3,10\n")).find("outside the periodic cell"), std::string::npos);
  EXPECT_EQ(error_of(minimal("periodic = x\ncell = 0,0,10,10\n")), "");
}

TEST(Scene, ThreadsOtherThanOneAreRefusedHonestly) {
  EXPECT_NE(error_of(minimal("threads = 0\n")).find("threads"), std::string::npos);
}

// Random placement says how far it is, and gives up on a region too small
// for its grains after a run of misses, not after 1000 draws a grain.
TEST(Scene, RandomPlacementReportsProgressAndGivesUpOnAFullRegion) {
  const auto scene = [](int count) {
    return parse_scene("duration = 1\nlaw = 0 0 linear kn=1e4\ngrains = shape=disk.shape generator=random count=" +
                           std::to_string(count) + " region=0,0,120,120\n",
                       "r.ini", SPHERO_DATA_DIR "/shapes");
  };
  std::vector<std::pair<std::string, std::size_t>> reports;
  const World world = build_world(scene(5000), [&](std::string_view stage, std::size_t done, std::size_t total) {
    EXPECT_EQ(total, 5000u);
    reports.emplace_back(stage, done);
  });
  EXPECT_EQ(world.size(), 5000u);
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(reports.front(), std::make_pair(std::string("random placement"), std::size_t{4096}));
  EXPECT_EQ(reports.back(), std::make_pair(std::string("checking overlaps"), std::size_t{5000}));
  try {
    build_world(scene(200000));  // 14400 m² holds about 9000 unit disks at random
    FAIL() << "a region far too small was accepted";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("random placement found room for only"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sphero

namespace sphero {
namespace {

std::string rigid(const std::string& extra = "") {
  return "duration = 1\nmodel = rigid\ndt = 1e-3\n"
         "law = 0 0 rigid restitution=0.4 xi_t=2\n"
         "law = 0 1 rigid xi_n=30\n"
         "law = 1 1 rigid restitution=1\n"
         "wall = radius=0.1 material=1 points=0,10;0,0;10,0;10,10\n"
         "grains = shape=disk.shape count=4 region=1,1,9,9\n" +
         extra;
}

TEST(Scene, ARigidSceneSetsItsModelLawsGapAndAttractor) {
  const SceneConfig s =
      parse_scene(rigid("attractor = 5,2 7.5\nrigid_gap = 0.002\nrigid_tolerance = 1e-7\n"), "s.ini", kShapes);
  EXPECT_EQ(s.engine.model, Model::rigid);
  const World w = build_world(s);
  ASSERT_EQ(w.rigid_law.size(), 4u);
  EXPECT_EQ(w.rigid_law[0].restitution, 0.4);
  EXPECT_EQ(w.rigid_law[0].tangential_dissipation, 2.0);
  EXPECT_EQ(w.rigid_law[1].normal_dissipation, 30.0);
  EXPECT_LT(w.rigid_law[1].restitution, 0.0) << "xi_n given, no restitution";
  EXPECT_EQ(w.rigid_law[2].normal_dissipation, 30.0) << "both ways";
  EXPECT_TRUE(w.rigid_law[3].elastic());
  EXPECT_EQ(w.attractor.centre, (Vec2{5.0, 2.0}));
  EXPECT_EQ(w.attractor.strength, 7.5);
  const EngineSettings e = resolve_engine_settings(s, w);
  EXPECT_EQ(e.rigid.gap, 0.002);
  EXPECT_EQ(e.rigid.overlap_tolerance, 0.002);
  EXPECT_EQ(e.rigid.qp_tolerance, 1e-7);
  EXPECT_EQ(e.dt, 1e-3);
  // auto: a thousandth of the smallest grain (the library disk, 1 m across).
  const SceneConfig automatic = parse_scene(rigid(), "s.ini", kShapes);
  EXPECT_NEAR(resolve_engine_settings(automatic, build_world(automatic)).rigid.gap, 1e-3, 1e-15);
  // The default solver: the sweeps, at 1e-6; a restart keeps its
  // checkpoint's where the scene leaves them to the defaults.
  EXPECT_TRUE(s.rigid_tolerance_given);
  EXPECT_FALSE(automatic.rigid_solver_given || automatic.rigid_tolerance_given);
  EXPECT_EQ(resolve_engine_settings(automatic, build_world(automatic)).rigid.qp_tolerance, 1e-6);
  EXPECT_EQ(resolve_engine_settings(automatic, build_world(automatic)).rigid.solver, RigidSolver::gauss_seidel);
  // A soft scene has no rigid laws, and the attractor works there too.
  const SceneConfig soft = parse_scene(minimal("attractor = 1,1 3\n"), "s.ini", kShapes);
  const World ws = build_world(soft);
  EXPECT_TRUE(ws.rigid_law.empty());
  EXPECT_EQ(ws.attractor.strength, 3.0);
}

TEST(Scene, ARigidLawTakesCoulombFrictionWithTheGaussSeidelSolver) {
  const std::string laws =
      "duration = 1\nmodel = rigid\ndt = 1e-3\nrigid_solver = gauss_seidel\n"
      "law = 0 0 rigid restitution=0.2 mu=0.6\ngrains = shape=disk.shape count=4 region=1,1,9,9\n";
  const SceneConfig s = parse_scene(laws, "s.ini", kShapes);
  EXPECT_EQ(s.engine.rigid.solver, RigidSolver::gauss_seidel);
  const World w = build_world(s);
  ASSERT_EQ(w.rigid_law.size(), 1u);
  EXPECT_EQ(w.rigid_law[0].friction, 0.6);
  // The default solver takes friction; the interior point does not.
  EXPECT_EQ(parse_scene(rigid("law = 2 2 rigid restitution=0.5 mu=0.4\n"), "s.ini", kShapes).engine.rigid.solver,
            RigidSolver::gauss_seidel);
  EXPECT_EQ(error_of(rigid("rigid_solver = interior_point\nlaw = 2 2 rigid restitution=0.5 mu=0.4\n")),
            "s.ini:10: law: mu= (Coulomb friction) needs 'rigid_solver = gauss_seidel': the interior point solves "
            "the frictionless program only");
  EXPECT_EQ(error_of(rigid("rigid_solver = gauss_seidel\nlaw = 2 2 rigid restitution=0.5 mu=0.4 xi_t=1\n")),
            "s.ini:10: law: give either mu (Coulomb friction) or xi_t (viscous), not both");
  EXPECT_EQ(error_of(rigid("rigid_solver = gauss_seidel\nlaw = 2 2 rigid restitution=0.5 mu=-1\n")),
            "s.ini:10: law: mu must be from 0 to 100, found -1");
  EXPECT_EQ(error_of(rigid("rigid_solver = newton\n")),
            "s.ini:9: rigid_solver: expected interior_point or gauss_seidel, found 'newton'");
  EXPECT_EQ(error_of(minimal("rigid_solver = gauss_seidel\n")),
            "s.ini:5: rigid_solver: belongs to the rigid model: add 'model = rigid' or drop it");
}

TEST(Scene, RigidMistakesNameTheirLineAndKey) {
  EXPECT_EQ(error_of(rigid("law = 2 2 linear kn=1e4\n")),
            "s.ini:9: law: a soft law in a rigid-model scene: give 'law = A B rigid restitution=...' (docs/SCENES.md)");
  EXPECT_EQ(error_of(rigid("integrator = verlet\n")),
            "s.ini:9: integrator: the rigid model steps from collision to collision and takes no integrator: drop it");
  EXPECT_EQ(
      error_of(rigid(), {"--dt", "auto"}),
      "command line --dt: the rigid model needs 'dt = SECONDS': no contact stiffness sets it (docs/SCENES.md says "
      "how to choose it)");
  EXPECT_EQ(error_of(rigid("law = 2 2 rigid xi_t=1\n")),
            "s.ini:9: law: a rigid law takes one of restitution=E (0 to 1) or xi_n=.. (the normal dissipation, kg)");
  EXPECT_EQ(error_of(rigid("law = 2 2 rigid restitution=-0.5\n")),
            "s.ini:9: law: restitution must be from 0 to 1, found '-0.5'");
  EXPECT_EQ(
      error_of(rigid("law = 2 2 rigid xi_n=1e16\n")), "s.ini:9: law: xi_n must be from 0 to 1e15 kg, found 1e+16");
  EXPECT_EQ(error_of(minimal("law = 1 1 rigid restitution=0.5\n")),
            "s.ini:5: law: a rigid law in a soft-model scene: add 'model = rigid', or give a linear or hertz law");
  EXPECT_EQ(error_of(minimal("law = 1 1 linear kn=1 restitution=0.5\n")),
            "s.ini:5: law: 'restitution' belongs to rigid laws ('A B rigid ...'); a linear law takes kn=...");
  const std::string missing = error_of(
      "duration = 1\nmodel = rigid\ndt = 1e-3\nlaw = 0 0 rigid restitution=0.4\n"
      "grains = shape=disk.shape count=4 region=1,1,9,9 material=1\n");
  EXPECT_EQ(missing, "s.ini: no contact law between materials 0 and 1; add 'law = 0 1 rigid restitution=...'");
}

}  // namespace
}  // namespace sphero
