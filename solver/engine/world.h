// Everything the engine steps: bodies in a structure of arrays laid out for
// the force loop, their materials and contact laws, the periodic cell and
// gravity. Plain data; `engine/engine.h` advances it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/contact_law.h"
#include "geometry/vec2.h"
#include "rigid/rigid_law.h"
#include "shapes/shape.h"

namespace sphero {

// Degrees of freedom of a rigid body in 2D.
enum Dof : int { dof_x = 0, dof_y = 1, dof_rotation = 2 };

// An oscillation imposed on a wall's held translations, on top of its
// steady velocity: the displacement amplitude · sin(2π f τ), continuously
// (τ = t) or as taps, one cycle at the start of every tap_interval seconds
// (τ = t mod tap_interval, at rest for the rest of it). The steppers move
// the wall at its mean velocity over each step (wall_vibration.h).
struct Vibration {
  Vec2 amplitude;
  double frequency = 0.0;     // Hz; 0: none
  double tap_interval = 0.0;  // s; 0: continuous
  Vec2 steady_velocity;
  bool on() const { return frequency > 0.0; }
  bool operator==(const Vibration&) const = default;
};

// Per-body constraint ("tag", docs/MODEL.md §5). A held degree of freedom moves at
// the imposed velocity whatever the forces (the reaction does work, which
// the energy ledger books); a free one feels the imposed force on top of
// contacts and gravity.
struct BodyConstraint {
  std::array<bool, 3> held{false, false, false};
  std::array<double, 3> imposed_velocity{0.0, 0.0, 0.0};  // vx, vy, ω for held DOFs
  Vec2 imposed_force;                                     // on free translational DOFs
  double imposed_torque = 0.0;                            // on a free rotation
  // A pressure plate (below) remembers its pressure and direction; when
  // span_bodies names two bodies (the plates at its ends), its force is
  // recomputed before every force evaluation as pressure × their distance
  // across `inward` less their sphero-radii, so that the pressure stays
  // constant while the sample's side shortens or lengthens.
  double pressure = 0.0;
  Vec2 inward;
  std::array<int, 2> span_bodies{-1, -1};
  Vibration vibration;
  bool holds_all() const { return held[0] && held[1] && held[2]; }
  // The imposed velocity without the share of the oscillation a vibrating
  // wall's current step gives it: what the scene asked for.
  std::array<double, 3> steady_imposed_velocity() const {
    if (!vibration.on()) return imposed_velocity;
    return {vibration.steady_velocity.x, vibration.steady_velocity.y, imposed_velocity[2]};
  }
  bool follows_span() const { return span_bodies[0] >= 0; }
  // Whether the body's motion or loads are imposed at all: the bodies whose
  // external power the engine sums.
  bool imposes_anything() const {
    return held[0] || held[1] || held[2] || !(imposed_force == Vec2{}) || imposed_torque != 0.0 || follows_span();
  }
  bool operator==(const BodyConstraint&) const = default;
};

// A servo-free constant-pressure wall (plate): pushed along `inward`
// (a unit vector along x or y) with force p × length, free to move along
// that axis only; the other translation (at `sliding_velocity`, 0 unless a
// shear plate) and the rotation are held.
BodyConstraint pressure_plate(double pressure, double length, Vec2 inward, double sliding_velocity = 0.0);

// What a body is made of and how it moves, before it joins the world.
struct BodySpec {
  Shape shape;         // skeleton in any frame; the world re-centres it on its centre of mass
  Vec2 position;       // of the centre of mass
  double angle = 0.0;  // rotation of the skeleton about its centre of mass
  Vec2 velocity;
  double angular_velocity = 0.0;
  int material = 0;
  double density = 1.0;  // per unit area
  // Walls and landscapes: kept out of the link cells and tested against
  // every body. Held in all DOFs unless a constraint says otherwise.
  bool is_wall = false;
  BodyConstraint constraint;
};

struct World;
// The length a span-following plate's pressure acts on (see BodyConstraint).
double plate_span(const World& w, const BodyConstraint& plate);

// A central field of constant magnitude `strength` (m/s²) towards `centre`:
// potential strength × |x − centre| per unit mass. Off when strength is 0.
struct Attractor {
  Vec2 centre;
  double strength = 0.0;
};

struct PeriodicCell {
  std::array<bool, 2> periodic{false, false};
  Vec2 low;  // the cell is [low, low + size)
  Vec2 size;
};

// Structure of arrays. Index i is one body; vertex data of body i are
// vertex_begin[i] .. vertex_begin[i] + vertex_count[i] in the vertex arrays.
struct World {
  // state
  std::vector<Vec2> position;
  std::vector<double> angle;
  std::vector<Vec2> velocity;
  std::vector<double> angular_velocity;
  // forces of the last evaluation (contacts + gravity + imposed)
  std::vector<Vec2> force;
  std::vector<double> torque;
  // properties
  std::vector<double> mass, inertia;
  std::vector<double> density;  // per unit area
  std::vector<double> inverse_mass, inverse_inertia;
  std::vector<double> radius;           // sphero-radius
  std::vector<double> bounding_radius;  // R: centre of mass to farthest outline point
  std::vector<int> material;
  std::vector<std::uint8_t> is_wall;  // walls and landscapes: out of the link cells, tested against every body
  std::vector<std::uint8_t> closed;   // skeleton is a closed polygon
  std::vector<BodyConstraint> constraint;
  std::vector<std::string> shape_name;
  // Each body's id: what frames, checkpoints and stages call it. A body
  // keeps its id for the whole run and no id is given twice, so ids rise
  // with the body's index but leave gaps where bodies were removed
  // (remove_bodies); next_id is the id the next body added gets.
  std::vector<int> id;
  int next_id = 0;
  // Skeleton vertices. Body i's are the global indices vertex_begin[i] ..
  // vertex_begin[i] + vertex_count[i] - 1, in world_vertex. Their body-frame
  // coordinates are shared by every body with the same skeleton (a packing
  // of one shape stores them once, and the force loop reads them from the
  // cache): vertex k of body i is local_vertex[k + local_shift[i]]
  // (local_vertex_of).
  std::vector<int> vertex_begin, vertex_count;
  std::vector<Vec2> local_vertex;
  std::vector<int> local_shift;
  // Per local vertex, how a closed skeleton turns there, read as a cycle:
  // +1 a reflex corner (right turn), −1 a convex one, 0 too nearly straight
  // to say (a turn under 10⁻⁶ rad, where rotating the body could flip the
  // sign in floating point) or fewer than three vertices. Rotation does not
  // change it, so the list rebuild need not work it out per pair.
  std::vector<std::int8_t> local_bend;
  // World coordinates of the vertices, as of the last update_world_vertices:
  // the neighbour list's copy, which a running engine refreshes at list
  // rebuilds, not every step (the contact pass computes the few vertices it
  // needs from `orientation`). Read a vertex with vertex_position, which is
  // always current.
  std::vector<Vec2> world_vertex;
  std::vector<Vec2> orientation;  // (cos θ, sin θ) per body, with the positions' step
  // A wall (is_wall, open skeleton, rotation held still) whose last vertex is
  // its first one's image a period on: seam[i] = last − first (± the period
  // along that axis). Its skeleton then goes on across the seam into the
  // next period's copy, and its last vertex, the same point as the next
  // copy's first, is no feature of its own: without this a grain over the
  // seam touched the wall twice (the face of one copy and the free end cap
  // of the other). Zero for every other body; set by mark_seams.
  std::vector<Vec2> seam;

