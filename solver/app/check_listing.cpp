#include "app/check_listing.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "io/wall_labels.h"

namespace sphero::app {

std::string walls_listing(const World& world) {
  std::vector<std::pair<int, std::size_t>> walls;  // number in the run, body
  for (std::size_t i = 0; i < world.size(); ++i)
    if (world.is_wall[i]) walls.push_back({world.id[i], i});
  std::sort(walls.begin(), walls.end());
  const auto label = [&](int body) {
    const auto i = static_cast<std::size_t>(body);
    return wall_label(world, i, world.id[i]);
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

namespace {

std::string rigid_law_words(const RigidLaw& law) {
  std::string words = law.elastic()          ? "elastic"
                      : law.restitution >= 0 ? fmt::format("restitution {:g}", law.restitution)
                                             : fmt::format("xi_n {:g} kg", law.normal_dissipation);
  if (law.tangential_dissipation > 0.0) words += fmt::format(", xi_t {:g} kg", law.tangential_dissipation);
  if (law.friction > 0.0) words += fmt::format(", mu {:g}", law.friction);
  return words;
}

}  // namespace

std::string rigid_listing(const World& world, const EngineSettings& settings) {
  if (settings.model != Model::rigid) return {};
  std::string listing = fmt::format("  rigid model: {}, tolerance {:g}, contact gap {:g} m; laws (materials: law):\n",
                                    to_string(settings.rigid.solver), settings.rigid.qp_tolerance, settings.rigid.gap);
  const int n = world.material_count;
  for (int a = 0; a < n; ++a)
    for (int b = a; b < n; ++b)
      listing +=
          fmt::format("    {} {}: {}\n", a, b, rigid_law_words(world.rigid_law[static_cast<std::size_t>(a * n + b)]));
  return listing;
}

}  // namespace sphero::app
