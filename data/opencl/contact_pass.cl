// The soft model's contact pass on the device (docs/OPENCL.md): one
// work-item per candidate feature pair evaluates its geometry and law as
// the CPU engine does (contact_geometry.h, skeleton_walk.h,
// contact_law.h, contact_pass.cpp), operation for operation; then each
// body sums its candidates' forces in candidate order, and each chunk of
// candidates its energy terms in candidate order, so that forces, torques
// and the ledger's sums are the CPU's bits.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

// What every kernel reads of the world: each body's record of 12 doubles
// (position, orientation, velocity, angular velocity, pad, load force,
// load torque, pad), sent every step; the shapes and laws, sent once.
#define BODY_POSITION(b) vload2(0, bodies + 12 * (b))
#define BODY_ORIENTATION(b) vload2(1, bodies + 12 * (b))
#define BODY_VELOCITY(b) vload2(2, bodies + 12 * (b))
#define BODY_SPIN(b) bodies[12 * (b) + 6]
#define WORLD_ARGS                                                                                         \
  __global const double *bodies, __global const double2 *local_vertex, __global const int *local_shift,    \
      __global const int *vertex_begin, __global const int *vertex_count, __global const uchar *closed,   \
      __global const double2 *seam, const int has_seams, __global const double *radius,                   \
      __global const int *material, __global const double *laws, const int material_count
#define WORLD bodies, local_vertex, local_shift, vertex_begin, vertex_count, closed, seam, has_seams, radius, \
              material, laws, material_count

inline double dot2(double2 a, double2 b) { return a.x * b.x + a.y * b.y; }
inline double cross2(double2 a, double2 b) { return a.x * b.y - a.y * b.x; }
inline double norm2_of(double2 a) { return dot2(a, a); }
inline double2 perp2(double2 a) { return (double2)(-a.y, a.x); }
inline double2 scaled(double s, double2 a) { return (double2)(s * a.x, s * a.y); }
inline double largest(double a, double b) { return a < b ? b : a; }  // std::max

inline double2 vertex_at(WORLD_ARGS, int body, int k) {
  const double2 p = BODY_POSITION(body), v = local_vertex[k + local_shift[body]], cs = BODY_ORIENTATION(body);
  return (double2)(p.x + cs.x * v.x - cs.y * v.y, p.y + cs.y * v.x + cs.x * v.y);
}

inline bool seamed(WORLD_ARGS, int body) { return has_seams && (seam[body].x != 0.0 || seam[body].y != 0.0); }

// skeleton_walk.h: the vertex after / before k along its body's skeleton.
typedef struct {
  int k;
  double2 shift;
} Along;

inline Along after(WORLD_ARGS, int body, int k) {
  const int begin = vertex_begin[body], last = begin + vertex_count[body] - 1;
  Along a = {-1, (double2)(0.0, 0.0)};
  if (k < last) a.k = k + 1;
  else if (closed[body]) a.k = begin;
  else if (seamed(WORLD, body)) a.k = begin + 1, a.shift = seam[body];
  return a;
}
inline Along before(WORLD_ARGS, int body, int k) {
  const int begin = vertex_begin[body], last = begin + vertex_count[body] - 1;
  Along a = {-1, (double2)(0.0, 0.0)};
  if (k > begin) a.k = k - 1;
  else if (closed[body]) a.k = last;
  else if (seamed(WORLD, body)) a.k = last - 1, a.shift = -seam[body];
  return a;
}
inline double2 position_of(WORLD_ARGS, int body, Along a) { return vertex_at(WORLD, body, a.k) + a.shift; }

// contact_geometry.cpp: is p in the exterior cone of vertex k?
bool in_exterior_cone(WORLD_ARGS, int body, int k, double2 offset, double2 apex, double2 p) {
  const double2 to_p = p - apex;
  const Along around[2] = {after(WORLD, body, k), before(WORLD, body, k)};
  for (int i = 0; i < 2; ++i) {
    if (around[i].k < 0) continue;
    if (dot2(to_p, position_of(WORLD, body, around[i]) + offset - apex) > 0.0) return false;
  }
  return true;
}

