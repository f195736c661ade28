// A collision instant solved by nonlinear Gauss–Seidel over its contacts
// (Moreau and Jean's NLGS, as LMGC90 uses; docs/MODEL.md §7, "Coulomb
// friction"): each contact in turn takes the percussion (P_n, P_t) that
// satisfies its own law exactly, the others' held, until a sweep changes
// no relative velocity by more than the tolerance and leaves no contact
// breaching its law (a program whose breach stays while no body moves is
// jammed, and reported as the interior point reports it). The normal law is the
// A-CD² one with its compliance (collision.h); the tangential law is the
// contact's ξ_t or, with friction μ > 0, Coulomb's at the velocity after
// the collision: sticking (t⁺ = 0) while |P_t| ≤ μ P_n, sliding against t⁺
// with |P_t| = μ P_n otherwise. Without friction it solves the interior
// point's program. Sweeps run in the contacts' order, carried further
// along conjugate directions; frictional programs that cycle start again
// with relaxed steps (gauss_seidel.cpp): the same bits every time.
#pragma once

#include <vector>

#include "rigid/collision.h"
#include "rigid/collision_settings.h"

namespace sphero {

// A frictional program may have many answers (Coulomb's law derives from no
// convex potential), between which the sweeps can wander above a tight
// tolerance. Once within kStalledAcceptance tolerances, they keep the best
// iterate, and stop with it when kStallSweeps sweeps have not bettered it:
// the program is then converged and stalled. Programs without friction
// have one answer and are held to the tolerance.
inline constexpr double kStalledAcceptance = 100.0;
inline constexpr int kStallSweeps = 300;

// The sweeps of frictional grains colliding fast can cycle between
// Coulomb's answers far above a tight tolerance however they are damped.
// A frictional program that has neither converged nor stalled when its
// sweeps are spent is taken at its best iterate where that iterate's
// residual is at most kLastResortResidual (a relative velocity of 10⁻² of
// the program's velocity scale moved by a sweep), and counted as stalled;
// above it the program fails.
inline constexpr double kLastResortResidual = 1e-2;

// As resolve_collisions; `program.iterations` counts the sweeps and
// `program.kkt_residual` is the last sweep's largest change of a contact's
// relative velocity over the whole sweep, or violation of a contact's law,
// over the program's velocity scale; `program.x` and `z` stay empty.
CollisionResult resolve_by_gauss_seidel(const std::vector<RigidBodyState>& bodies,
                                        const std::vector<CollisionContact>& contacts,
                                        const CollisionSettings& settings);

}  // namespace sphero
