// What the axes and legends of `sphero plot` say a table's columns hold.
#include <gtest/gtest.h>

#include "analysis/figures/column_labels.h"

namespace sphero::analysis {
namespace {

TEST(ColumnLabels, KnownColumnsReadAsQuantitiesWithUnits) {
  EXPECT_EQ(axis_label({"time_s"}), "time t (s)");
  EXPECT_EQ(axis_label({"sigma_yy"}), "σ_yy (N/m)");
  EXPECT_EQ(axis_label({"sigma_xx", "sigma_yy"}), "stress (N/m)");  // the legend names them
  EXPECT_EQ(axis_label({"void_ratio"}), "void ratio e");
  EXPECT_EQ(axis_label({"kinetic_translational_J", "first_law_residual_J"}), "energy (J)");
  EXPECT_EQ(axis_label({"packing_fraction", "void_ratio"}), "packing fraction φ, void ratio e");
  // Different units: each its own.
  EXPECT_EQ(axis_label({"sigma_yy", "void_ratio", "time_s"}), "σ_yy (N/m), void ratio e, time t (s)");
}

TEST(ColumnLabels, WallsAndUnitSuffixesAreReadFromTheirNames) {
  EXPECT_EQ(column_meaning("top_fy_N").quantity, "top force F_y");
  EXPECT_EQ(column_meaning("top_fy_N").unit, "N");
  EXPECT_EQ(column_meaning("left_load_fx_N").quantity, "left load F_x");
  EXPECT_EQ(column_meaning("wall3_y_m").quantity, "wall3 position y");
  EXPECT_EQ(column_meaning("wall0_face2_tau").quantity, "wall0 face 2 shear stress τ");
  EXPECT_EQ(column_meaning("wall0_face2_tau").unit, "N/m");
  EXPECT_EQ(column_meaning("velocity_x_m_per_s").quantity, "velocity x");
  EXPECT_EQ(column_meaning("velocity_x_m_per_s").unit, "m/s");
  EXPECT_EQ(column_meaning("area_m2").unit, "m²");
  // Unknown: the name itself, no unit.
  EXPECT_EQ(axis_label({"my_column"}), "my_column");
}

}  // namespace
}  // namespace sphero::analysis
