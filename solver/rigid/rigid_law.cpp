#include "rigid/rigid_law.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace sphero {
namespace {

// Every digit the value has: a refused value printed rounded may look
// like its bound (1.0000000001 as "1").
std::string number(double v) { return fmt::format("{}", v); }

}  // namespace

double RigidLaw::normal_dissipation_at(double effective_mass) const {
  return restitution >= 0.0 ? normal_dissipation_for(restitution, effective_mass) : normal_dissipation;
}

void validate(const RigidLaw& law) {
  const auto in_range = [](double v, double most) { return std::isfinite(v) && v >= 0.0 && v <= most; };
  if (law.restitution >= 0.0 || !std::isfinite(law.restitution)) {
    if (!(law.restitution >= 0.0 && law.restitution <= 1.0))
      throw std::invalid_argument("restitution must be from 0 to 1, found " + number(law.restitution));
  } else if (!in_range(law.normal_dissipation, kMostDissipation)) {
    throw std::invalid_argument("xi_n must be from 0 to 1e15 kg, found " + number(law.normal_dissipation));
  }
  if (!in_range(law.tangential_dissipation, kMostDissipation))
    throw std::invalid_argument("xi_t must be from 0 to 1e15 kg, found " + number(law.tangential_dissipation));
  if (!in_range(law.friction, kMostRigidFriction))
    throw std::invalid_argument("mu must be from 0 to 100, found " + number(law.friction));
  if (law.friction > 0.0 && law.tangential_dissipation > 0.0)
    throw std::invalid_argument("give either mu (Coulomb friction) or xi_t (viscous), not both");
}

double restitution(double normal_dissipation, double effective_mass) {
  const double two_m = 2.0 * effective_mass;
  return normal_dissipation >= two_m ? (normal_dissipation - two_m) / (normal_dissipation + two_m) : 0.0;
}

double normal_dissipation_for(double e, double effective_mass) {
  if (!(e >= 0.0 && e < 1.0))
    throw std::invalid_argument("a restitution from 0 to below 1 gives a finite dissipation (1 is its limit)");
  return 2.0 * effective_mass * (1.0 + e) / (1.0 - e);
}

}  // namespace sphero
