// Compression protocols end static, at the asked pressure.
#include <gtest/gtest.h>

#include "packing/compression.h"
#include "packing/generators.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

std::vector<BodySpec> loose_gas(int count) {
  GasOptions o;
  o.box = {{0, 0}, {12, 12}};
  o.shapes = {read_shape_file(SPHERO_DATA_DIR "/shapes/disk.shape"), read_shape_file(SPHERO_DATA_DIR "/shapes/pebble.shape")};
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

TEST(Compression, BadOptionsAreRefused) {
  CompressionOptions o;
  o.law = frictional();
  o.pressure = 1.0;
  EXPECT_THROW(compress_isotropically(o), std::invalid_argument);  // no grains
  o.grains = loose_gas(5);
  o.pressure = -1.0;
  EXPECT_THROW(compress_isotropically(o), std::invalid_argument);
}

}  // namespace
}  // namespace sphero
