// Contact laws for one vertex–edge (or vertex–vertex) contact (docs/MODEL.md §2):
// normal spring (linear or Hertz-like), normal and tangential viscous
// damping, tangential spring with a Coulomb cap, optional cohesion. One law
// per pair of materials, chosen by name in the scene.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "geometry/vec2.h"

namespace sphero {

enum class NormalLaw {
  linear,  // F = k_n δ                 energy ½ k_n δ²
  hertz,   // F = k_n δ^{3/2}           energy (2/5) k_n δ^{5/2}
};

std::string_view to_string(NormalLaw law);
// Throws std::invalid_argument naming the accepted words.
NormalLaw normal_law_from_string(std::string_view word);

struct ContactLaw {
  NormalLaw normal = NormalLaw::linear;
  double kn = 0.0;        // normal stiffness (N/m for linear, N/m^{3/2} for hertz)
  double gamma_n = 0.0;   // normal damping coefficient (N s/m): force γ_n δ̇
  double kt = 0.0;        // tangential stiffness (N/m); 0 switches friction off
  double gamma_t = 0.0;   // tangential damping coefficient (N s/m)
  double mu = 0.0;        // Coulomb friction coefficient: |F_t| ≤ μ |F_n|
  double cohesion = 0.0;  // attractive force (N) while the contact is closed

  // The stiffness that sets the time step: k_n for linear; for hertz the
  // tangent stiffness 1.5 k_n sqrt(δ) at an overlap of `reference_overlap`.
  double stiffness_for_time_step(double reference_overlap) const;
};

// The largest parameters a law may have (docs/SCENES.md): far beyond any
// material, and small enough that every force and time step stays finite.
inline constexpr double kMostStiffness = 1e15;  // kn, kt
inline constexpr double kMostDamping = 1e12;    // gamma_n, gamma_t, cohesion
inline constexpr double kMostFriction = 100.0;  // mu

// Throws std::invalid_argument with the offending parameter named.
void validate(const ContactLaw& law);

// What one contact needs from the step: its geometry and the relative
// velocity at the point of application.
struct ContactKinematics {
  double overlap = 0.0;    // δ > 0
  Vec2 normal;             // unit, from the vertex towards the edge
  Vec2 relative_velocity;  // velocity of the vertex's body minus the edge's body, at R
};

// The force on the vertex's body (the edge's body gets the opposite), split
// so that the engine can book the work of each part, and the energy stored.
struct ContactResponse {
  Vec2 force_on_vertex_body;     // = normal spring + tangential spring + viscous
  double normal_force = 0.0;     // scalar along −n, positive when repulsive (viscous part included)
  Vec2 tangential_spring_force;  // −k_t ξ, capped by Coulomb
  Vec2 viscous_force;            // normal dashpot + tangential damping (while sticking)
  bool sliding = false;
  double normal_energy = 0.0;      // stored in the normal spring (and cohesion)
  double tangential_energy = 0.0;  // ½ k_t |ξ|² after this step
};

// `xi` is the contact's tangential spring (relative tangential
// displacement of the vertex's body), carried from the previous step; it is
// turned into the current tangent plane, advanced by the relative
// tangential velocity times dt, and capped by Coulomb.
// Inline: the force loop calls it for every touching contact every step.
// The energy stored in the normal spring (and cohesion) at overlap delta.
inline double normal_energy_of(const ContactLaw& law, double delta) {
  const double energy =
      law.normal == NormalLaw::linear ? 0.5 * law.kn * delta * delta : 0.4 * law.kn * delta * delta * std::sqrt(delta);
  return energy - law.cohesion * delta;
}

inline ContactResponse evaluate_contact(const ContactLaw& law, const ContactKinematics& c, Vec2& xi, double dt) {
  ContactResponse out;
  const Vec2 n = c.normal;
  const double delta = c.overlap;
  // Approach rate: δ grows when the vertex's body moves towards the edge
  // (along +n) faster than the edge's body.
  const double delta_rate = dot(c.relative_velocity, n);

  double elastic = 0.0;
  if (law.normal == NormalLaw::linear) {
    elastic = law.kn * delta;
  } else {
    elastic = law.kn * delta * std::sqrt(delta);
  }
  elastic -= law.cohesion;
  out.normal_energy = normal_energy_of(law, delta);
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
