// Sphero's OpenCL kernels: bodies' orientations and their skeletons'
// world vertices, with the CPU engine's arithmetic (solver/engine/world.h:
// orientation_at, vertex_position), so that both give the same bits.
// No contraction into fused multiply-adds: the CPU build (x86-64 without
// -march) has none either.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

// (cos θ, sin θ): reduction by π/2 in two parts and fdlibm's kernels, as
// orientation_at. Beyond 10⁵ rad the device's own cos and sin, which may
// differ from libm's in the last bits.
double2 orientation_at(double angle) {
  if (!(fabs(angle) < 1e5)) return (double2)(cos(angle), sin(angle));
  const double two_over_pi = 6.36619772367581382433e-01;
  const double pio2_high = 1.57079632673412561417e+00;
  const double pio2_low = 6.07710050650619224932e-11;
  const double round_shift = 0x1.8p52;
  const double n = (angle * two_over_pi + round_shift) - round_shift;
  const double x = (angle - n * pio2_high) - n * pio2_low;
  const double z = x * x, w = z * z;
  const double sin_r = z * (-1.98412698298579493134e-04 + z * 2.75573137070700676789e-06) +
                       8.33333333332248946124e-03 + z * w * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10);
  const double sine = x + z * x * (-1.66666666666666324348e-01 + z * sin_r);
  const double cos_r = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * 2.48015872894767294178e-05)) +
                       w * w * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11));
  const double half_z = 0.5 * z, one_less = 1.0 - half_z;
  const double cosine = one_less + (((1.0 - one_less) - half_z) + z * cos_r);
  switch ((long)n & 3) {
    case 0: return (double2)(cosine, sine);
    case 1: return (double2)(-sine, cosine);
    case 2: return (double2)(-cosine, -sine);
    default: return (double2)(sine, -cosine);
  }
}

// One work-item per body. A disk whose skeleton is its centre keeps its
// orientation: it never enters its vertex (update_orientation).
__kernel void orient_bodies(const int bodies, __global const double* angle, __global const int* vertex_begin,
                            __global const int* vertex_count, __global const int* local_shift,
                            __global const double2* local_vertex, __global double2* orientation) {
  const int i = get_global_id(0);
  if (i >= bodies) return;
  if (vertex_count[i] == 1) {
    const double2 v = local_vertex[vertex_begin[i] + local_shift[i]];
    if (v.x == 0.0 && v.y == 0.0) return;
  }
  orientation[i] = orientation_at(angle[i]);
}

// One work-item per skeleton vertex, given the body it belongs to.
__kernel void place_vertices(const int vertices, __global const int* vertex_body, __global const double2* position,
                             __global const double2* orientation, __global const int* local_shift,
                             __global const double2* local_vertex, __global double2* world_vertex) {
  const int k = get_global_id(0);
  if (k >= vertices) return;
  const int body = vertex_body[k];
  const double2 p = position[body], v = local_vertex[k + local_shift[body]], cs = orientation[body];
  world_vertex[k] = (double2)(p.x + cs.x * v.x - cs.y * v.y, p.y + cs.y * v.x + cs.x * v.y);
}
