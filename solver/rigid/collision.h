// One instant of multiple collisions between rigid bodies (A-CD²; the
// derivation and its signs are in docs/MODEL.md, "Rigid bodies"). The
// unknown is the mean x = (U⁻ + U⁺)/2 of every body's velocities (u_x, u_y,
// ω) before and after; x minimises
//
//   F(x) = ½ xᵀ (2M + Ξ) x − xᵀ (2M U⁻ + b)
//
// subject to, at every contact k, d_k(x) ≥ ½ d_k(U⁻): the relative normal
// velocity after the collision, 2 d_k(x) − d_k(U⁻), is not an approach.
// M holds masses and moments of inertia, Ξ the quadratic dissipation of
// each contact (ξ_n on the relative normal velocity, ξ_t on the
// tangential), b the external percussions of the step (gravity's impulse).
#pragma once

#include <vector>

#include "geometry/vec2.h"
#include "rigid/collision_settings.h"
#include "rigid/convex_qp.h"
#include "rigid/rigid_law.h"

namespace sphero {

struct RigidBodyState {
  double mass = 1.0, inertia = 1.0;  // about the centre of mass
  Vec2 centre;
  Vec2 velocity;
  double angular_velocity = 0.0;
  Vec2 impulse;  // external percussion on the centre over the step (b)
  double torque_impulse = 0.0;
};

struct CollisionContact {
  int body = 0;    // the body the normal points into...
  int other = -1;  // ...from this one; -1: a wall, whose point at `point` moves at `wall_velocity`
  Vec2 point;      // A_k
  Vec2 normal;     // N_k, a unit vector
  Vec2 wall_velocity;
  // Added to the centres of `body` and `other`: the periodic image each
  // takes part with (zero outside periodic cells).
  Vec2 body_shift, other_shift;
  // ξ_n and ξ_t, in kg: ½ ξ d² is an energy for a relative velocity d.
  double normal_dissipation = 0.0;
  double tangential_dissipation = 0.0;
  // μ: Coulomb's friction at the velocity after the collision instead of
  // ξ_t (RigidSolver::gauss_seidel only).
  double friction = 0.0;
  // A first guess of the percussions along the normal and perp(normal): the
  // last step's, where the contact had one. The Gauss–Seidel sweeps start
  // from it; the interior point does not use it.
  double warm_normal = 0.0, warm_tangential = 0.0;
  // Restitution 1, the limit ξ_n → ∞: the mean relative normal velocity is
  // held at d(x) ≥ 0 instead of ≥ ½ d(U⁻), and ξ_n is not used.
  bool elastic = false;
  // Raises the least mean relative normal velocity: d(x) ≥ ½ d(U⁻) + bias
  // (a position correction asks its displacements to open the overlaps).
  double bias = 0.0;
};

struct CollisionResult {
  std::vector<Vec2> velocity;  // U⁺ of each body
  std::vector<double> angular_velocity;
  // The percussion each contact puts on `body` (minus it on `other`): along
  // the normal (≥ 0 pushes apart) and along perp(normal).
  std::vector<double> normal_percussion, tangential_percussion;
  double dissipated = 0.0;  // the energy the collisions dissipated, ≥ 0 (Clausius–Duhem)
  // The work of moving walls' percussions: the kinetic energy changes by
  // xᵀb − dissipated + wall_work.
  double wall_work = 0.0;
  QpSolution program;  // iterations, KKT residual, convergence
  // Contacts that yield by more than kJammedYield of the program's velocity
  // scale: held by their compliance alone, where the rigid program has no
  // solution (a wall driving grains into a jammed pile).
  std::vector<std::size_t> jammed;
};

// Each contact's constraint yields by ε_k z_k for its percussion z_k, with
// ε_k = kRelativeCompliance / m_k and m_k the effective mass of its normal
// percussion (docs/MODEL.md §7, "Compliance"): the percussions are unique
// where the binding contacts outnumber what they hold (a hexagon pressed
// by several neighbours, a row of touching disks) and the program stays
// solvable. A percussion that keeps a load F on the contact over a step
// lets it close at 2 ε_k F dt, a creep that the next steps' overlap
// correction removes; it changes a unique answer by about this fraction.
inline constexpr double kRelativeCompliance = 1e-11;
// A solvable program's contacts yield by about kRelativeCompliance of its
// velocities; one that cannot be solved rigidly, by the velocity it cannot
// absorb.
inline constexpr double kJammedYield = 1e-6;

// Throws std::invalid_argument on contacts that name no body, normals that
// are not unit vectors, negative dissipations or friction, or friction
// asked of the interior point.
CollisionResult resolve_collisions(const std::vector<RigidBodyState>& bodies,
                                   const std::vector<CollisionContact>& contacts,
                                   const CollisionSettings& settings = {});

}  // namespace sphero
