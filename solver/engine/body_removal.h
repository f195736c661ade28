// Removing bodies from a run's whole state between steps (a stage's
// `remove` lines, Python's change): every other body keeps its data, id,
// contacts with their springs and history, and the integrator's history.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/engine.h"

namespace sphero {

// Removes the bodies whose `removed` flag is set (one per body). What they
// carried leaves the books as work out, so the first law still closes:
// their kinetic and potential energies and the elastic energy of their
// contacts are booked as negative external work, and what their contacts
// had dissipated joins the dissipation of ended contacts. Throws
// std::invalid_argument where a kept plate's pressure span names a removed
// body (remove_bodies(World&, ...)).
void remove_bodies(EngineSnapshot& state, const std::vector<std::uint8_t>& removed);

}  // namespace sphero
