// Velocity Verlet on the device (docs/OPENCL.md), operation for operation
// as the CPU's VerletStepper (verlet_stepper.cpp), so that a run resident
// on the device gives the CPU's bits. Compiled after body_pose.cl, whose
// orientation_at it uses.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

// The bodies' state and properties, resident on the device. Per body:
// held (bits 0, 1, 2: x, y, rotation held), unconstrained (1: nothing held,
// no imposed load), imposed velocity and load (x, y, rotation, pad).
#define BODY_ARGS                                                                                                 \
  const int n, __global double2 *position, __global double *angle, __global double2 *orientation,              \
      __global double2 *velocity, __global double *spin, __global double2 *force, __global double *torque,       \
      __global double2 *previous, __global const double *mass, __global const double *inverse_mass,               \
      __global const double *inertia, __global const double *inverse_inertia, __global const uchar *held,        \
      __global const uchar *unconstrained, __global const double4 *imposed_velocity,                             \
      __global const double4 *imposed_load, __global const int *vertex_begin, __global const int *vertex_count,  \
      __global const int *local_shift, __global const double2 *local_vertex, const double2 gravity,             \
      const double2 attractor_centre, const double attractor_strength

// world.h's body_force: gravity and the attractor.
double2 body_force(const double m, const double2 p, const double2 gravity, const double2 centre, const double strength) {
  double2 f = (double2)(m * gravity.x, m * gravity.y);
  if (strength != 0.0) {
    const double2 to_centre = centre - p;
    const double distance = sqrt(to_centre.x * to_centre.x + to_centre.y * to_centre.y);
    if (distance > 0.0) {
      const double s = m * strength / distance;
      f += (double2)(s * to_centre.x, s * to_centre.y);
    }
  }
  return f;
}

// The half kick of an unconstrained body (verlet_stepper.cpp's kick);
// returns its new velocity.
double2 kick(const int i, const double dt, __global double2* velocity, __global double* spin,
             __global const double2* force, __global const double* torque, __global const double* inverse_mass,
             __global const double* inverse_inertia) {
  double2 v = velocity[i];
  v.x += 0.5 * dt * force[i].x * inverse_mass[i];
  v.y += 0.5 * dt * force[i].y * inverse_mass[i];
  velocity[i] = v;
  spin[i] += 0.5 * dt * torque[i] * inverse_inertia[i];
  return v;
}

// Pass 1 (VerletStepper::move_bodies): the half kick, the drift, the body
// forces of the new position (and a constrained body's imposed loads:
// EngineCore::apply_loads), the orientation; and how far each body may have
// moved since the list was built, its chunk's largest in motion_max.
__kernel void move_bodies(BODY_ARGS, const double dt, __global const double2* reference_position,
                          __global const double* reference_angle, __global const double* bounding_radius,
                          const int chunk, __global double* motion_max) {
  const int c = get_global_id(0);
  const int first = c * chunk;
  if (first >= n) return;
  const int end = min(n, first + chunk);
  double largest = 0.0;
  for (int i = first; i < end; ++i) {
    previous[i] = position[i];
    if (unconstrained[i]) {
      const double2 v = kick(i, dt, velocity, spin, force, torque, inverse_mass, inverse_inertia);
      position[i] += (double2)(dt * v.x, dt * v.y);
      angle[i] += spin[i] * dt;
      force[i] = body_force(mass[i], position[i], gravity, attractor_centre, attractor_strength);
      torque[i] = 0.0;
    } else {
      const double f[3] = {force[i].x, force[i].y, torque[i]};
      const double inverse[3] = {inverse_mass[i], inverse_mass[i], inverse_inertia[i]};
      const double imposed[3] = {imposed_velocity[i].x, imposed_velocity[i].y, imposed_velocity[i].z};
      double v[3] = {velocity[i].x, velocity[i].y, spin[i]};
      double x[3] = {position[i].x, position[i].y, angle[i]};
      for (int k = 0; k < 3; ++k) {
        if (held[i] & (1 << k))
          v[k] = imposed[k];
        else
          v[k] += 0.5 * dt * f[k] * inverse[k];
        x[k] += v[k] * dt;
      }
      velocity[i] = (double2)(v[0], v[1]), spin[i] = v[2];
      position[i] = (double2)(x[0], x[1]), angle[i] = x[2];
      // apply_loads' set_loads, at the new position.
      double2 load = body_force(mass[i], position[i], gravity, attractor_centre, attractor_strength);
      double t = 0.0;
      if (!(held[i] & 1)) load.x += imposed_load[i].x;
      if (!(held[i] & 2)) load.y += imposed_load[i].y;
      if (!(held[i] & 4)) t += imposed_load[i].z;
      force[i] = load, torque[i] = t;
    }
    // update_orientation: a disk whose skeleton is its centre keeps its own.
    const double2 centre_vertex = local_vertex[vertex_begin[i] + local_shift[i]];
    if (!(vertex_count[i] == 1 && centre_vertex.x == 0.0 && centre_vertex.y == 0.0)) orientation[i] = orientation_at(angle[i]);
    // NeighbourList::motion_of.
    const double2 moved = position[i] - reference_position[i];
    const double motion = sqrt(moved.x * moved.x + moved.y * moved.y) + bounding_radius[i] * fabs(angle[i] - reference_angle[i]);
    largest = largest < motion ? motion : largest;
  }
  motion_max[c] = largest;
}