// A vertex at x beyond one end of the edge (inner_side of skeleton_walk.h).
bool on_inner_side_beyond_end(WORLD_ARGS, int edge_body, int feature, int feature_end, double2 edge_offset, double2 x,
                              bool beyond_far_end) {
  const int corner = beyond_far_end ? feature_end : feature;
  const Along other = beyond_far_end ? after(WORLD, edge_body, corner) : before(WORLD, edge_body, corner);
  if (other.k < 0) return false;
  const double2 apex = vertex_at(WORLD, edge_body, corner);
  const double2 u = x - (apex + edge_offset);
  const double2 in = apex - position_of(WORLD, edge_body, before(WORLD, edge_body, corner));
  const double2 out = position_of(WORLD, edge_body, after(WORLD, edge_body, corner)) - apex;
  const double turn = cross2(in, out);
  if (turn == 0.0) return false;
  const double2 towards = beyond_far_end ? out : -in;
  const double side = cross2(beyond_far_end ? out : in, u);
  return dot2(u, towards) > 0.0 && (turn > 0.0 ? side : -side) > 0.0;
}

// One candidate, packed as the host's Candidate.
typedef struct {
  int vertex_body, edge_body, vertex, feature, feature_end, vertex_vertex;
  double reach;
  double2 edge_offset;
} Key;

typedef struct {
  bool touching;
  double2 vertex_point, edge_point, normal;
  double overlap;
} Geometry;

Geometry contact_geometry(WORLD_ARGS, Key c) {
  Geometry g;
  g.touching = false;
  const double2 x = vertex_at(WORLD, c.vertex_body, c.vertex);
  const double reject_beyond = c.reach * c.reach * (1.0 + 1e-12);
  double2 y;
  if (!c.vertex_vertex) {
    const double2 a = vertex_at(WORLD, c.edge_body, c.feature) + c.edge_offset;
    const double2 b = vertex_at(WORLD, c.edge_body, c.feature_end) + c.edge_offset;
    const double2 ab = b - a;
    if (closed[c.edge_body] && cross2(ab, x - a) > 0.0) return g;
    const double t = dot2(x - a, ab) / norm2_of(ab);
    if (t > 0.0 && t < 1.0) {
      y = a + scaled(t, ab);
    } else {
      if (!on_inner_side_beyond_end(WORLD, c.edge_body, c.feature, c.feature_end, c.edge_offset, x, t >= 1.0)) return g;
      y = t >= 1.0 ? b : a;
    }
    if (norm2_of(y - x) > reject_beyond) return g;
  } else {
    y = vertex_at(WORLD, c.edge_body, c.feature) + c.edge_offset;
    if (norm2_of(y - x) > reject_beyond) return g;
    if (vertex_count[c.edge_body] > 1 && !in_exterior_cone(WORLD, c.edge_body, c.feature, c.edge_offset, y, x)) return g;
  }
  const double2 apart = y - x;
  const double d = sqrt(apart.x * apart.x + apart.y * apart.y);
  const double overlap = c.reach - d;
  if (!(overlap > 0.0) || d == 0.0) return g;
  g.touching = true;
  g.vertex_point = x;
  g.edge_point = y;
  g.overlap = overlap;
  g.normal = (double2)(apart.x / d, apart.y / d);
  return g;
}

inline double2 velocity_at(WORLD_ARGS, int b, double2 point, double2 offset) {
  const double2 arm = point - (BODY_POSITION(b) + offset);
  return BODY_VELOCITY(b) + scaled(BODY_SPIN(b), perp2(arm));
}

// The law's parameters, 7 per pair of materials: hertz (0/1), kn, γn, kt,
// γt, μ, cohesion.
typedef struct {
  double force_on_vertex_x, force_on_vertex_y, normal_force, spring_x, spring_y, viscous_x, viscous_y;
  double normal_energy, tangential_energy;
  bool sliding;
} Response;

