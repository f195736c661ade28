#include "io/state_constraints.h"

#include "io/vtu_file.h"

namespace sphero {

ConstraintRow constraint_row(const World& w, std::size_t body) {
  const BodyConstraint& c = w.constraint[body];
  ConstraintRow row;
  row.held = c.held;
  // A vibrating wall's imposed velocity is its steady one: this step's
  // share of the oscillation is in its velocity.
  row.imposed_velocity = c.steady_imposed_velocity();
  row.imposed_force = c.imposed_force;
  row.imposed_torque = c.imposed_torque;
  const Vibration& v = c.vibration;
  row.vibration = {v.amplitude.x, v.amplitude.y, v.frequency, v.tap_interval};
  row.pressure = c.pressure;
  row.inward = c.inward;
  for (std::size_t k = 0; k < 2; ++k)
    row.span[k] = c.span_bodies[k] < 0 ? -1 : w.id[static_cast<std::size_t>(c.span_bodies[k])];
  return row;
}

ConstraintRow constraint_row(const StateRecord& r) {
  return {r.held, r.imposed_velocity, r.imposed_force, r.imposed_torque, r.vibration, r.pressure, r.inward, r.span};
}

void set_constraint(StateRecord& r, const ConstraintRow& row) {
  r.held = row.held;
  r.imposed_velocity = row.imposed_velocity;
  r.imposed_force = row.imposed_force;
  r.imposed_torque = row.imposed_torque;
  r.vibration = row.vibration;
  r.pressure = row.pressure;
  r.inward = row.inward;
  r.span = row.span;
}

// Every piece of a frame holds the same arrays, and a grain's zeros cost
// next to nothing compressed.
void add_constraint_arrays(vtkUnstructuredGrid* grid, vtkIdType n,
                           const std::function<ConstraintRow(vtkIdType)>& row_of) {
  IntColumn held("held", n, 3);
  DoubleColumn imposed_velocity("imposed_velocity", n, 3), imposed_force("imposed_force", n, 3);
  // amplitude x, y, frequency, tap interval (Vibration); all 0 without one.
  DoubleColumn vibration("vibration", n, 4);
  // A pressure plate's pressure, inward x, y and the ids of the two bodies
  // whose distance is its span (-1 where it has none); all 0 for other
  // bodies (readers look at a span only where inward is not 0), which
  // compresses to nothing where -1 would not.
  DoubleColumn plate("plate", n, 5);
  for (vtkIdType k = 0; k < n; ++k) {
    const ConstraintRow r = row_of(k);
    for (int c = 0; c < 3; ++c) held.set(3 * k + c, r.held[static_cast<std::size_t>(c)]);
    imposed_velocity.set(k, {r.imposed_velocity[0], r.imposed_velocity[1], r.imposed_velocity[2]});
    imposed_force.set(k, {r.imposed_force.x, r.imposed_force.y, r.imposed_torque});
    vibration.set(k, {r.vibration[0], r.vibration[1], r.vibration[2], r.vibration[3]});
    const bool is_plate = !(r.inward == Vec2{});
    plate.set(k, {r.pressure, r.inward.x, r.inward.y, is_plate ? static_cast<double>(r.span[0]) : 0.0,
                  is_plate ? static_cast<double>(r.span[1]) : 0.0});
  }
  add_columns(grid, {&held, &imposed_velocity, &imposed_force, &vibration, &plate});
}

}  // namespace sphero
