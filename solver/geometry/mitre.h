// Where two edges of a polygon, pushed outward by r along their unit
// normals, meet beside the corner they share: the mitre's tip, which a
// reflex corner's swept outline passes. Shared by the mass properties'
// mitred decomposition and the offset curve.
#pragma once

#include "geometry/vec2.h"

namespace sphero {

inline Vec2 mitre_tip(Vec2 corner, Vec2 normal_in, Vec2 normal_out, double r) {
  return corner + (r / (1.0 + dot(normal_in, normal_out))) * (normal_in + normal_out);
}

}  // namespace sphero
