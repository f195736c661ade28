// Exact sums on the device, as solver/engine/exact_sum.h keeps them: a
// double's mantissa as 32-bit digits in three neighbouring longs of
// EXACT_WIDTH (limb k weighs 2^(32k - 1074)), and in the last one the
// count of terms that were not finite. The host adds the limbs of every
// chunk (add_exact_chunks) and reads them as an ExactSum, so that the
// device's sums are the CPU's bits whatever the chunks.
#define EXACT_LIMBS 68
#define EXACT_WIDTH 69

inline void exact_add(long* limb, const double x) {
  const ulong bits = as_ulong(x);
  int exponent = (int)((bits >> 52) & 0x7ff);
  ulong mantissa = bits & 0xfffffffffffffUL;
  if (exponent == 0x7ff) {
    limb[EXACT_LIMBS] += 1;
    return;
  }
  if (exponent == 0) {
    if (mantissa == 0) return;
    exponent = 1;
  } else {
    mantissa |= 0x10000000000000UL;
  }
  const int position = exponent - 1, k = position >> 5, shift = position & 31;
  const ulong low = mantissa << shift, high = shift ? mantissa >> (64 - shift) : 0;
  const long d0 = (long)(low & 0xffffffffUL), d1 = (long)(low >> 32), d2 = (long)high;
  if (bits >> 63) {
    limb[k] -= d0, limb[k + 1] -= d1, limb[k + 2] -= d2;
  } else {
    limb[k] += d0, limb[k + 1] += d1, limb[k + 2] += d2;
  }
}

inline void exact_clear(long* limb) {
  for (int k = 0; k < EXACT_WIDTH; ++k) limb[k] = 0;
}

inline void exact_store(const long* limb, __global long* out) {
  for (int k = 0; k < EXACT_WIDTH; ++k) out[k] = limb[k];
}

// Element j of the chunks' exact sums (`width` longs a chunk), added over
// the chunks: integers, so in any order.
__kernel void add_exact_chunks(const int chunks, const int width, __global const long* per_chunk,
                               __global long* total) {
  const int j = get_global_id(0);
  if (j >= width) return;
  long s = 0;
  for (int c = 0; c < chunks; ++c) s += per_chunk[(long)c * width + j];
  total[j] = s;
}
