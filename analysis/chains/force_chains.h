// Force chains after Peters et al., Phys. Rev. E 72, 041307 (2005): a
// particle is a chain candidate when its most compressive principal stress
// exceeds the mean of that over all particles; two candidates in contact are
// linked when the contact direction lies within a tolerance angle of both
// particles' major principal stress directions; a chain is a path of at
// least three linked particles.
#pragma once

#include <vector>

#include "engine/stress.h"

namespace sphero::analysis {

struct ParticleContact {
  int a = 0, b = 0;  // particle indices
  Vec2 branch;       // from a's centre to b's
};

struct ForceChain {
  std::vector<int> particles;  // along the chain, end to end
  double length = 0.0;         // summed branch lengths
  double mean_stress = 0.0;    // mean major principal stress of its particles
  Vec2 orientation;            // unit, end to end, with x >= 0
};

struct ChainStatistics {
  std::vector<ForceChain> chains;
  std::vector<int> chain_of;        // per particle: its chain's index, −1 if none
  double fraction_in_chains = 0.0;
  double mean_orientation_degrees = 0.0;  // of the chains' end-to-end directions, in [0, 180)
};

// The angle of an axis (a direction and its opposite), in degrees in [0, 180).
double axis_degrees(Vec2 axis);

// `tolerance_degrees` defaults to 45 in the paper. Chains are found as
// maximal paths in the graph of links; where a particle links to more than
// two others (a branching), the chain follows the link best aligned with
// its major direction and the rest start new chains.
ChainStatistics find_force_chains(const std::vector<Stress>& particle_stress,
                                  const std::vector<ParticleContact>& contacts, double tolerance_degrees = 45.0);

}  // namespace sphero::analysis
