// The collision law between two materials in the rigid model (docs/MODEL.md
// §7): the normal and tangential parameters of the quadratic dissipation
// pseudopotential, ½ ξ_n d_n² + ½ ξ_t d_t² at the mean relative velocity.
// The normal one is given outright or through a restitution e, from which
// each contact's ξ_n follows from its effective mass. ξ_t is a viscous-like
// tangential dissipation, not Coulomb friction: it brakes sliding in
// proportion to the sliding speed and never sticks. Coulomb's friction μ
// (with the Gauss–Seidel solver) sticks within its cone and slides on it.
#pragma once

namespace sphero {

struct RigidLaw {
  // ξ_n, in kg (per unit thickness in 2D): used when restitution < 0.
  double normal_dissipation = 0.0;
  // e in [0, 1], or negative when ξ_n is given instead. e = 1 makes the
  // contact perfectly elastic: its mean relative normal velocity is zero.
  double restitution = -1.0;
  double tangential_dissipation = 0.0;  // ξ_t, in kg
  // μ: Coulomb's friction at the velocity after a collision, instead of ξ_t
  // (the Gauss–Seidel solver only).
  double friction = 0.0;

  bool elastic() const { return restitution >= 1.0; }
  // ξ_n of a contact whose effective mass along its normal is m (restitution
  // below 1, or ξ_n given).
  double normal_dissipation_at(double effective_mass) const;
};

// The largest ξ a law may give (kg per unit thickness): far beyond any grain.
inline constexpr double kMostDissipation = 1e15;
// The largest μ a rigid law may give, as a soft one (contact_law.h).
inline constexpr double kMostRigidFriction = 100.0;

// Throws std::invalid_argument naming the parameter out of range.
void validate(const RigidLaw& law);

// The coefficient of restitution of a binary collision with normal
// dissipation ξ between bodies of effective mass m at the contact:
// e = (ξ − 2m)/(ξ + 2m) for ξ ≥ 2m, else 0 (the constraint holds them together).
double restitution(double normal_dissipation, double effective_mass);
// The ξ that gives restitution e in [0, 1) at effective mass m: 2m (1 + e)/(1 − e).
double normal_dissipation_for(double restitution, double effective_mass);

}  // namespace sphero
