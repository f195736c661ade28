// One collision instant solved as independent programs, one per connected
// group of bodies in contact (bodies linked by a contact, walls linking
// nothing): the same solution as one program over all of them, since
// neither the objective nor the constraints couple two groups, with
// smaller factorisations and each group's own interior-point iterations.
#pragma once

#include <vector>

#include "rigid/collision.h"

namespace sphero {

struct ComponentStats {
  long programs = 0;        // groups solved
  long iterations = 0;      // interior-point iterations, summed over the groups
  long largest_group = 0;   // bodies in the largest group
};

// As resolve_collisions; `result.program` holds the largest KKT residual
// over the groups, converged only if every group converged, and
// iterations the most any group took. Groups are solved in the order of
// their lowest body: the result does not depend on how they are found.
CollisionResult resolve_collisions_by_group(const std::vector<RigidBodyState>& bodies,
                                            const std::vector<CollisionContact>& contacts, const QpSettings& settings,
                                            ComponentStats* stats = nullptr);

}  // namespace sphero
