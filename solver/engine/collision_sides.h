// A gap contact as a collision sees it (docs/MODEL.md §7): which body the
// normal points into, which it comes from, and which side is a wall —
// shared by the time-stepping and the event-driven rigid steppers.
#pragma once

#include <string>
#include <vector>

#include "engine/gap_contacts.h"
#include "engine/world.h"
#include "rigid/collision.h"

namespace sphero {

// The normal points from `other` (the vertex's body) into `body` (the
// edge's), so that separation is positive; a wall is never a body of the
// collision.
struct Sides {
  int body = -1, other = -1;  // world indices; -1: a wall's side
  Vec2 body_shift, other_shift, normal;
  int wall = -1;  // the wall's world index, if one
  Vec2 wall_shift;
};

Sides sides_of(const World& w, const GapContact& g);

// J M⁻¹ Jᵀ along the normal n and the tangent t = perp(n), walls
// infinitely heavy: the inverse masses a contact's percussions meet.
struct ContactInverseMass {
  double nn = 0.0, nt = 0.0, tt = 0.0;
};
ContactInverseMass contact_inverse_mass(const World& w, const Sides& s, Vec2 point);

// 1 / (J M⁻¹ Jᵀ) along the normal: the mass the contact's normal
// percussion moves, walls infinitely heavy.
double effective_mass(const World& w, const Sides& s, Vec2 point);

// The relative normal velocity at `point` now (negative: approaching),
// walls at their imposed velocity.
double normal_velocity_now(const World& w, const Sides& s, Vec2 point);

// The contact as a collision program takes it — point, normal, periodic
// shifts, a wall's velocity — with `body` and `other` still world indices
// (-1: a wall's side) for the caller to number among the program's bodies,
// and no law yet.
CollisionContact collision_contact_of(const World& w, const GapContact& g, const Sides& s);
// The law of the contact's pair of materials: elastic, or ξ_n from the
// restitution at the contact's normal effective mass as ξ_t leaves it
// (docs/MODEL.md §7, "Restitution"); ξ_t, at most twice the tangential
// effective mass (beyond, it would reverse a slide); and μ.
void apply_law(const World& w, const GapContact& g, const Sides& s, CollisionContact& c);

// A collision's percussions on contact c (from `body`'s side) spread over
// `seconds`: the mean force on the vertex's body, from which stress and
// force chains follow as for soft runs.
Vec2 mean_force_on_vertex(const World& w, const GapContact& g, const CollisionContact& c, double normal_percussion,
                          double tangential_percussion, double seconds);
// Adds that force, and its opposite on the edge's body, to the bodies'
// forces and torques (for the output).
void add_mean_force(World& w, const GapContact& g, Vec2 on_vertex);

// The grains and walls of the contacts `jammed` of `contacts` (a collision's
// CollisionResult::jammed) in words, for a message: "grains 4, 9 and 17
// against walls bottom and top".
std::string jammed_bodies_in_words(const World& w, const std::vector<GapContact>& contacts,
                                   const std::vector<std::size_t>& jammed);

}  // namespace sphero
