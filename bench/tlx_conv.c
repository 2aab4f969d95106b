/* tlx_conv.c - the benchmark convolution layer (conv_common.h) computed
 * with TLX-generated GEMMs, in one of two decompositions (-DCONV_IM2COL=1
 * for the first):
 *  - im2col: a (C*3*3) x (54*54) column matrix, then one GEMM
 *    out[O][P] = weights[O][C*3*3] x cols[C*3*3][P];
 *  - shifted GEMMs (default): for each kernel tap (r, q), one GEMM reading
 *    the input in place, out'[o][y*56 + x] += W[o][c][r][q] *
 *    in[c][(y + r)*56 + x + q]: with the output row padded to the input
 *    width 56, the tap's input view is a plain C x (54*56) matrix (row
 *    stride 56*56, column stride 1), so no im2col buffer exists and all
 *    nine GEMMs work in L2. The two padding columns per output row are
 *    dropped at the end.
 * Prints "tlx conv ... GFLOPS" (all of the above included in the time). */
#define _POSIX_C_SOURCE 200809L
#include "conv_common.h"

#include <string.h>

enum { CONV_K = CONV_C * CONV_R * CONV_R, CONV_P = CONV_OH * CONV_OW };

void tlx_test_gemm(long m, long n, long k, long flags, void *a, long ars,
                   long acs, void *b, long brs, long bcs, void *c, long crs,
                   long ccs);

static void im2col(const float *in, float *cols) {
  for (int c = 0; c < CONV_C; ++c)
    for (int r = 0; r < CONV_R; ++r)
      for (int q = 0; q < CONV_R; ++q) {
        float *row = cols + (size_t)((c * CONV_R + r) * CONV_R + q) * CONV_P;
        for (int y = 0; y < CONV_OH; ++y)
          for (int x = 0; x < CONV_OW; ++x)
            row[y * CONV_OW + x] = in[(c * CONV_H + y + r) * CONV_W + x + q];
      }
}

#ifndef CONV_IM2COL
#define CONV_IM2COL 0
#endif

/* Output columns of the shifted GEMMs: 54 rows of 56, minus the last row's
 * two padding columns (which would read past the input channel). */
enum { CONV_PW = CONV_OH * CONV_W - (CONV_W - CONV_OW) };

#define F32 (6 | 6 << 4 | 6 << 8)
#define TAP(r, q, acc)                                                         \
  tlx_test_gemm(CONV_O, CONV_PW, CONV_C, F32 | (acc) << 12,                    \
                wei + (r) * CONV_R + (q), CONV_C * CONV_R * CONV_R,            \
                CONV_R * CONV_R, (void *)(in + (r) * CONV_W + (q)),            \
                CONV_H * CONV_W, 1, wide, CONV_OH * CONV_W, 1)

static void run(const float *in, float *wei, float *cols, float *out) {
  if (CONV_IM2COL) {
    im2col(in, cols);
    tlx_test_gemm(CONV_O, CONV_P, CONV_K, F32, wei, CONV_K, 1, cols, CONV_P,
                  1, out, CONV_P, 1);
    return;
  }
  float *wide = cols; /* O x (54*56) */
  TAP(0, 0, 0);
  TAP(0, 1, 1);
  TAP(0, 2, 1);
  TAP(1, 0, 1);
  TAP(1, 1, 1);
  TAP(1, 2, 1);
  TAP(2, 0, 1);
  TAP(2, 1, 1);
  TAP(2, 2, 1);
  for (int o = 0; o < CONV_O; ++o)
    for (int y = 0; y < CONV_OH; ++y)
      memcpy(out + (o * CONV_OH + y) * CONV_OW,
             wide + (size_t)o * CONV_OH * CONV_W + y * CONV_W,
             sizeof(float) * CONV_OW);
}

int main(void) {
  float *in, *wei, *out;
  conv_alloc(&in, &wei, &out);
  float *cols = aligned_alloc(64, sizeof(float) * CONV_K * CONV_P);
  run(in, wei, cols, out);
  if (conv_check(in, wei, out)) {
    printf("tlx conv FAILED\n");
    return 1;
  }
  double best = 1e30;
  for (int r = 0; r < 20; ++r) {
    double t0 = bench_now();
    run(in, wei, cols, out);
    double t = bench_now() - t0;
    best = t < best ? t : best;
  }
  printf("tlx conv 64x56x56 3x3x64 %.1f\n", conv_flops() / best * 1e-9);
  return 0;
}
