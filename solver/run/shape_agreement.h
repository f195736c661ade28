// The ranks of a run agree on its shape table (io/shape_table.h): each
// holds some of the bodies, and the table every rank's state pieces name
// rows of must be one, numbered as a serial run numbers it.
#pragma once

#include "engine/world.h"
#include "io/shape_table.h"
#include "parallel/ranks.h"

namespace sphero {

// Appends to `table` (the same on every rank) the shapes of every rank's
// bodies (`local`: this rank's) that it lacks, in the order of the lowest
// id of a body of each, as a serial run appends them. Collective.
void agree_on_shapes(const Ranks& ranks, const World& local, ShapeTable& table);
// Rank 0's table on every rank. Collective.
void share_root_shapes(const Ranks& ranks, ShapeTable& table);

}  // namespace sphero
