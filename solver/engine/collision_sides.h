// A gap contact as a collision sees it (docs/MODEL.md §7): which body the
// normal points into, which it comes from, and which side is a wall —
// shared by the time-stepping and the event-driven rigid steppers.
#pragma once

#include "engine/gap_contacts.h"
#include "engine/world.h"

namespace sphero {

// The normal points from `other` (the vertex's body) into `body` (the
// edge's), so that separation is positive; a wall is never a body of the
// collision.
struct Sides {
  int body = -1, other = -1;  // world indices; -1: a wall's side
  Vec2 body_shift, other_shift, normal;
  int wall = -1;              // the wall's world index, if one
  Vec2 wall_shift;
};

Sides sides_of(const World& w, const GapContact& g);

// 1 / (J M⁻¹ Jᵀ) along the normal: the mass the contact's normal
// percussion moves, walls infinitely heavy.
double effective_mass(const World& w, const Sides& s, Vec2 point);

// The relative normal velocity at `point` now (negative: approaching),
// walls at their imposed velocity.
double normal_velocity_now(const World& w, const Sides& s, Vec2 point);

}  // namespace sphero
