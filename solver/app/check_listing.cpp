#include "app/check_listing.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "io/wall_labels.h"

namespace sphero::app {

std::string walls_listing(const World& world, const FramePiece& piece) {
  std::vector<std::pair<int, std::size_t>> walls;  // number in the run, body
  for (std::size_t i = 0; i < world.size(); ++i)
    if (world.is_wall[i]) walls.push_back({piece.number_of(i), i});
  std::sort(walls.begin(), walls.end());
  const auto label = [&](int body) {
    const auto i = static_cast<std::size_t>(body);
    return wall_label(world, i, piece.number_of(i));
  };
  std::string listing = walls.empty() ? "  no walls\n" : "  walls (number, name: motion):\n";
  for (const auto& [number, i] : walls) {
    const auto& span = world.constraint[i].span_bodies;
    const std::string a = span[0] >= 0 ? label(span[0]) : "", b = span[1] >= 0 ? label(span[1]) : "";
    listing += fmt::format("    {} {}: {}, material {}\n", number, wall_label(world, i, number),
                           wall_motion_words(world, i, a, b), world.material[i]);
  }
  return listing;
}

std::string sources_listing(const std::vector<BodySource>& sources) {
  std::string listing = "  bodies from:\n";
  for (const BodySource& s : sources) {
    if (s.grains == 0 && s.walls == 0) continue;
    std::string counts;
    if (s.grains > 0) counts = fmt::format("{} grain{}", s.grains, s.grains == 1 ? "" : "s");
    if (s.walls > 0) counts += fmt::format("{}{} wall{}", counts.empty() ? "" : ", ", s.walls, s.walls == 1 ? "" : "s");
    listing += fmt::format("    {} ({}): {}\n", s.what, s.where, counts);
  }
  return listing;
}

}  // namespace sphero::app