  // contact laws, law[material_a * material_count + material_b], symmetric
  int material_count = 0;
  std::vector<ContactLaw> law;
  // The rigid model's laws, indexed alike; empty in a soft world.
  std::vector<RigidLaw> rigid_law;
  Vec2 gravity;
  Attractor attractor;
  PeriodicCell cell;

  std::size_t size() const { return position.size(); }
  int edge_count(int body) const {
    const int n = vertex_count[body];
    return closed[body] ? n : n - 1;
  }
  const ContactLaw& law_between(int a, int b) const { return law[material[a] * material_count + material[b]]; }
  const RigidLaw& rigid_law_between(int a, int b) const {
    return rigid_law[material[a] * material_count + material[b]];
  }
};

// Where a world is one part of a larger one (a rank's, solver/parallel),
// what each body counts for in the sums the parts add up (a mask of these
// per body; no mask: everything counts).
enum PartCount : std::uint8_t {
  counts_energy = 1,   // its energies and imposed power enter this part's ledger
  homes_contacts = 2,  // the candidates it is home to, and the pairs it decides
  counts_in_list = 4,  // it counts among the list's bodies
};
// The body force on body i: gravity and the attractor (none at its centre).
// Inline: every body, every step.
inline Vec2 body_force(const World& w, std::size_t i) {
  Vec2 f = w.mass[i] * w.gravity;
  if (w.attractor.strength != 0.0) {
    const Vec2 to_centre = w.attractor.centre - w.position[i];
    const double distance = norm(to_centre);
    if (distance > 0.0) f += (w.mass[i] * w.attractor.strength / distance) * to_centre;
  }
  return f;
}
// The body a candidate belongs to in those sums: its vertex body, or the
// edge body where the vertex is a wall's (every part holds every wall).
inline int home_body(const World& w, int vertex_body, int edge_body) {
  return w.is_wall[static_cast<std::size_t>(vertex_body)] ? edge_body : vertex_body;
}
// Whether a part's mask (PartCount per body; null for the whole world)
// counts the candidates of this pair: those its home body is home to.
inline bool counts_pair(const std::uint8_t* counted, const World& w, int vertex_body, int edge_body) {
  return !counted || (counted[home_body(w, vertex_body, edge_body)] & homes_contacts) != 0;
}
// Body i's kinetic energies, as every sum of them takes them.
inline double translational_energy(const World& w, std::size_t i) { return 0.5 * w.mass[i] * norm2(w.velocity[i]); }
inline double rotational_energy(const World& w, std::size_t i) {
  return 0.5 * w.inertia[i] * w.angular_velocity[i] * w.angular_velocity[i];
}
// The potential energy of body i in the body forces' fields.
inline double body_potential(const World& w, std::size_t i) {
  double v = -w.mass[i] * dot(w.gravity, w.position[i]);
  if (w.attractor.strength != 0.0) v += w.mass[i] * w.attractor.strength * norm(w.position[i] - w.attractor.centre);
  return v;
}

// Builds a world; throws std::invalid_argument naming the body and what is
// wrong (an unknown material, a body longer than half a periodic period, a
// non-positive density). `laws` is material_count² entries, symmetric.
World make_world(const std::vector<BodySpec>& bodies, int material_count, const std::vector<ContactLaw>& laws,
                 Vec2 gravity, const PeriodicCell& cell = {});

// Appends `bodies` to `world` (numbered after every body there, whose data
// stay as they are), checked as make_world checks them. Their forces are
// left at zero: set them before stepping from the world.
void add_bodies(World& world, const std::vector<BodySpec>& bodies);

// Removes the bodies whose `removed` flag is set (one per body), keeping
// the others' order, data and ids; returns each old index's new one (−1
// for a removed body). A constraint whose pressure span names a removed
// body is refused (std::invalid_argument naming both): remove or re-aim
// the plate first.
std::vector<int> remove_bodies(World& world, const std::vector<std::uint8_t>& removed);

// Keeps the entries of per-body `values` whose body stays (a new index of
// remove_bodies's that is not −1), in order.
template <class T>
void keep_bodies(std::vector<T>& values, const std::vector<int>& new_index) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (new_index[i] < 0) continue;
    if (kept != i) values[kept] = std::move(values[i]);  // a string moved onto itself would be emptied
    ++kept;
  }
  values.resize(kept);
}

