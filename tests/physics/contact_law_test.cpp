// One contact, by hand: each law's force and energy, the damping's sign,
// the Coulomb cap.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/contact_law.h"

namespace sphero {
namespace {

ContactLaw law_with(NormalLaw normal, double kn) {
  ContactLaw law;
  law.normal = normal;
  law.kn = kn;
  return law;
}

TEST(ContactLaw, LinearSpringPushesTheVertexBackWithKnDelta) {
  Vec2 xi;
  const ContactResponse r = evaluate_contact(law_with(NormalLaw::linear, 200.0), {0.01, {0, -1}, {}}, xi, 1e-3);
  EXPECT_DOUBLE_EQ(r.force_on_vertex_body.y, 2.0);  // −k δ n with n pointing down
  EXPECT_DOUBLE_EQ(r.force_on_vertex_body.x, 0.0);
  EXPECT_DOUBLE_EQ(r.normal_energy, 0.5 * 200.0 * 1e-4);
}

TEST(ContactLaw, HertzSpringGrowsAsDeltaToTheThreeHalves) {
  Vec2 xi;
  const ContactResponse r = evaluate_contact(law_with(NormalLaw::hertz, 1000.0), {0.04, {1, 0}, {}}, xi, 1e-3);
  EXPECT_NEAR(r.force_on_vertex_body.x, -1000.0 * 0.008, 1e-12);
  EXPECT_NEAR(r.normal_energy, 0.4 * 1000.0 * std::pow(0.04, 2.5), 1e-15);
}

TEST(ContactLaw, NormalDampingResistsApproachAndDissipates) {
  ContactLaw law = law_with(NormalLaw::linear, 100.0);
  law.gamma_n = 3.0;
  Vec2 xi;
  // The vertex body moves towards the edge (+n) at 0.5: δ̇ = 0.5.
  const ContactResponse r = evaluate_contact(law, {0.01, {0, 1}, {0, 0.5}}, xi, 1e-3);
  EXPECT_DOUBLE_EQ(r.normal_force, 100.0 * 0.01 + 3.0 * 0.5);
  EXPECT_DOUBLE_EQ(r.force_on_vertex_body.y, -(1.0 + 1.5));
  EXPECT_DOUBLE_EQ(r.viscous_force.y, -1.5);
}

TEST(ContactLaw, TangentialSpringSticksThenSlidesAtMuTimesTheNormalForce) {
  ContactLaw law = law_with(NormalLaw::linear, 1000.0);
  law.kt = 500.0;
  law.mu = 0.5;
  Vec2 xi;
  const ContactKinematics sliding_right{0.01, {0, -1}, {2.0, 0.0}};  // F_n = 10, cap 5
  // One step of 1e-3: ξ = 2e-3, F_t = −1 < 5: sticks.
  ContactResponse r = evaluate_contact(law, sliding_right, xi, 1e-3);
  EXPECT_FALSE(r.sliding);
  EXPECT_DOUBLE_EQ(xi.x, 2e-3);
  EXPECT_DOUBLE_EQ(r.force_on_vertex_body.x, -1.0);
  EXPECT_DOUBLE_EQ(r.tangential_energy, 0.5 * 500.0 * 4e-6);
  // Ten more steps: trial ξ = 22e-3 → k_t ξ = 11 > 5: slides, ξ capped at
  // 5/500 = 0.01, and the energy above the cap is dissipated.
  for (int k = 0; k < 9; ++k) evaluate_contact(law, sliding_right, xi, 1e-3);
  r = evaluate_contact(law, sliding_right, xi, 1e-3);
  EXPECT_TRUE(r.sliding);
  EXPECT_NEAR(xi.x, 0.01, 1e-15);
  EXPECT_NEAR(r.force_on_vertex_body.x, -5.0, 1e-12);
  EXPECT_NEAR(r.tangential_spring_force.x, -5.0, 1e-12);
  EXPECT_NEAR(r.tangential_energy, 0.5 * 500.0 * 0.01 * 0.01, 1e-15);
}

TEST(ContactLaw, TangentialSpringTurnsWithTheNormal) {
  ContactLaw law = law_with(NormalLaw::linear, 1000.0);
  law.kt = 100.0;
  law.mu = 10.0;
  Vec2 xi{0.0, 0.02};  // left over from a contact whose normal was (1, 0)
  // Now the normal is (0, −1): the spring turns into the new tangent plane
  // keeping its length.
  evaluate_contact(law, {0.01, {std::sqrt(0.5), -std::sqrt(0.5)}, {}}, xi, 1e-3);
  EXPECT_NEAR(norm(xi), 0.02, 1e-15);
  EXPECT_NEAR(dot(xi, Vec2{std::sqrt(0.5), -std::sqrt(0.5)}), 0.0, 1e-15);
}

TEST(ContactLaw, CohesionPullsWithAConstantForceWhileClosed) {
  ContactLaw law = law_with(NormalLaw::linear, 100.0);
  law.cohesion = 0.4;
  Vec2 xi;
  const ContactResponse r = evaluate_contact(law, {0.001, {1, 0}, {}}, xi, 1e-3);
  EXPECT_NEAR(r.normal_force, 0.1 - 0.4, 1e-15);  // net attraction
  EXPECT_NEAR(r.force_on_vertex_body.x, 0.3, 1e-15);
  EXPECT_NEAR(r.normal_energy, 0.5 * 100.0 * 1e-6 - 0.4 * 0.001, 1e-15);
}

TEST(ContactLaw, NamesAndValidation) {
  EXPECT_EQ(normal_law_from_string("hertz"), NormalLaw::hertz);
  EXPECT_THROW(normal_law_from_string("hooke"), std::invalid_argument);
  ContactLaw bad;
  EXPECT_THROW(validate(bad), std::invalid_argument);  // kn = 0
  bad.kn = 1.0;
  bad.mu = -0.1;
  EXPECT_THROW(validate(bad), std::invalid_argument);
}

}  // namespace
}  // namespace sphero
