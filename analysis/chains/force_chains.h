// Force chains after Peters et al., Phys. Rev. E 72, 041307 (2005): a
// particle is a chain candidate when its most compressive principal stress
// exceeds the mean of that over all particles; two candidates in contact may
// link when the contact direction lies within a tolerance angle of both
// particles' major principal stress directions; a chain is a path of at
// least three linked particles.
#pragma once

#include <string_view>
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
  std::vector<int> chain_of;  // per particle: its chain's index, −1 if none
  double fraction_in_chains = 0.0;
  double mean_orientation_degrees = 0.0;  // of the chains' end-to-end directions, in [0, 180)
};

// Which of its possible links a candidate keeps; a link stays when both of
// its particles keep it, so chains are paths (or rings), never trees.
enum class ChainLinks {
  // As published: the best-aligned neighbour ahead and the best-aligned one
  // behind along the particle's major principal stress direction, so that a
  // chain runs on through the particle and never folds back on one side.
  ahead_and_behind,
  // The two best-aligned neighbours, on whichever side of the particle.
  two_best_aligned,
};
std::string_view to_string(ChainLinks links);
ChainLinks chain_links_from_string(std::string_view word);  // throws std::invalid_argument naming the words

// The angle of an axis (a direction and its opposite), in degrees in [0, 180).
double axis_degrees(Vec2 axis);

// `tolerance_degrees` is 45 in the paper. Chains are found as maximal
// paths in the graph of kept links.
ChainStatistics find_force_chains(const std::vector<Stress>& particle_stress,
                                  const std::vector<ParticleContact>& contacts, double tolerance_degrees = 45.0,
                                  ChainLinks links = ChainLinks::ahead_and_behind);

}  // namespace sphero::analysis
