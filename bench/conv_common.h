/* conv_common.h - the benchmark convolution layer: 3x3, 64 -> 64 channels,
 * 56x56 input, batch 1, unit stride, no padding (TLX convolutions never pad
 * implicitly), so the output is 64 x 54 x 54. f32, NCHW / OIHW. */
#ifndef TLX_BENCH_CONV_COMMON_H
#define TLX_BENCH_CONV_COMMON_H

#include "bench_common.h"

enum { CONV_C = 64, CONV_O = 64, CONV_H = 56, CONV_W = 56, CONV_R = 3,
       CONV_OH = CONV_H - CONV_R + 1, CONV_OW = CONV_W - CONV_R + 1 };

static inline double conv_flops(void) {
  return 2.0 * CONV_O * CONV_OH * CONV_OW * CONV_C * CONV_R * CONV_R;
}

static inline void conv_alloc(float **in, float **wei, float **out) {
  *in = aligned_alloc(64, sizeof(float) * CONV_C * CONV_H * CONV_W);
  *wei = aligned_alloc(64, sizeof(float) * CONV_O * CONV_C * CONV_R * CONV_R);
  *out = aligned_alloc(64, sizeof(float) * CONV_O * CONV_OH * CONV_OW);
  for (int i = 0; i < CONV_C * CONV_H * CONV_W; ++i)
    (*in)[i] = (float)bench_value(i, 0, 1);
  for (int i = 0; i < CONV_O * CONV_C * CONV_R * CONV_R; ++i)
    (*wei)[i] = (float)bench_value(i, 0, 0);
}

/* Sampled direct convolution; values are small integers, so exact. */
static inline int conv_check(const float *in, const float *wei,
                             const float *out) {
  int bad = 0;
  for (int s = 0; s < 4096; ++s) {
    int e = (int)(((unsigned)s * 2654435761u) % (CONV_O * CONV_OH * CONV_OW));
    int o = e / (CONV_OH * CONV_OW), y = e / CONV_OW % CONV_OH, x = e % CONV_OW;
    double want = 0;
    for (int c = 0; c < CONV_C; ++c)
      for (int r = 0; r < CONV_R; ++r)
        for (int q = 0; q < CONV_R; ++q)
          want += (double)in[(c * CONV_H + y + r) * CONV_W + x + q] *
                  wei[((o * CONV_C + c) * CONV_R + r) * CONV_R + q];
    if (out[e] != want && bad++ < 5)
      fprintf(stderr, "out[%d][%d][%d] = %f, want %f\n", o, y, x, out[e], want);
  }
  return bad != 0;
}

#endif /* TLX_BENCH_CONV_COMMON_H */
