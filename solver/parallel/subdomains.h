// The geometry of subdomains: a rank holds the grains it owns, every wall,
// and the grains whose bounding circle, or one of its periodic images,
// comes within the ghost margin of its box (its ghosts). While no point of
// any body moves more than half the margin, no grain it does not hold can
// touch one it owns. Plain geometry against boxes every rank agrees on, so
// that owners and holders agree on who sends what without asking.
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

// From the box to the nearest point of the circle or of its periodic
// images (the cell's neighbouring copies along each periodic axis).
double periodic_gap(const World& w, const SubdomainBox& box, Vec2 centre, double radius);
// to − from, less whole periods along the periodic axes (a wrap is no motion).
Vec2 periodic_displacement(const World& w, Vec2 from, Vec2 to);

}  // namespace sphero
