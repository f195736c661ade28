#include "engine/wall_label.h"

#include <fmt/format.h>

namespace sphero {

bool is_unnamed_wall(std::string_view shape_name) { return shape_name == "wall" || shape_name == "plate"; }

std::string wall_label(const World& world, std::size_t i, int number) {
  return is_unnamed_wall(world.shape_name[i]) ? fmt::format("wall{}", number) : world.shape_name[i];
}

}  // namespace sphero
