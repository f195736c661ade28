// A body's constraint as a state frame holds it: the arrays held,
// imposed_velocity, imposed_force, vibration and plate, written alike
// from a world's bodies and from records.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include <vtkType.h>

#include "engine/world.h"
#include "io/frame_data.h"

class vtkUnstructuredGrid;

namespace sphero {

struct ConstraintRow {
  std::array<bool, 3> held{};                // x, y, rotation
  std::array<double, 3> imposed_velocity{};  // steady (a vibration's share of a step left out)
  Vec2 imposed_force;
  double imposed_torque = 0.0;
  std::array<double, 4> vibration{};  // amplitude x, y, frequency, tap interval
  double pressure = 0.0;              // a pressure plate's, with its inward direction
  Vec2 inward;
  std::array<int, 2> span{-1, -1};  // the ids of the bodies whose distance is its span

  bool operator==(const ConstraintRow&) const = default;
  bool imposes_nothing() const { return *this == ConstraintRow{}; }
};

ConstraintRow constraint_row(const World& w, std::size_t body);
ConstraintRow constraint_row(const StateRecord& r);
void set_constraint(StateRecord& r, const ConstraintRow& row);

// The constraint arrays of `bodies` bodies into `grid`'s cell data, body k's
// from row_of(k).
void add_constraint_arrays(vtkUnstructuredGrid* grid, vtkIdType bodies,
                           const std::function<ConstraintRow(vtkIdType)>& row_of);

// A body that imposes something: its cell and its row.
struct ImposingBody {
  vtkIdType cell = 0;
  ConstraintRow row;
};

// Those of `bodies` (a frame's, its cells in order) that impose anything.
std::vector<ImposingBody> imposing_bodies(const World& w, const std::vector<std::size_t>& bodies);

// The same for `bodies` bodies of which only `imposing` impose anything:
// with `every_array`, all five arrays; else only those some body needs
// (a light state reads an absent one as nothing imposed).
void add_constraint_arrays(vtkUnstructuredGrid* grid, vtkIdType bodies, const std::vector<ImposingBody>& imposing,
                           bool every_array);

}  // namespace sphero
