// How a run is stepped: the time step, the integrator, the neighbour
// search's settings and the threads.
#pragma once

#include <string_view>

namespace sphero {

enum class Integrator {
  velocity_verlet,  // symplectic, one force evaluation per step
  gear,             // Gear's fourth-order predictor–corrector (5 values)
};
std::string_view to_string(Integrator integrator);
Integrator integrator_from_string(std::string_view word);  // throws std::invalid_argument

struct EngineSettings {
  double dt = 0.0;
  Integrator integrator = Integrator::velocity_verlet;
  double verlet_distance = 0.0;
  // δ adapts to the motion, up to verlet_distance (see NeighbourSettings).
  bool adaptive_verlet_distance = false;
  bool brute_force_neighbours = false;  // the O(N²) reference
  bool contact_lists = true;            // false: all vertex pairs of neighbours (NeighbourSettings)
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
