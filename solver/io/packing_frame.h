// A packing or state file (`sphero pack`, state_NNNNN.vtu) as a frame
// (io/frame_data.h): its grains' rounded outlines, exact areas, centres and
// kinetic energies, and its walls — without contacts or stresses, which a
// packing does not hold. For figures and analysis of packings.
#pragma once

#include <vector>

#include "engine/world.h"
#include "io/frame_data.h"

namespace sphero {

// Chords per full circle of a packing's drawn outlines (a run's manifest
// says its own).
inline constexpr int kPackingArcResolution = 24;

// The bodies as read_state_vtu gives them (skeletons about their centres of
// mass); body i keeps its index as its id; `arc_resolution` chords per full
// circle.
FrameData packing_frame(const std::vector<BodySpec>& bodies, int arc_resolution);

// Fills the frame's exact shapes and its particles' masses from `bodies`,
// whose ids are `ids` (a run's state frame). Throws std::runtime_error when
// a particle's id has no body.
void add_exact_shapes(FrameData& frame, const std::vector<BodySpec>& bodies, const std::vector<int>& ids);

// A frame written without drawn outlines: its particles (with their
// coordination and stresses), outlines at `arc_resolution` and exact
// shapes from its grains' state records, in the order of their ids.
void add_particles_from_states(FrameData& frame, int arc_resolution);

}  // namespace sphero