// The record the contact pass reads per body (contact_pass.cl): position,
// orientation, velocity, spin, loads.
__kernel void pack_records(BODY_ARGS, __global double* records) {
  const int i = get_global_id(0);
  if (i >= n) return;
  __global double* r = records + 12 * i;
  vstore2(position[i], 0, r);
  vstore2(orientation[i], 1, r);
  vstore2(velocity[i], 2, r);
  r[6] = spin[i];
  r[7] = 0.0;
  vstore2(force[i], 4, r);
  r[10] = torque[i];
  r[11] = 0.0;
}

// The contact pass's sums (4 doubles per body) become the bodies' forces.
__kernel void take_forces(BODY_ARGS, __global const double* forces) {
  const int i = get_global_id(0);
  if (i >= n) return;
  force[i] = vload2(0, forces + 4 * i);
  torque[i] = forces[4 * i + 2];
}

// stability.cpp's looks_unstable for a body whose state is finite: a step
// longer than its size, a periodic cell's wrap taken out (moved_of).
bool moved_too_far(const double2 p, const double2 before, const double bound, const int2 periodic,
                   const double2 cell) {
  double2 step = p - before;
  if (!(step.x * step.x + step.y * step.y > bound * bound)) return false;
  if (periodic.x) step.x -= cell.x * round(step.x / cell.x);
  if (periodic.y) step.y -= cell.y * round(step.y / cell.y);
  return sqrt(step.x * step.x + step.y * step.y) > bound;
}

// Pass 3 (VerletStepper::finish_chunk): the second half kick, the chunk's
// energy sums in body order (BodyEnergySums: translational, rotational,
// gravitational, fastest speed², fastest body), and the first body of the
// chunk that looks unstable (n if none): a step longer than its size, or a
// value that is not finite (which the CPU's test then examines).
__kernel void finish_bodies(BODY_ARGS, const double dt, __global const uchar* is_wall,
                            __global const double* bounding_radius, const int chunk, __global double8* sums,
                            const int2 periodic, const double2 cell) {
  const int c = get_global_id(0);
  const int first = c * chunk;
  if (first >= n) return;
  const int end = min(n, first + chunk);
  double translational = 0.0, rotational = 0.0, gravitational = 0.0, fastest_speed2 = -1.0;
  int fastest = 0, suspect = n;
  for (int i = first; i < end; ++i) {
    if (unconstrained[i]) {
      kick(i, dt, velocity, spin, force, torque, inverse_mass, inverse_inertia);
    } else {
      const double f[3] = {force[i].x, force[i].y, torque[i]};
      const double inverse[3] = {inverse_mass[i], inverse_mass[i], inverse_inertia[i]};
      double v[3] = {velocity[i].x, velocity[i].y, spin[i]};
      for (int k = 0; k < 3; ++k)
        if (!(held[i] & (1 << k))) v[k] += 0.5 * dt * f[k] * inverse[k];
      velocity[i] = (double2)(v[0], v[1]), spin[i] = v[2];
    }
    const double2 v = velocity[i], p = position[i];
    const double speed2 = v.x * v.x + v.y * v.y;
    if (speed2 > fastest_speed2) fastest_speed2 = speed2, fastest = i;
    translational += 0.5 * mass[i] * speed2;
    rotational += 0.5 * inertia[i] * spin[i] * spin[i];
    double potential = -mass[i] * (gravity.x * p.x + gravity.y * p.y);
    if (attractor_strength != 0.0) {
      const double2 d = p - attractor_centre;
      potential += mass[i] * attractor_strength * sqrt(d.x * d.x + d.y * d.y);
    }
    gravitational += potential;
    if (suspect == n) {
      const double sum = p.x + p.y + v.x + v.y + angle[i] + spin[i];
      if (!isfinite(sum) || (!is_wall[i] && moved_too_far(p, previous[i], 2.0 * bounding_radius[i], periodic, cell)))
        suspect = i;
    }
  }
  sums[c] = (double8)(translational, rotational, gravitational, fastest_speed2, (double)fastest, (double)suspect, 0.0, 0.0);
}

// The constrained bodies' force, torque, velocity and spin (8 doubles
// each), for the host's power of imposed motions and loads.
__kernel void gather_constrained(BODY_ARGS, const int count, __global const int* which, __global double* out) {
  const int j = get_global_id(0);
  if (j >= count) return;
  const int i = which[j];
  __global double* r = out + 8 * j;
  vstore2(force[i], 0, r);
  r[2] = torque[i];
  vstore2(velocity[i], 2, r);
  r[6] = spin[i];
  r[7] = 0.0;
}

// The constrained bodies' loads as the host set them at a list rebuild
// (EngineCore::apply_loads at their wrapped places): force, torque.
__kernel void set_constrained_loads(BODY_ARGS, const int count, __global const int* which,
                                    __global const double* values) {
  const int j = get_global_id(0);
  if (j >= count) return;
  const int i = which[j];
  force[i] = vload2(0, values + 8 * j);
  torque[i] = values[8 * j + 2];
}