// contact_law.h's evaluate_contact.
Response evaluate_contact(__global const double* law, double delta, double2 n, double2 relative, double2* xi, double dt) {
  Response out;
  const bool hertz = law[0] != 0.0;
  const double kn = law[1], gamma_n = law[2], kt = law[3], gamma_t = law[4], mu = law[5], cohesion = law[6];
  const double delta_rate = dot2(relative, n);
  double elastic;
  if (!hertz) {
    elastic = kn * delta;
    out.normal_energy = 0.5 * kn * delta * delta;
  } else {
    const double root = sqrt(delta);
    elastic = kn * delta * root;
    out.normal_energy = 0.4 * kn * delta * delta * root;
  }
  elastic -= cohesion;
  out.normal_energy -= cohesion * delta;
  const double viscous = gamma_n * delta_rate;
  out.normal_force = elastic + viscous;
  double2 viscous_force = scaled(-viscous, n);
  double2 force = scaled(-out.normal_force, n);
  double2 spring_force = (double2)(0.0, 0.0);
  out.sliding = false;
  out.tangential_energy = 0.0;
  if (kt > 0.0) {
    double2 carried = *xi - scaled(dot2(*xi, n), n);
    const double carried_length2 = norm2_of(carried);
    carried = carried_length2 > 0.0 ? scaled(sqrt(norm2_of(*xi) / carried_length2), carried) : (double2)(0.0, 0.0);
    const double2 tangential_velocity = relative - scaled(delta_rate, n);
    double2 trial = carried + scaled(dt, tangential_velocity);
    double2 spring = scaled(-kt, trial);
    const double2 damping = scaled(-gamma_t, tangential_velocity);
    const double cap = mu * largest(out.normal_force, 0.0);
    if (norm2_of(spring) > cap * cap) {
      out.sliding = true;
      const double spring_length = sqrt(spring.x * spring.x + spring.y * spring.y);
      trial = spring_length > 0.0 ? scaled(cap / spring_length, trial) : (double2)(0.0, 0.0);
      spring = scaled(-kt, trial);
    }
    *xi = trial;
    out.tangential_energy = 0.5 * kt * norm2_of(trial);
    spring_force = spring;
    if (!out.sliding) viscous_force += damping;
    force += spring + (out.sliding ? (double2)(0.0, 0.0) : damping);
  }
  out.force_on_vertex_x = force.x, out.force_on_vertex_y = force.y;
  out.spring_x = spring_force.x, out.spring_y = spring_force.y;
  out.viscous_x = viscous_force.x, out.viscous_y = viscous_force.y;
  return out;
}

// Per candidate. In: its key (vertex body, edge body, vertex, feature,
// feature end, kind: 1 = vertex–vertex), its reach and edge offset, and
// its state of 12 doubles (ξ, force, point, viscous force, normal force,
// flags: 1 active + 2 sliding, the damping and sliding dissipated since it
// began to touch), which it updates. Out, for the sums: the force on the vertex
// body and both bodies' torques (zero where not touching), its energy
// terms (the increments of damping and sliding dissipation, the normal and
// tangential energy), the overlap over the reach (-1 where not touching),
// and what a contact that opens had dissipated over its life.
__kernel void evaluate_contacts(WORLD_ARGS, const int count, const double dt, __global const int8* keys,
                                __global const double4* shapes, __global double* states,
                                __global double2* force_on_vertex, __global double2* torques, __global double4* energy,
                                __global double* overlap_ratio, __global double2* opened_totals) {
  const int k = get_global_id(0);
  if (k >= count) return;
  const int8 key = keys[k];
  const double4 shape = shapes[k];
  Key c = {key.s0, key.s1, key.s2, key.s3, key.s4, key.s5, shape.x, (double2)(shape.y, shape.z)};
  const Geometry g = contact_geometry(WORLD, c);
  const int v = c.vertex_body, e = c.edge_body;
  __global const double* law = laws + 7 * (material[v] * material_count + material[e]);
  const double kt = law[3];
  const double2 zero = (double2)(0.0, 0.0);
  __global double* state = states + 12 * k;
  force_on_vertex[k] = zero;
  torques[k] = zero;
  overlap_ratio[k] = -1.0;
  energy[k] = (double4)(0.0, 0.0, 0.0, 0.0);
  opened_totals[k] = zero;
  const bool was_active = ((int)state[9] & 1) != 0;
  if (!g.touching) {
    if (dt == 0.0 || !was_active) return;
    // contact_pass.cpp's close_opened: the last forces acted over this step.
    const double2 p = vload2(2, state), spring = vload2(0, state);
    const double2 step = scaled(dt, velocity_at(WORLD, v, p, zero) - velocity_at(WORLD, e, p, c.edge_offset));
    const double damping = -(0.5 * dot2(vload2(3, state), step));
    const double sliding = kt > 0.0 ? -0.5 * dot2(scaled(-kt, spring), step) + 0.5 * kt * norm2_of(spring) : 0.0;
    energy[k] = (double4)(damping, sliding, 0.0, 0.0);
    double damping_total = state[10], sliding_total = state[11];
    damping_total += damping;
    if (kt > 0.0) sliding_total += sliding;
    opened_totals[k] = (double2)(damping_total, sliding_total);
    for (int i = 0; i < 12; ++i) state[i] = 0.0;
    return;
  }
  // contact_pass.cpp's respond and evaluate_touching.
  const double2 at = g.vertex_point + scaled(radius[v] - 0.5 * g.overlap, g.normal);
  const double2 relative = velocity_at(WORLD, v, at, zero) - velocity_at(WORLD, e, at, c.edge_offset);
  const double2 old_spring = vload2(0, state);
  double2 spring = old_spring;
  const Response r = evaluate_contact(law, g.overlap, g.normal, relative, &spring, dt);
  const double2 viscous = (double2)(r.viscous_x, r.viscous_y);
  double damping = 0.0, sliding = 0.0;
  if (dt > 0.0) {
    const double2 step = scaled(dt, relative);
    damping = -(0.5 * dot2(vload2(3, state) + viscous, step));
    state[10] += damping;
    if (kt > 0.0) {
      sliding = -(0.5 * dot2(scaled(-kt, old_spring) + (double2)(r.spring_x, r.spring_y), step) +
                  (r.tangential_energy - 0.5 * kt * norm2_of(old_spring)));
      state[11] += sliding;
    }
    vstore2(spring, 0, state);
  }
  energy[k] = (double4)(damping, sliding, r.normal_energy, r.tangential_energy);
  overlap_ratio[k] = g.overlap / c.reach;
  const double2 f = (double2)(r.force_on_vertex_x, r.force_on_vertex_y);
  vstore2(f, 1, state);
  vstore2(at, 2, state);
  vstore2(viscous, 3, state);
  state[8] = r.normal_force;
  state[9] = r.sliding ? 3.0 : 1.0;
  force_on_vertex[k] = f;
  torques[k] = (double2)(cross2(at - BODY_POSITION(v), f), cross2(at - (BODY_POSITION(e) + c.edge_offset), f));
}