// The index of the body with id `id`, or −1 (ids rise with the index).
int index_of_id(const World& world, int id);

// A valid soft law that nothing reads: for worlds whose contacts follow no
// soft law (a packing's geometry, the rigid model).
ContactLaw placeholder_law();

// A world of `bodies` for their geometry alone (a packing, which has no
// contact laws yet): every pair of the materials in use gets a placeholder
// law. Throws as make_world does.
World geometry_world(const std::vector<BodySpec>& bodies);

// World coordinates of every vertex from positions and angles (of one body),
// and the bodies' orientations.
// With `threads` threads, each placing a contiguous part of the bodies.
void update_world_vertices(World& world, int threads = 1);
void update_body_vertices(World& world, std::size_t body);
// The orientations (from the angles) and seams, which a checkpoint does not
// keep: what a world read back needs before its geometry is asked for.
void derive_orientations_and_seams(World& world);
// Sets World::seam from the current world vertices, constraints and cell
// (make_world, every list rebuild, an engine restored from a snapshot).
void mark_seams(World& world);
// Reduction to r in [−π/4, π/4] and a quadrant, then the minimax
// polynomials of Sun's fdlibm kernels (k_sin.c, k_cos.c; coefficients
// public since 1993) with their error-compensated form of the cosine:
// within an ulp or so of libm, cheaper than its sincos (no general range
// reduction), and with no branch on the argument's size below 10⁵ rad. A pure function of
// the angle, so a restored checkpoint computes the same orientations.
// Inline: it runs for most bodies every step.
inline Vec2 orientation_at(double angle) {
  if (!(std::abs(angle) < 1e5)) return {std::cos(angle), std::sin(angle)};  // far out, or not finite
  constexpr double two_over_pi = 6.36619772367581382433e-01;
  constexpr double pio2_high = 1.57079632673412561417e+00;  // π/2 in 33 bits: n × it is exact
  constexpr double pio2_low = 6.07710050650619224932e-11;   // π/2 − pio2_high
  constexpr double round_shift = 0x1.8p52;                  // adding it rounds to an integer
  const double n = (angle * two_over_pi + round_shift) - round_shift;
  const double x = (angle - n * pio2_high) - n * pio2_low;
  const double z = x * x, w = z * z;
  const double sin_r = z * (-1.98412698298579493134e-04 + z * 2.75573137070700676789e-06) + 8.33333333332248946124e-03 +
                       z * w * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10);
  const double sine = x + z * x * (-1.66666666666666324348e-01 + z * sin_r);
  const double cos_r =
      z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * 2.48015872894767294178e-05)) +
      w * w * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11));
  const double half_z = 0.5 * z, one_less = 1.0 - half_z;
  const double cosine = one_less + (((1.0 - one_less) - half_z) + z * cos_r);
  switch (static_cast<long>(n) & 3) {
    case 0:
      return {cosine, sine};
    case 1:
      return {-sine, cosine};
    case 2:
      return {-cosine, -sine};
    default:
      return {sine, -cosine};
  }
}

