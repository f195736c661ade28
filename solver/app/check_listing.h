// What `sphero run --check` lists besides the numbers: each wall with its
// number, name and motion, and how many grains and walls came from each of
// the scene's sources (its walls, each packing, each grains line).
#pragma once

#include <string>
#include <vector>

#include "io/frame_piece.h"
#include "io/scene.h"

namespace sphero::app {

std::string walls_listing(const World& world, const FramePiece& piece);
std::string sources_listing(const std::vector<BodySource>& sources);

}  // namespace sphero::app
