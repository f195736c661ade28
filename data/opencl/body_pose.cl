// A body's orientation from its angle on the device, with the CPU
// engine's arithmetic (solver/engine/world.h: orientation_at), so that both
// give the same bits; verlet.cl uses it.
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
