#include "shapes/outline_cache.h"

#include <fmt/format.h>

#include "morphology/region.h"

namespace sphero {

OutlineCache::Entry& OutlineCache::entry(const Shape& shape) {
  // Twelve digits: skeletons read back from a state file, turned into the
  // body frame, differ from their shape file's only by round-off, and must
  // not each cost an offset construction.
  std::string key = fmt::format("{}|{:.12g}|{}", shape.name, shape.radius, static_cast<int>(shape.kind));
  for (Vec2 v : shape.vertices) key += fmt::format("|{:.12g},{:.12g}", v.x, v.y);
  const auto found = known_.find(key);
  if (found != known_.end()) return found->second;
  const std::vector<Region> regions = swept_region(shape);
  Entry e{discretise(regions.front().outer, arc_resolution_), {}, std::nullopt};
  for (const Region& region : regions) {
    e.loops.push_back(region.outer);
    e.loops.insert(e.loops.end(), region.holes.begin(), region.holes.end());
  }
  return known_.emplace(std::move(key), std::move(e)).first->second;
}

const MassProperties& OutlineCache::mass_properties(const Shape& shape) {
  Entry& e = entry(shape);
  if (!e.mass) e.mass = sphero::mass_properties(shape);
  return *e.mass;
}

}  // namespace sphero