// Vertex k (global index) of `body` in world coordinates, from the body's
// position and orientation: the same arithmetic, and so the same bits, as
// update_body_vertices.
inline Vec2 local_vertex_of(const World& w, int body, int k) {
  return w.local_vertex[static_cast<std::size_t>(k + w.local_shift[static_cast<std::size_t>(body)])];
}
// Only the orientation (cos θ, sin θ) of body i, from its angle. Inline:
// it runs for every body every step. A disk's skeleton is its centre
// (local (0, 0)): its orientation never enters its vertex, so no sine and
// cosine to take (they were an eighth of a disk pile's step).
inline void update_orientation(World& w, std::size_t i) {
  if (w.vertex_count[i] == 1 && local_vertex_of(w, static_cast<int>(i), w.vertex_begin[i]) == Vec2{}) return;
  w.orientation[i] = orientation_at(w.angle[i]);
}
// Body i's skeleton in its own frame (vertex_count[i] points).
std::vector<Vec2> local_skeleton(const World& w, std::size_t body);
// Body i's shape: its name, skeleton in its own frame and sphero-radius.
Shape body_shape(const World& w, std::size_t body);
// Stores per-body body-frame vertices (`per_body`, in global vertex order)
// once per distinct skeleton: sets local_vertex and local_shift.
void share_local_vertices(World& w, const std::vector<Vec2>& per_body);

inline Vec2 vertex_position(const World& w, int body, int k) {
  const Vec2 p = w.position[static_cast<std::size_t>(body)], v = local_vertex_of(w, body, k);
  const Vec2 cs = w.orientation[static_cast<std::size_t>(body)];
  return {p.x + cs.x * v.x - cs.y * v.y, p.y + cs.y * v.x + cs.x * v.y};
}

// Raw pointers to the arrays the force loop reads, held in registers: the
// loop stores flags (bytes, which may alias anything) and forces, after
// which the compiler would reload every vector's data pointer from the
// World. Valid while the World's arrays keep their size.
struct WorldView {
  const World* world;
  const Vec2 *position, *orientation, *local_vertex, *velocity;
  const double *angular_velocity, *radius;
  const int *vertex_begin, *vertex_count, *local_shift, *material;
  const std::uint8_t* closed;
  const ContactLaw* law;
  int material_count;

  explicit WorldView(const World& w)
      : world(&w),
        position(w.position.data()),
        orientation(w.orientation.data()),
        local_vertex(w.local_vertex.data()),
        velocity(w.velocity.data()),
        angular_velocity(w.angular_velocity.data()),
        radius(w.radius.data()),
        vertex_begin(w.vertex_begin.data()),
        vertex_count(w.vertex_count.data()),
        local_shift(w.local_shift.data()),
        material(w.material.data()),
        closed(w.closed.data()),
        law(w.law.data()),
        material_count(w.material_count) {}
  // vertex_position, the same arithmetic.
  Vec2 vertex(int body, int k) const {
    const Vec2 p = position[body], v = local_vertex[k + local_shift[body]], cs = orientation[body];
    return {p.x + cs.x * v.x - cs.y * v.y, p.y + cs.y * v.x + cs.x * v.y};
  }
  const ContactLaw& law_between(int a, int b) const { return law[material[a] * material_count + material[b]]; }
  // Velocity of body b's material at `point` (b's image shifted by `offset`).
  Vec2 velocity_at(int b, Vec2 point, Vec2 offset) const {
    const Vec2 arm = point - (position[b] + offset);
    return velocity[b] + angular_velocity[b] * perp(arm);
  }
};

// Brings centres back into the periodic cell (positions only; the
// skeletons follow at the next vertex update).
void wrap_into_cell(World& world);
// Whole periods, per axis, that bring body i's centre into the periodic cell
// (0 along an axis that is not periodic). Walls are not wrapped: a shear
// plate that travelled along x is met through the image this points to.
// A grain a failing step threw further (or left at NaN) counts at most
// kMostPeriods (0 for NaN), which the candidates' canonical order holds.
std::array<int, 2> periods_into_cell(const World& world, std::size_t i);
constexpr int kMostPeriods = 1 << 22;

}  // namespace sphero
