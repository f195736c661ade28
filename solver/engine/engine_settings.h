// How a run is stepped: the model, the time step, the integrator, the
// neighbour search's settings and the threads.
#pragma once

#include <string_view>

#include "rigid/collision_settings.h"

namespace sphero {

enum class Integrator {
  velocity_verlet,  // symplectic, one force evaluation per step
  gear,             // Gear's fourth-order predictor–corrector (5 values)
};
std::string_view to_string(Integrator integrator);
Integrator integrator_from_string(std::string_view word);  // throws std::invalid_argument

// Who finds the neighbour pairs at a list rebuild (docs/MODEL.md §4 and
// §8): link cells, or walks over the triangulated void space. Both list the
// same candidates, so the forces are the same bit for bit.
enum class NeighbourStrategy { cells, triangulation };
std::string_view to_string(NeighbourStrategy strategy);
NeighbourStrategy neighbour_strategy_from_string(std::string_view word);  // throws std::invalid_argument

// The two models of docs/MODEL.md: soft contacts (springs, small overlaps,
// §2–5) or perfectly rigid bodies with instantaneous collisions (A-CD², §7).
enum class Model { soft, rigid };
std::string_view to_string(Model model);
Model model_from_string(std::string_view word);  // throws std::invalid_argument

// The rigid model's own settings (docs/MODEL.md §7, "The time loop").
struct RigidSettings {
  // Feature pairs whose outlines are within this distance are examined for
  // a collision in the coming step (the neighbour list keeps them all).
  double gap = 0.0;
  // Overlaps deeper than this (from rotation, or a pair that closed more
  // than `gap` in one step) are removed by a position correction.
  double overlap_tolerance = 0.0;
  // The collision programs' solver and its tolerance (docs/MODEL.md §7,
  // "The solvers"): sweeps from the last step's percussions, which take
  // Coulomb friction; the interior point is exact to tighter tolerances.
  double qp_tolerance = 1e-6;
  int qp_max_iterations = 100;
  RigidSolver solver = RigidSolver::gauss_seidel;
  CollisionSettings collision() const { return {solver, {qp_tolerance, qp_max_iterations}}; }
  // stepping = events: from collision to collision within each step
  // (event_stepper.h), rather than one collision program per step.
  bool events = false;
  // With events: a step with any resting contact time-stepped whole
  // (stepping = events_whole_steps), rather than its resting clusters alone.
  bool whole_step_events = false;
};

struct EngineSettings {
  Model model = Model::soft;
  RigidSettings rigid;  // model = rigid only
  double dt = 0.0;
  Integrator integrator = Integrator::velocity_verlet;
  double verlet_distance = 0.0;
  // δ adapts to the motion, up to verlet_distance (see NeighbourSettings).
  bool adaptive_verlet_distance = false;
  bool brute_force_neighbours = false;  // the O(N²) reference
  // Not part of a checkpoint: it never changes the results.
  NeighbourStrategy neighbours = NeighbourStrategy::cells;
  bool contact_lists = true;  // false: all vertex pairs of neighbours (NeighbourSettings)
  // false: every rebuild lists all pairs anew (NeighbourSettings; the forces
  // are the same either way; not part of a checkpoint).
  bool partial_rebuilds = true;
  // Accept a dt above a tenth of the shortest contact period.
  bool allow_large_time_step = false;
  // Threads for the force pass, the integrator and the vertex update. The
  // results are bit-identical whatever the number: every sum is taken in
  // the same order (not part of a checkpoint: a run may resume with more).
  int threads = 1;
};

}  // namespace sphero
