#include "analysis/packing/packing_fraction.h"

#include <stdexcept>
#include <string>

#include "shapes/mass_properties.h"

namespace sphero::analysis {

PackingMeasure measure_packing(std::span<const Shape> particles, double region_area) {
  if (!(region_area > 0.0)) throw std::invalid_argument("packing fraction: the region has no area");
  PackingMeasure measure{0.0, region_area};
  for (const Shape& particle : particles) measure.solid_area += mass_properties(particle).area;
  // Exact areas of non-overlapping particles cannot exceed the region; allow
  // round-off only.
  if (measure.solid_area > region_area * (1.0 + 1e-12))
    throw std::invalid_argument("packing fraction: the particles' area " + std::to_string(measure.solid_area) +
                                " exceeds the region's " + std::to_string(region_area) +
                                "; particles overlap or lie outside the region");
  return measure;
}

}  // namespace sphero::analysis
