// Stress from contact forces (docs/MODEL.md §6), compression positive (the
// soil-mechanics convention): Love–Weber,
//   σ_ab = −(1/A) Σ_p Σ_c (R_c − x_p)_a f_b,
// summed over the contacts c of each particle p with the force f on p at
// its point of application R_c. A measurement of the engine's state: the
// run output writes per-particle stresses, analysis averages them.
#pragma once

#include <array>
#include <vector>

#include "engine/contact.h"
#include "engine/world.h"
#include "geometry/vec2.h"

namespace sphero {

struct Stress {
  double xx = 0.0, xy = 0.0, yx = 0.0, yy = 0.0;  // compression positive

  Stress& operator+=(const Stress& o) {
    xx += o.xx, xy += o.xy, yx += o.yx, yy += o.yy;
    return *this;
  }
  Stress scaled(double s) const { return {s * xx, s * xy, s * yx, s * yy}; }
  // Mean stress p = (σ1 + σ2)/2 and deviator q = (σ1 − σ2)/2 of the
  // symmetric part (2D).
  double pressure() const { return 0.5 * (xx + yy); }
  double deviator() const;
  // Principal values, largest (most compressive) first, and the unit
  // direction of the largest.
  std::array<double, 2> principal() const;
  Vec2 major_direction() const;
};

// One contact as one particle feels it.
struct ContactOnParticle {
  Vec2 point;  // R_c
  Vec2 force;  // on the particle
};

// Σ_c (R_c − x_p) ⊗ f_c with the sign that makes compression positive,
// divided by `area` (the particle's own area for a per-particle stress).
Stress love_weber(Vec2 centre, const std::vector<ContactOnParticle>& contacts, double area);
// The same over the contacts from `begin` to `end`.
Stress love_weber(Vec2 centre, const ContactOnParticle* begin, const ContactOnParticle* end, double area);

// particle_stresses() twice in one pass: over every contact, and over the
// contacts between grains alone (those with walls left out), so that a
// grain's stress and the walls' share of it come from one walk over the
// contacts. The same bits as two ParticleStressSums.
class GrainStressSums {
 public:
  explicit GrainStressSums(const World& world);
  void add(const Contact& c);
  std::vector<Stress> all(const std::vector<double>& area) const;
  std::vector<Stress> between_grains(const std::vector<double>& area) const;

 private:
  const World& world_;
  std::vector<Stress> all_, between_grains_;
};

// Per-body stress of every body (walls included) from the active contacts,
// each divided by `area[i]`; `include` says which bodies' contacts count
// (e.g. to leave contacts with walls out), empty for all.
std::vector<Stress> particle_stresses(const World& world, const std::vector<Contact>& contacts,
                                      const std::vector<double>& area, const std::vector<bool>& include = {});

// Sample (or window) average from per-particle stresses: (1/A) Σ A_p σ_p.
Stress average_stress(const std::vector<Stress>& particle_stress, const std::vector<double>& particle_area,
                      double region_area);

}  // namespace sphero
