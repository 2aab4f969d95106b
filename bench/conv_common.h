/* conv_common.h - a benchmark convolution layer, f32, batch 1, no padding
 * (TLX convolutions never pad implicitly). The default is the 3x3,
 * 64 -> 64 channel layer on a 56x56 input (output 64 x 54 x 54); -D
 * CONV_C/CONV_O/CONV_H/CONV_W (channels in and out, input height and
 * width), CONV_R (kernel size), CONV_S (stride) pick another, and
 * CONV_NHWC=1 holds the data channels last: input and output NHWC, the
 * kernel HWIO (NCHW / OIHW otherwise). */
#ifndef TLX_BENCH_CONV_COMMON_H
#define TLX_BENCH_CONV_COMMON_H

#include "bench_common.h"

#ifndef CONV_C
#define CONV_C 64
#endif
#ifndef CONV_O
#define CONV_O 64
#endif
#ifndef CONV_H
#define CONV_H 56
#endif
#ifndef CONV_W
#define CONV_W CONV_H
#endif
#ifndef CONV_R
#define CONV_R 3
#endif
#ifndef CONV_S
#define CONV_S 1
#endif
#ifndef CONV_NHWC
#define CONV_NHWC 0
#endif

enum { CONV_OH = (CONV_H - CONV_R) / CONV_S + 1,
       CONV_OW = (CONV_W - CONV_R) / CONV_S + 1 };

/* The row label: "conv 64x56x56 3x3x64", with "/2" for a stride and
 * " nhwc" for channels-last data. */
#define CONV_STR2(x) #x
#define CONV_STR(x) CONV_STR2(x)
#define CONV_LABEL                                                             \
  "conv " CONV_STR(CONV_C) "x" CONV_STR(CONV_H) "x" CONV_STR(CONV_W) " "       \
  CONV_STR(CONV_R) "x" CONV_STR(CONV_R) "x" CONV_STR(CONV_O)                   \
  CONV_STRIDE_LABEL CONV_LAYOUT_LABEL
#if CONV_S > 1
#define CONV_STRIDE_LABEL "/" CONV_STR(CONV_S)
#else
#define CONV_STRIDE_LABEL ""
#endif
#if CONV_NHWC
#define CONV_LAYOUT_LABEL " nhwc"
#else
#define CONV_LAYOUT_LABEL ""
#endif

/* Flat positions of input (c, y, x), kernel (o, c, r, q), output (o, y, x). */
static inline size_t conv_in_at(int c, int y, int x) {
  return CONV_NHWC ? ((size_t)y * CONV_W + x) * CONV_C + c
                   : ((size_t)c * CONV_H + y) * CONV_W + x;
}
static inline size_t conv_wei_at(int o, int c, int r, int q) {
  return CONV_NHWC ? (((size_t)r * CONV_R + q) * CONV_C + c) * CONV_O + o
                   : (((size_t)o * CONV_C + c) * CONV_R + r) * CONV_R + q;
}
static inline size_t conv_out_at(int o, int y, int x) {
  return CONV_NHWC ? ((size_t)y * CONV_OW + x) * CONV_O + o
                   : ((size_t)o * CONV_OH + y) * CONV_OW + x;
}

static inline double conv_flops(void) {
  return 2.0 * CONV_O * CONV_OH * CONV_OW * CONV_C * CONV_R * CONV_R;
}

static inline void conv_alloc(float **in, float **wei, float **out) {
  size_t ni = (size_t)CONV_C * CONV_H * CONV_W;
  size_t nw = (size_t)CONV_O * CONV_C * CONV_R * CONV_R;
  size_t no = (size_t)CONV_O * CONV_OH * CONV_OW;
  *in = aligned_alloc(64, sizeof(float) * ((ni + 15) & ~(size_t)15));
  *wei = aligned_alloc(64, sizeof(float) * ((nw + 15) & ~(size_t)15));
  *out = aligned_alloc(64, sizeof(float) * ((no + 15) & ~(size_t)15));
  for (size_t i = 0; i < ni; ++i)
    (*in)[i] = (float)bench_value((int)i, 0, 1);
  for (size_t i = 0; i < nw; ++i)
    (*wei)[i] = (float)bench_value((int)i, 0, 0);
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
          want += (double)in[conv_in_at(c, y * CONV_S + r, x * CONV_S + q)] *
                  wei[conv_wei_at(o, c, r, q)];
    float got = out[conv_out_at(o, y, x)];
    if (got != want && bad++ < 5)
      fprintf(stderr, "out[%d][%d][%d] = %f, want %f\n", o, y, x, got, want);
  }
  return bad != 0;
}

#endif /* TLX_BENCH_CONV_COMMON_H */
