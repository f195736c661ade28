// An engine snapshot read from a checkpoint, checked before an engine
// trusts it: every per-body array one entry per body, every index (vertex
// ranges, materials, contacts' bodies and features) within what it indexes,
// times and sizes finite. A checksum catches accidents; these catch a file
// that was made to pass it.
#pragma once

#include "engine/engine.h"

namespace sphero {

// Throws std::invalid_argument saying what is inconsistent.
void check_snapshot(const EngineSnapshot& snapshot);

}  // namespace sphero
