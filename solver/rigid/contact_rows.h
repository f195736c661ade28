// The rows of a collision's contacts (docs/MODEL.md §7): the coefficients
// of each body's (u_x, u_y, ω) in a relative velocity at a contact, shared
// by the interior point's assembly and the Gauss–Seidel sweeps.
#pragma once

#include <Eigen/Core>

#include <utility>
#include <vector>

#include "geometry/vec2.h"
#include "rigid/collision.h"

namespace sphero::contact_rows {

// The coefficients of one body's (u_x, u_y, ω) in the velocity of its
// material point at `point` along `direction`: direction·(u + ω perp(r)).
struct Row {
  int body = -1;
  double x = 0.0, y = 0.0, w = 0.0;
  double dot(const std::vector<RigidBodyState>& bodies, const Eigen::VectorXd* unknowns) const {
    if (body < 0) return 0.0;
    if (unknowns != nullptr)
      return x * (*unknowns)[3 * body] + y * (*unknowns)[3 * body + 1] + w * (*unknowns)[3 * body + 2];
    const RigidBodyState& b = bodies[static_cast<std::size_t>(body)];
    return x * b.velocity.x + y * b.velocity.y + w * b.angular_velocity;
  }
};

inline Row row_of(const std::vector<RigidBodyState>& bodies, int body, Vec2 shift, Vec2 point, Vec2 direction,
                  double sign) {
  if (body < 0) return {};
  const Vec2 r = point - (bodies[static_cast<std::size_t>(body)].centre + shift);
  return {body, sign * direction.x, sign * direction.y, sign * cross(r, direction)};
}

// A relative velocity along one direction at a contact: the rows of its
// two bodies and the wall's known part.
struct Relative {
  Row first, second;
  double wall = 0.0;
  double at(const std::vector<RigidBodyState>& bodies, const Eigen::VectorXd* unknowns = nullptr) const {
    return first.dot(bodies, unknowns) + second.dot(bodies, unknowns) - wall;
  }
};

inline Relative relative(const std::vector<RigidBodyState>& bodies, const CollisionContact& c, Vec2 direction) {
  return {row_of(bodies, c.body, c.body_shift, c.point, direction, 1.0),
          row_of(bodies, c.other, c.other_shift, c.point, direction, -1.0),
          c.other < 0 ? dot(direction, c.wall_velocity) : 0.0};
}

// B_a M⁻¹ B_bᵀ for two relative velocities of one contact (normal and
// tangent): an entry of the contact's block of the Delassus operator. With
// a = b, the inverse of the effective mass a percussion along it meets.
inline double inverse_mass_coupling(const std::vector<RigidBodyState>& bodies, const Relative& a, const Relative& b) {
  double sum = 0.0;
  for (const auto& [p, q] : {std::pair{a.first, b.first}, std::pair{a.second, b.second}}) {
    if (p.body < 0) continue;
    const RigidBodyState& s = bodies[static_cast<std::size_t>(p.body)];
    sum += (p.x * q.x + p.y * q.y) / s.mass + p.w * q.w / s.inertia;
  }
  return sum;
}

// The compliance ε_k of a contact along its normal relative velocity
// (collision.h): kRelativeCompliance over its effective mass.
inline double contact_compliance(const std::vector<RigidBodyState>& bodies, const Relative& normal) {
  return kRelativeCompliance * inverse_mass_coupling(bodies, normal, normal);
}

}  // namespace sphero::contact_rows
