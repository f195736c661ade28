#include "engine/wall_vibration.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "engine/dof.h"

namespace sphero {

Vec2 vibration_displacement(const Vibration& v, double t) {
  const double period = 1.0 / v.frequency;
  const double tau = v.tap_interval > 0.0 ? t - v.tap_interval * std::floor(t / v.tap_interval) : t;
  // Between taps the wall rests where the cycle left it.
  if (v.tap_interval > 0.0 && tau >= period) return {};
  return std::sin(2.0 * std::numbers::pi * v.frequency * tau) * v.amplitude;
}

double drive_vibrating_walls(World& w, const std::vector<int>& bodies, double t, double dt) {
  double work = 0.0;
  for (int b : bodies) {
    BodyConstraint& c = w.constraint[static_cast<std::size_t>(b)];
    const Vec2 mean = c.vibration.steady_velocity +
                      (vibration_displacement(c.vibration, t + dt) - vibration_displacement(c.vibration, t)) / dt;
    for (int k : {dof_x, dof_y}) {
      if (!c.held[k]) continue;
      c.imposed_velocity[k] = k == dof_x ? mean.x : mean.y;
      double& v = dof_velocity(w, b, k);
      work += 0.5 * w.mass[static_cast<std::size_t>(b)] * (c.imposed_velocity[k] * c.imposed_velocity[k] - v * v);
      v = c.imposed_velocity[k];
    }
  }
  return work;
}

void check_vibration(const BodyConstraint& c) {
  const Vibration& v = c.vibration;
  if (!v.on()) {
    if (v.frequency != 0.0 || v.amplitude != Vec2{} || v.tap_interval != 0.0)
      throw std::invalid_argument("a vibration needs a positive frequency");
    return;
  }
  if (!std::isfinite(v.frequency) || !std::isfinite(v.amplitude.x) || !std::isfinite(v.amplitude.y) ||
      !std::isfinite(v.tap_interval) || !std::isfinite(v.steady_velocity.x) || !std::isfinite(v.steady_velocity.y))
    throw std::invalid_argument("a vibration's amplitude, frequency and tap interval must be finite");
  if (v.tap_interval < 0.0 || (v.tap_interval > 0.0 && v.tap_interval * v.frequency < 1.0))
    throw std::invalid_argument("taps must be at least one cycle (1/frequency) apart");
  if ((v.amplitude.x != 0.0 && !c.held[dof_x]) || (v.amplitude.y != 0.0 && !c.held[dof_y]))
    throw std::invalid_argument(
        "a wall vibrates only along the directions its motion is imposed in (not along a pressure)");
}

}  // namespace sphero
