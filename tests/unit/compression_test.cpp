// Compression protocols end static, at the asked pressure.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <set>

#include "analysis/frame_analysis.h"
#include "engine/stability.h"
#include "engine/stress.h"
#include "io/frame_reader.h"
#include "io/run_output.h"
#include "io/state_vtu.h"
#include "packing/compression.h"
#include "packing/generators.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

std::vector<BodySpec> loose_gas(int count) {
  GasOptions o;
  o.box = {{0, 0}, {12, 12}};
  o.shapes = {
      read_shape_file(SPHERO_DATA_DIR "/shapes/disk.shape"), read_shape_file(SPHERO_DATA_DIR "/shapes/pebble.shape")};
  o.count = count;
  o.packing_fraction = 0.3;
  o.spread = 0.2;
  o.seed = 8;
  return gas_packing(o).bodies;
}

ContactLaw frictional() {
  ContactLaw law;
  law.kn = 1e5;
  law.kt = 5e4;
  law.mu = 0.5;
  return law;
}

// 40 frictionless grains compressed by the plates to p = 100, static to an
// unbalanced-force ratio of 1e-4.
CompressionOptions frictionless_to_100() {
  CompressionOptions o;
  o.grains = loose_gas(40);
  o.law.kn = 1e5;
  o.pressure = 100.0;
  o.until.unbalanced_force_ratio = 1e-4;
  return o;
}

TEST(Compression, IsotropicCompressionEndsStaticAtTheTargetPressure) {
  CompressionOptions o;
  o.grains = loose_gas(40);
  o.law = frictional();
  o.pressure = 100.0;  // overlaps ~ p d / k_n ≈ 1e-3 of a grain
  const CompactionResult r = compress_isotropically(o);
  ASSERT_TRUE(r.static_reached) << "unbalanced force ratio " << r.unbalanced_force_ratio;
  for (double p : r.pressure) EXPECT_NEAR(p, 100.0, 0.01 * 100.0);
  EXPECT_LE(r.unbalanced_force_ratio, 1e-3);
  EXPECT_GT(r.packing_fraction, 0.6);  // from 0.3 to a dense, jammed sample
  EXPECT_LT(r.packing_fraction, 0.95);
  std::printf("compressed 40 grains to p = 100: packing fraction %.4f in %ld steps\n", r.packing_fraction, r.steps);
}

TEST(Compression, StressFromContactsEqualsThePlatesForceOverLength) {
  // A static, frictionless compressed sample: the Love–Weber average over
  // the grains (Σ A_p σ_p / A, A the area inside the plates) equals what
  // the plates carry per unit length, within the unbalanced-force tolerance.
  CompressionOptions o = frictionless_to_100();
  const CompactionResult r = compress_isotropically(o);
  ASSERT_TRUE(r.static_reached);
  ContactLaw law = o.law;
  law.gamma_n = 1.0;
  EngineSettings s;
  s.dt = 1e-5;
  s.verlet_distance = 0.01;
  Engine engine(make_world(r.bodies, 1, {law}, {}), s);
  engine.evaluate_forces_now();
  const World& w = engine.world();
  std::vector<double> area;
  for (const BodySpec& b : r.bodies) area.push_back(mass_properties(b.shape).area);
  const std::vector<Stress> stress = particle_stresses(w, engine.contacts(), area);
  std::vector<Stress> grains(stress.begin(), stress.begin() + 40);
  std::vector<double> grain_area(area.begin(), area.begin() + 40);
  const std::size_t plate = 40;  // left, right, bottom, top
  const double r_plate = w.radius[plate];
  const double width = (w.position[plate + 1].x - r_plate) - (w.position[plate].x + r_plate);
  const double height = (w.position[plate + 3].y - r_plate) - (w.position[plate + 2].y + r_plate);
  const Stress sample = average_stress(grains, grain_area, width * height);
  EXPECT_NEAR(sample.xx, 0.5 * (r.pressure[0] + r.pressure[1]), 0.01 * 100.0);
  EXPECT_NEAR(sample.yy, 0.5 * (r.pressure[2] + r.pressure[3]), 0.01 * 100.0);
  // Moment balance makes the average symmetric; frictionless plates carry
  // no shear on average, but 40 grains press unevenly along them: σ_xy is
  // the couple of those uneven loads, (1/A) Σ x f_y over a plate. With some
  // six contacts a side carrying forces that differ by half of their mean,
  // that couple is of order p/10 (measured 8.6 on this packing, 3 on an
  // earlier one).
  EXPECT_NEAR(sample.xy, sample.yx, 1e-3 * 100.0);  // to the residual imbalance of the static state
  EXPECT_LT(std::abs(sample.xy), 0.15 * 100.0);
  std::printf("sample stress (%.4f, %.4f; %.2g) against plates (%.4f, %.4f)\n", sample.xx, sample.yy, sample.xy,
              0.5 * (r.pressure[0] + r.pressure[1]), 0.5 * (r.pressure[2] + r.pressure[3]));
}

