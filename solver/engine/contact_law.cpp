#include "engine/contact_law.h"

#include <cmath>
#include <stdexcept>

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
  const auto require = [](bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(what);
  };
  require(std::isfinite(law.kn) && law.kn > 0.0, "the normal stiffness kn must be positive");
  require(std::isfinite(law.gamma_n) && law.gamma_n >= 0.0, "the normal damping gamma_n must be >= 0");
  require(std::isfinite(law.kt) && law.kt >= 0.0, "the tangential stiffness kt must be >= 0");
  require(std::isfinite(law.gamma_t) && law.gamma_t >= 0.0, "the tangential damping gamma_t must be >= 0");
  require(std::isfinite(law.mu) && law.mu >= 0.0, "the friction coefficient mu must be >= 0");
  require(std::isfinite(law.cohesion) && law.cohesion >= 0.0, "the cohesion force must be >= 0");
}

}  // namespace sphero
