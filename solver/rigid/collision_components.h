// One collision instant solved as independent programs over the connected
// groups of bodies in contact (bodies linked by a contact, walls linking
// nothing): the same solution as one program over all of them, since
// neither the objective nor the constraints couple two groups. A large
// group is a program of its own, with its own interior-point iterations;
// small ones share programs, whose fixed cost would otherwise dominate.
#pragma once

#include <cstddef>
#include <functional>
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

// Calls job(0) … job(count − 1), each once, in any order and on any
// threads: the engine's threads solve the programs of separate groups at
// once. Empty: one after another on the calling thread.
using RunApart = std::function<void(std::size_t count, const std::function<void(std::size_t)>& job)>;

// As resolve_collisions; `result.program` holds the largest KKT residual
// over the programs, converged only if every program converged, and
// iterations the most any program took. Groups are numbered, and shared
// out, in the order of their lowest body: the result does not depend on
// how they are found, nor on how `run_apart` runs the programs: each is
// solved alone and their results are gathered in the groups' order.
CollisionResult resolve_collisions_by_group(const std::vector<RigidBodyState>& bodies,
                                            const std::vector<CollisionContact>& contacts,
                                            const CollisionSettings& settings, ComponentStats* stats = nullptr,
                                            const RunApart& run_apart = {});

}  // namespace sphero