// What the grains push plate i with along its inward direction, over the
// span it presses on: the stress the sample holds on that side.
double pressure_on_plate(const World& w, std::size_t i) {
  const BodyConstraint& c = w.constraint[i];
  const Vec2 grains = w.force[i] - c.imposed_force - w.mass[i] * w.gravity;
  return -dot(grains, c.inward) / plate_span(w, c);
}

TEST(Compression, PlatesWrittenHoldTheReportedPressureWhenLoadedAsTheyAre) {
  // The packing written and read back, as a scene loads it: the plates are
  // named, keep their pressure and follow their span, so the sample, run
  // as it is for 2 s, stays at the pressure pack compress reported.
  CompressionOptions o;
  o.grains = loose_gas(40);
  o.law = frictional();
  o.pressure = 100.0;
  const CompactionResult r = compress_isotropically(o);
  ASSERT_TRUE(r.static_reached);
  const auto file = std::filesystem::temp_directory_path() / "sphero_compressed_plates.vtu";
  write_packing_vtu(file, r.bodies);
  const std::vector<BodySpec> bodies = read_state_vtu(file);
  std::filesystem::remove(file);
  ASSERT_EQ(bodies.size(), 44u);
  const char* names[4] = {"left", "right", "bottom", "top"};
  const std::array<int, 2> spans[4] = {{42, 43}, {42, 43}, {40, 41}, {40, 41}};
  for (int k = 0; k < 4; ++k) {
    const BodySpec& plate = bodies[40 + static_cast<std::size_t>(k)];
    EXPECT_EQ(plate.shape.name, names[k]);
    EXPECT_EQ(plate.constraint.pressure, 100.0);
    EXPECT_EQ(plate.constraint.span_bodies, spans[k]);
  }
  ContactLaw law = frictional();
  law.gamma_n = 20.0;
  World world = make_world(bodies, 1, {law}, {});
  EngineSettings s;
  s.dt = default_time_step(world);
  s.verlet_distance = 0.01;
  Engine engine(std::move(world), s);
  const long steps_per_check = std::lround(0.05 / s.dt);
  double farthest = 0.0;
  for (int check = 0; check < 40; ++check) {  // 2 s
    engine.run(steps_per_check);
    for (std::size_t i = 40; i < 44; ++i)
      farthest = std::max(farthest, std::abs(pressure_on_plate(engine.world(), i) - 100.0) / 100.0);
  }
  EXPECT_LT(farthest, 0.005) << "the sample's stress on a plate drifted from the target";
  std::printf("loaded as written, 2 s (%ld steps): the plates' stresses stayed within %.3g%% of 100\n",
              engine.step_count(), 100.0 * farthest);
}

TEST(Compression, DepositionUnderGravityEndsStatic) {
  DepositionOptions o;
  o.grains = loose_gas(40);
  o.law = frictional();
  const CompactionResult r = deposit_under_gravity(o);
  ASSERT_TRUE(r.static_reached) << r.unbalanced_force_ratio;
  EXPECT_GT(r.packing_fraction, 0.5);
  EXPECT_LT(r.packing_fraction, 0.95);
  std::printf("deposited 40 grains: packing fraction %.4f in %ld steps\n", r.packing_fraction, r.steps);
}

TEST(Compression, SlenderGrainsComeToRest) {
  // Rice (segments) turn fast when touched at the tip and two tips in each
  // other's caps touch twice: at a fiftieth of the translational contact
  // period these packings rattled for millions of steps (unbalanced force
  // ratio 0.74); the compaction's step resolves the turning mode.
  GasOptions g;
  g.box = {{0, 0}, {12, 12}};
  g.shapes = {read_shape_file(SPHERO_DATA_DIR "/shapes/rice.shape")};
  g.count = 60;
  g.packing_fraction = 0.3;
  g.spread = 0.1;
  g.seed = 1;
  CompressionOptions o;
  o.grains = gas_packing(g).bodies;
  o.law.kn = 1.0;
  o.pressure = 0.001;
  o.until.max_steps = 300000;
  const CompactionResult r = compress_isotropically(o);
  EXPECT_TRUE(r.static_reached) << "unbalanced force ratio " << r.unbalanced_force_ratio << " after " << r.steps;
  EXPECT_GT(r.packing_fraction, 0.75);
}

// A compaction gives its one law to every material, and each grain keeps
// its own material in what it returns.
TEST(Compression, GrainsOfSeveralMaterialsKeepTheirMaterials) {
  DepositionOptions o;
  o.grains = loose_gas(20);
  for (std::size_t i = 0; i < o.grains.size(); ++i) o.grains[i].material = static_cast<int>(i % 3);
  o.law = frictional();
  const CompactionResult r = deposit_under_gravity(o);
  EXPECT_TRUE(r.static_reached) << r.unbalanced_force_ratio;
  int grains = 0;
  for (const BodySpec& b : r.bodies) {
    if (!b.is_wall) {
      EXPECT_EQ(b.material, grains % 3);
      ++grains;
    }
  }
  EXPECT_EQ(grains, 20);
}

