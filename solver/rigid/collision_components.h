// One collision instant solved as independent programs over the connected
// groups of bodies in contact (bodies linked by a contact, walls linking
// nothing): the same solution as one program over all of them, since
// neither the objective nor the constraints couple two groups. A large
// group is a program of its own, with its own interior-point iterations;
// small ones share programs, whose fixed cost would otherwise dominate.
#pragma once

#include <vector>

#include "rigid/collision.h"

namespace sphero {

struct ComponentStats {
  long groups = 0;         // independent groups of bodies
  long programs = 0;       // programs solved: each large group alone, small ones together
  long iterations = 0;     // interior-point iterations, summed over the programs
  long stalled = 0;        // frictional programs whose sweeps stalled (gauss_seidel.h)
  long largest_group = 0;  // bodies in the largest group
};

// As resolve_collisions; `result.program` holds the largest KKT residual
// over the programs, converged only if every program converged, and
// iterations the most any program took. Groups are numbered, and shared
// out, in the order of their lowest body: the result does not depend on
// how they are found.
CollisionResult resolve_collisions_by_group(const std::vector<RigidBodyState>& bodies,
                                            const std::vector<CollisionContact>& contacts,
                                            const CollisionSettings& settings, ComponentStats* stats = nullptr);

}  // namespace sphero
