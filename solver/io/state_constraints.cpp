#include "io/state_constraints.h"

#include <algorithm>
#include <optional>

#include <vtkCellData.h>

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

namespace {

// The five arrays, zero where nothing is imposed, each made only where
// it is wanted.
class ConstraintColumns {
 public:
  ConstraintColumns(vtkIdType n, const std::array<bool, 5>& wanted) {
    if (wanted[0]) made_.push_back(&held_.emplace("held", n, 3));
    if (wanted[1]) made_.push_back(&imposed_velocity_.emplace("imposed_velocity", n, 3));
    if (wanted[2]) made_.push_back(&imposed_force_.emplace("imposed_force", n, 3));
    // amplitude x, y, frequency, tap interval (Vibration); all 0 without one.
    if (wanted[3]) made_.push_back(&vibration_.emplace("vibration", n, 4));
    // A pressure plate's pressure, inward x, y and the ids of the two
    // bodies whose distance is its span (-1 where it has none); all 0 for
    // other bodies (readers look at a span only where inward is not 0),
    // which compresses to nothing where -1 would not.
    if (wanted[4]) made_.push_back(&plate_.emplace("plate", n, 5));
    for (Column* c : made_) c->zero();
  }
  ConstraintColumns(const ConstraintColumns&) = delete;  // made_ points into it
  ConstraintColumns& operator=(const ConstraintColumns&) = delete;

  void set(vtkIdType k, const ConstraintRow& r) {
    if (held_)
      for (int c = 0; c < 3; ++c) held_->set(3 * k + c, r.held[static_cast<std::size_t>(c)]);
    if (imposed_velocity_)
      imposed_velocity_->set(k, {r.imposed_velocity[0], r.imposed_velocity[1], r.imposed_velocity[2]});
    if (imposed_force_) imposed_force_->set(k, {r.imposed_force.x, r.imposed_force.y, r.imposed_torque});
    if (vibration_) vibration_->set(k, {r.vibration[0], r.vibration[1], r.vibration[2], r.vibration[3]});
    if (plate_) {
      const bool is_plate = !(r.inward == Vec2{});
      plate_->set(k, {r.pressure, r.inward.x, r.inward.y, is_plate ? static_cast<double>(r.span[0]) : 0.0,
                      is_plate ? static_cast<double>(r.span[1]) : 0.0});
    }
  }

  void add_to(vtkUnstructuredGrid* grid) const {
    for (const Column* c : made_) grid->GetCellData()->AddArray(c->array());
  }

 private:
  std::optional<IntColumn> held_;
  std::optional<DoubleColumn> imposed_velocity_, imposed_force_, vibration_, plate_;
  std::vector<Column*> made_;  // in the order the files have always held them
};

// Which of the five arrays `r` needs.
std::array<bool, 5> arrays_needed(const ConstraintRow& r) {
  const auto any = [](const auto& values) {
    return std::any_of(values.begin(), values.end(), [](auto v) { return v != decltype(v){}; });
  };
  return {any(r.held), any(r.imposed_velocity), !(r.imposed_force == Vec2{}) || r.imposed_torque != 0.0,
          any(r.vibration), r.pressure != 0.0 || !(r.inward == Vec2{})};
}

}  // namespace

std::vector<ImposingBody> imposing_bodies(const World& w, const std::vector<std::size_t>& bodies) {
  std::vector<ImposingBody> imposing;
  const BodyConstraint none;
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    if (w.constraint[bodies[k]] == none) continue;  // most grains: their row is known without making it
    if (ConstraintRow r = constraint_row(w, bodies[k]); !r.imposes_nothing())
      imposing.push_back({static_cast<vtkIdType>(k), r});
  }
  return imposing;
}

void add_constraint_arrays(vtkUnstructuredGrid* grid, vtkIdType n,
                           const std::function<ConstraintRow(vtkIdType)>& row_of) {
  std::vector<ImposingBody> imposing;
  for (vtkIdType k = 0; k < n; ++k)
    if (const ConstraintRow row = row_of(k); !row.imposes_nothing()) imposing.push_back({k, row});
  add_constraint_arrays(grid, n, imposing, true);
}

void add_constraint_arrays(vtkUnstructuredGrid* grid, vtkIdType n, const std::vector<ImposingBody>& imposing,
                           bool every_array) {
  std::array<bool, 5> wanted{};
  wanted.fill(every_array);
  for (const ImposingBody& b : imposing) {
    const std::array<bool, 5> needed = arrays_needed(b.row);
    for (std::size_t k = 0; k < wanted.size(); ++k) wanted[k] = wanted[k] || needed[k];
  }
  ConstraintColumns columns(n, wanted);
  for (const ImposingBody& b : imposing) columns.set(b.cell, b.row);
  columns.add_to(grid);
}

}  // namespace sphero