TEST(Compression, BadOptionsAreRefused) {
  CompressionOptions o;
  o.law = frictional();
  o.pressure = 1.0;
  EXPECT_THROW(compress_isotropically(o), std::invalid_argument);  // no grains
  o.grains = loose_gas(5);
  o.pressure = -1.0;
  EXPECT_THROW(compress_isotropically(o), std::invalid_argument);
  o.pressure = 1e300;  // beyond 1e12 N/m: a typo, refused before any step
  EXPECT_THROW(compress_isotropically(o), std::invalid_argument);
  o.pressure = 1.0;
  o.law.kn = 1e300;  // beyond 1e15: every step would overflow
  EXPECT_THROW(compress_isotropically(o), std::invalid_argument);
}

// The same static sample written as a run's frame and read back: the stress
// analysis computes from the files equals the plates' own measure, face by
// face, and leaving wall contacts out leaves exactly the branch-vector sum
// of the contacts between grains.
TEST(Compression, WallStressesFromAWrittenFrameMatchThePlates) {
  const CompressionOptions o = frictionless_to_100();
  const CompactionResult r = compress_isotropically(o);
  ASSERT_TRUE(r.static_reached);
  EngineSettings s;
  s.dt = 1e-5;
  s.verlet_distance = 0.01;
  Engine engine(make_world(r.bodies, 1, {o.law}, {}), s);
  engine.evaluate_forces_now();
  const auto dir = std::filesystem::path(testing::TempDir()) / "sphero_wall_stress";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  RunOutput output(dir, engine.world(), 24, {"particles", "contacts", "walls"});
  output.write_frame(engine);
  const FrameData frame = read_frame(dir, 0);
  ASSERT_EQ(frame.walls.size(), 4u);

  const analysis::FrameSummary with = analysis::analyze_frame(frame);
  ASSERT_EQ(with.walls.size(), 4u);  // each plate is one face
  // The same contact forces over two lengths: the plate's span between the
  // plates at its ends, and the length of the face the sample's outlines
  // cover (their extent within a grain size of it). In a sample 6 grains
  // wide the rounded corner grains can leave a tenth of a grain uncovered
  // at each end: up to 3%.
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(with.walls[k].normal_stress, r.pressure[k], 0.03 * 100.0) << "plate " << k;
    EXPECT_LT(std::abs(with.walls[k].shear_stress), 1e-9 * 100.0) << "frictionless plate " << k;
  }
  // Love–Weber over the sample (walls included) = the boundary tractions.
  EXPECT_NEAR(with.stress.xx, 0.5 * (with.walls[0].normal_stress + with.walls[1].normal_stress), 0.01 * 100.0);
  EXPECT_NEAR(with.stress.yy, 0.5 * (with.walls[2].normal_stress + with.walls[3].normal_stress), 0.01 * 100.0);

  analysis::AnalysisOptions without;
  without.exclude_walls = true;
  const analysis::FrameSummary inner = analysis::analyze_frame(frame, without);
  // Between grains only: σ = −(1/A) Σ_pairs branch ⊗ f_on_a, from the pairs.
  Stress branch_sum;
  std::set<int> grain_ids;
  for (const ParticleRecord& p : frame.particles) grain_ids.insert(p.id);
  for (const PairRecord& pair : frame.pairs) {
    if (!grain_ids.count(pair.body_a) || !grain_ids.count(pair.body_b)) continue;
    branch_sum += Stress{-pair.branch.x * pair.force.x, -pair.branch.x * pair.force.y, -pair.branch.y * pair.force.x,
                         -pair.branch.y * pair.force.y};
  }
  const double area = with.width * with.height;
  // Branch vectors come from the contact lines' ends (double precision in
  // the files): agreement to round-off.
  EXPECT_NEAR(inner.stress.xx, branch_sum.xx / area, 1e-9 * 100.0);
  EXPECT_NEAR(inner.stress.yy, branch_sum.yy / area, 1e-9 * 100.0);
  EXPECT_NEAR(inner.stress.xy, branch_sum.xy / area, 1e-9 * 100.0);
  // The grain-to-plate contacts carry a share of the total: a sample of ~6
  // grains across loses about one grain-radius of arm per side.
  EXPECT_LT(inner.stress.xx, 0.95 * with.stress.xx);
  EXPECT_GT(inner.stress.xx, 0.5 * with.stress.xx);
  std::printf(
      "plates (%.3f %.3f %.3f %.3f), from the frame (%.3f %.3f %.3f %.3f); sample sxx %.3f syy %.3f, "
      "between grains only %.3f %.3f\n",
      r.pressure[0], r.pressure[1], r.pressure[2], r.pressure[3], with.walls[0].normal_stress,
      with.walls[1].normal_stress, with.walls[2].normal_stress, with.walls[3].normal_stress, with.stress.xx,
      with.stress.yy, inner.stress.xx, inner.stress.yy);
}

}  // namespace
}  // namespace sphero
