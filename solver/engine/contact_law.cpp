#include "engine/contact_law.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace sphero {

std::string_view to_string(NormalLaw law) { return law == NormalLaw::linear ? "linear" : "hertz"; }

NormalLaw normal_law_from_string(std::string_view word) {
  if (word == "linear") return NormalLaw::linear;
  if (word == "hertz") return NormalLaw::hertz;
  throw std::invalid_argument("unknown normal contact law '" + std::string(word) + "': use linear or hertz");
}

double ContactLaw::stiffness_for_time_step(double reference_overlap) const {
  return normal == NormalLaw::linear ? kn : 1.5 * kn * std::sqrt(reference_overlap);
}

void validate(const ContactLaw& law) {
  const auto require = [](double value, bool zero_allowed, double most, const char* what) {
    if (!(std::isfinite(value) && (zero_allowed ? value >= 0.0 : value > 0.0)))
      throw std::invalid_argument(std::string(what) + (zero_allowed ? " must be >= 0" : " must be positive"));
    // Every digit of a refused value: rounded, it may look like its bound.
    if (value > most) throw std::invalid_argument(fmt::format("{} = {}: at most {:g}", what, value, most));
  };
  require(law.kn, false, kMostStiffness, "the normal stiffness kn");
  require(law.gamma_n, true, kMostDamping, "the normal damping gamma_n");
  require(law.kt, true, kMostStiffness, "the tangential stiffness kt");
  require(law.gamma_t, true, kMostDamping, "the tangential damping gamma_t");
  require(law.mu, true, kMostFriction, "the friction coefficient mu");
  require(law.cohesion, true, kMostDamping, "the cohesion force");
}

}  // namespace sphero
