// Which part of a frame one writer writes. A serial run writes each frame
// whole, as one .vtu per field. A run on P ranks writes it in P pieces,
// one per rank, put together by one .pvtu per field: each rank writes the
// grains it owns, the pairs of bodies whose lower-numbered grain it owns
// (every vertex contact of a pair goes with the pair), and rank 0 the
// walls. Every file names a body by its id (World::id).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/run_identity.h"
#include "engine/world.h"

namespace sphero {

struct FramePiece {
  int index = 0;                      // this piece
  int count = 1;                      // the frame's pieces; 1: the frame is one .vtu
  std::vector<std::uint8_t> written;  // per body, 1 where this piece writes it; empty: every body
  RunIdentity run;                    // the run whose frame it is, which a piece says

  bool whole() const { return count == 1; }
  bool writes(std::size_t body) const { return written.empty() || written[body] != 0; }
  // Whether this piece writes the contacts of bodies a and b: those of the
  // pair's grain of lower id, or of the grain where the other is a wall.
  bool writes_pair(const World& w, int a, int b) const;
  // The file of this piece of a frame's field: "particles_00012.vtu" whole,
  // "particles_00012_3.vtu" as piece 3.
  std::string file_name(const std::string& field, int frame) const;
};

// The name of a frame's file: "particles_00012" and the extension.
std::string frame_stem(const std::string& field, int frame);

}  // namespace sphero