// Per body: its candidates' forces added to its loads, in increasing
// candidate order (the CPU's order of additions); out: force and torque,
// 4 doubles per body.
__kernel void sum_body_forces(const int bodies_count, __global const double* bodies, __global const int* start,
                              __global const int* candidates, __global const int8* keys,
                              __global const double2* force_on_vertex, __global const double2* torques,
                              __global const double* overlap_ratio, __global double* forces) {
  const int b = get_global_id(0);
  if (b >= bodies_count) return;
  double2 f = vload2(4, bodies + 12 * b);
  double t = bodies[12 * b + 10];
  for (int j = start[b]; j < start[b + 1]; ++j) {
    const int k = candidates[j];
    if (overlap_ratio[k] < 0.0) continue;
    if (keys[k].s0 == b) {
      f += force_on_vertex[k];
      t += torques[k].x;
    } else {
      f -= force_on_vertex[k];
      t -= torques[k].y;
    }
  }
  vstore2(f, 0, forces + 4 * b);
  forces[4 * b + 2] = t;
}

// Per chunk of `chunk` candidates: the energy terms summed in candidate
// order, as ContactEnergySums (damping, sliding, normal, tangential), then
// the deepest overlap ratio, 8 doubles per chunk.
__kernel void sum_chunk_energies(const int count, const int chunk, __global const double4* energy,
                                 __global const double* overlap_ratio, __global double8* sums) {
  const int c = get_global_id(0);
  const int first = c * chunk;
  if (first >= count) return;
  const int end = min(count, first + chunk);
  double4 s = (double4)(0.0, 0.0, 0.0, 0.0);
  double d = 0.0;
  for (int k = first; k < end; ++k) {
    s += energy[k];
    if (overlap_ratio[k] >= 0.0) d = largest(d, overlap_ratio[k]);
  }
  sums[c] = (double8)(s, d, 0.0, 0.0, 0.0);
}

// Per chunk of `chunk` candidates: the ended contacts' dissipation (damping,
// sliding) summed exactly, EXACT_WIDTH longs each, into exact.
__kernel void sum_chunk_ended(const int count, const int chunk, __global const double2* opened_totals,
                               __global long* exact) {
  const int c = get_global_id(0);
  const int first = c * chunk;
  if (first >= count) return;
  const int end = min(count, first + chunk);
  long damping[EXACT_WIDTH], sliding[EXACT_WIDTH];
  exact_clear(damping), exact_clear(sliding);
  for (int k = first; k < end; ++k) exact_add(damping, opened_totals[k].x), exact_add(sliding, opened_totals[k].y);
  __global long* out = exact + (long)c * 2 * EXACT_WIDTH;
  exact_store(damping, out), exact_store(sliding, out + EXACT_WIDTH);
}
