// Random gas and lattices.
#include <gtest/gtest.h>

#include <cmath>

#include "packing/generators.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_file.h"

namespace sphero {
namespace {

Shape world_shape(const BodySpec& b) {
  Shape s = transformed(b.shape, {}, b.angle);
  for (Vec2& p : s.vertices) p += b.position;
  return s;
}

TEST(Gas, ReachesTheFractionWithoutOverlapsAtTheAskedSpeed) {
  GasOptions o;
  o.box = {{0, 0}, {30, 20}};
  o.shapes = {
      read_shape_file(SPHERO_DATA_DIR "/shapes/peanut.shape"), read_shape_file(SPHERO_DATA_DIR "/shapes/cow.shape")};
  o.fractions = {3.0, 1.0};
  o.count = 60;
  o.packing_fraction = 0.25;
  o.spread = 0.1;
  o.speed = 1.5;
  o.seed = 3;
  const GasPacking gas = gas_packing(o);
  ASSERT_EQ(gas.bodies.size(), 60u);
  double area = 0.0, smallest = INFINITY, largest = 0.0;
  int cows = 0;
  for (const BodySpec& b : gas.bodies) {
    const double a = mass_properties(b.shape).area;
    area += a;
    smallest = std::min(smallest, a);
    largest = std::max(largest, a);
    cows += b.shape.name == "cow";
    EXPECT_NEAR(norm(b.velocity), 1.5, 1e-12);
    EXPECT_EQ(b.angular_velocity, 0.0);
    for (Vec2 v : world_shape(b).vertices) {
      EXPECT_GE(v.x, b.shape.radius - 1e-9);
      EXPECT_LE(v.x, 30 - b.shape.radius + 1e-9);
    }
  }
  EXPECT_NEAR(area / 600.0, 0.25, 0.01 * 0.25);  // within 1% (exact by construction)
  EXPECT_LE((largest - smallest) / (largest + smallest), 0.1 + 1e-12);
  EXPECT_GT((largest - smallest) / (largest + smallest), 0.05);
  EXPECT_NEAR(cows, 15, 9);  // a quarter of them, drawn at random
  for (std::size_t i = 0; i < gas.bodies.size(); ++i)
    for (std::size_t j = i + 1; j < gas.bodies.size(); ++j) {
      const Shape a = world_shape(gas.bodies[i]), b = world_shape(gas.bodies[j]);
      if (norm(gas.bodies[i].position - gas.bodies[j].position) > 6.0) continue;
      EXPECT_GT(skeleton_distance(a, b), a.radius + b.radius) << i << " " << j;
    }
}

TEST(Gas, SameSeedSameGasAndAnImpossibleFractionIsExplained) {
  GasOptions o;
  o.box = {{0, 0}, {10, 10}};
  o.shapes = {read_shape_file(SPHERO_DATA_DIR "/shapes/pebble.shape")};
  o.count = 40;
  o.packing_fraction = 0.2;
  const auto a = gas_packing(o), b = gas_packing(o);
  for (std::size_t i = 0; i < a.bodies.size(); ++i) EXPECT_EQ(a.bodies[i].position, b.bodies[i].position);
  o.packing_fraction = 0.8;
  try {
    gas_packing(o);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("random placement placed only"), std::string::npos) << e.what();
  }
}

TEST(Lattice, SquareAndHexagonalArrangements) {
  LatticeOptions o;
  o.shape = read_shape_file(SPHERO_DATA_DIR "/shapes/disk.shape");
  o.columns = 4;
  o.rows = 3;
  o.spacing = 1.0;
  const auto square = lattice_packing(o);
  ASSERT_EQ(square.size(), 12u);
  EXPECT_EQ(square[5].position, (Vec2{1.0, 1.0}));
  o.hexagonal = true;
  o.spacing = 2.0 / std::sqrt(3.0);
  const auto hexagonal = lattice_packing(o);
  EXPECT_NEAR(hexagonal[4].position.x, 0.5 * o.spacing, 1e-15);  // second row shifted
  EXPECT_NEAR(hexagonal[4].position.y, 1.0, 1e-12);              // rows √3/2 spacing apart
  o.spacing = 0.9;
  EXPECT_THROW(lattice_packing(o), std::invalid_argument);
}

// Disks at a spacing of one diameter overlap none and touch their nearest
// neighbours, six of them inside the crystal.
TEST(Lattice, HexagonalAtTheDiameterIsTheTouchingCrystal) {
  LatticeOptions o;
  o.shape = read_shape_file(SPHERO_DATA_DIR "/shapes/disk.shape");
  o.columns = 5;
  o.rows = 4;
  o.hexagonal = true;
  o.spacing = 2.0 * mass_properties(o.shape).bounding_radius;
  const auto crystal = lattice_packing(o);
  ASSERT_EQ(crystal.size(), 20u);
  int touching = 0;
  for (std::size_t i = 0; i < crystal.size(); ++i)
    for (std::size_t j = i + 1; j < crystal.size(); ++j) {
      const double d = norm(crystal[i].position - crystal[j].position);
      EXPECT_GE(d, o.spacing * (1.0 - 1e-12)) << i << " " << j;
      touching += d < o.spacing * (1.0 + 1e-12);
    }
  // Rows of 5: 4 pairs in each, 9 between each row and the next.
  EXPECT_EQ(touching, 4 * 4 + 3 * 9);
}

}  // namespace
}  // namespace sphero
