// Vibrating and tapping walls (Vibration in world.h): where the oscillation
// has taken a wall, and the velocity that carries it there over a step.
#pragma once

#include <vector>

#include "engine/world.h"

namespace sphero {

// The oscillation's displacement at time t (without the steady motion).
Vec2 vibration_displacement(const Vibration& v, double t);

// Sets each listed body's held translations to its steady velocity plus
// the oscillation's mean velocity over [t, t + dt], both as the imposed
// velocity and as the velocity: every stepper then moves the wall along
// the chord between the oscillation's positions at the step's ends.
// Returns the work the drive does on the walls' own inertia to change
// their velocities (their kinetic energy's change), for the ledger.
double drive_vibrating_walls(World& w, const std::vector<int>& bodies, double t, double dt);

// Throws std::invalid_argument when the settings make no oscillation a
// stepper can follow (a frequency not positive and finite, taps closer
// than one cycle, an amplitude on a translation the body does not hold).
void check_vibration(const BodyConstraint& c);

}  // namespace sphero
