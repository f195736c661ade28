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

ContactResponse evaluate_contact(const ContactLaw& law, const ContactKinematics& c, Vec2& xi, double dt) {
  ContactResponse out;
  const Vec2 n = c.normal;
  const double delta = c.overlap;
  // Approach rate: δ grows when the vertex's body moves towards the edge
  // (along +n) faster than the edge's body.
  const double delta_rate = dot(c.relative_velocity, n);

  double elastic = 0.0;
  if (law.normal == NormalLaw::linear) {
    elastic = law.kn * delta;
    out.normal_energy = 0.5 * law.kn * delta * delta;
  } else {
    const double root = std::sqrt(delta);
    elastic = law.kn * delta * root;
    out.normal_energy = 0.4 * law.kn * delta * delta * root;
  }
  elastic -= law.cohesion;
  out.normal_energy -= law.cohesion * delta;
  const double viscous = law.gamma_n * delta_rate;
  out.normal_force = elastic + viscous;
  out.viscous_force = -viscous * n;
  // Repulsion pushes the vertex's body back, against n.
  Vec2 force = -out.normal_force * n;

  if (law.kt > 0.0) {
    // Carry the spring into the current tangent plane, keeping its length.
    Vec2 carried = xi - dot(xi, n) * n;
    const double carried_length2 = norm2(carried);
    carried = carried_length2 > 0.0 ? carried * std::sqrt(norm2(xi) / carried_length2) : Vec2{};
    const Vec2 tangential_velocity = c.relative_velocity - delta_rate * n;
    Vec2 trial = carried + dt * tangential_velocity;
    Vec2 spring = -law.kt * trial;
    const Vec2 damping = -law.gamma_t * tangential_velocity;
    // Coulomb bounds the elastic tangential force by μ times the
    // compressive normal force (none under net tension).
    const double cap = law.mu * std::max(out.normal_force, 0.0);
    if (norm2(spring) > cap * cap) {  // |spring| > cap, without the root while sticking
      out.sliding = true;
      const double spring_length = norm(spring);
      trial = spring_length > 0.0 ? trial * (cap / spring_length) : Vec2{};
      spring = -law.kt * trial;
    }
    xi = trial;
    out.tangential_energy = 0.5 * law.kt * norm2(trial);
    out.tangential_spring_force = spring;
    // Damping acts only while sticking: a sliding contact's tangential force
    // is the Coulomb force.
    if (!out.sliding) out.viscous_force += damping;
    force += spring + (out.sliding ? Vec2{} : damping);
  }
  out.force_on_vertex_body = force;
  return out;
}

}  // namespace sphero
