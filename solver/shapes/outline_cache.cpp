#include "shapes/outline_cache.h"

#include <fmt/format.h>

#include "morphology/region.h"

namespace sphero {

OutlineCache::Entry& OutlineCache::entry(const Shape& shape) {
  std::string key = fmt::format("{}|{}|{}", shape.name, shape.radius, static_cast<int>(shape.kind));
  for (Vec2 v : shape.vertices) key += fmt::format("|{},{}", v.x, v.y);
  const auto found = known_.find(key);
  if (found != known_.end()) return found->second;
  Entry e{discretise(swept_region(shape).front().outer, arc_resolution_), std::nullopt};
  return known_.emplace(std::move(key), std::move(e)).first->second;
}

const MassProperties& OutlineCache::mass_properties(const Shape& shape) {
  Entry& e = entry(shape);
  if (!e.mass) e.mass = sphero::mass_properties(shape);
  return *e.mass;
}

}  // namespace sphero
