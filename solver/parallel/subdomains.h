// Which bodies each rank holds: the grains it owns, every wall, and the
// grains near enough to its own to touch them before the next
// decomposition (its ghosts). Plain geometry on the whole world, the same
// on every rank, so that ranks agree on who sends what without asking.
#pragma once

#include <vector>

#include "engine/world.h"

namespace sphero {

// The smallest box holding the bounding circles of a rank's grains.
struct SubdomainBox {
  Vec2 low{1e300, 1e300}, high{-1e300, -1e300};
  void add(Vec2 centre, double radius);
  bool empty() const { return low.x > high.x; }
  // From the box to the nearest point of the circle (negative inside).
  double gap_to(Vec2 centre, double radius) const;
};

// Per rank, the box of the grains `owner` gives it (walls have owner −1).
std::vector<SubdomainBox> subdomain_boxes(const World& w, const std::vector<int>& owner, int ranks);

// From the box to the nearest point of the circle or of its periodic
// images (the cell's neighbouring copies along each periodic axis).
double periodic_gap(const World& w, const SubdomainBox& box, Vec2 centre, double radius);
// to − from, less whole periods along the periodic axes (a wrap is no motion).
Vec2 periodic_displacement(const World& w, Vec2 from, Vec2 to);

// The bodies rank r holds, in increasing order: every wall, its own grains,
// and the grains whose bounding circle, or one of its periodic images,
// comes within `margin` of its box.
// While no point of any body moves more than margin / 2, no grain it does
// not hold can touch one it owns.
std::vector<int> bodies_held_by(const World& w, const std::vector<int>& owner, const std::vector<SubdomainBox>& boxes,
                                int r, double margin);

}  // namespace sphero
