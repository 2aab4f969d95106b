/* tlx_conv.c - the benchmark convolution layer (conv_common.h) the way
 * TLX lowers convolutions: im2col into a (C*3*3) x (54*54) matrix, then one
 * TLX-generated GEMM out[O][P] = weights[O][C*3*3] x cols[C*3*3][P]. Prints
 * "tlx conv ... GFLOPS" (im2col included in the time). */
#define _POSIX_C_SOURCE 200809L
#include "conv_common.h"

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

static void run(const float *in, float *wei, float *cols, float *out) {
  im2col(in, cols);
  tlx_test_gemm(CONV_O, CONV_P, CONV_K, 6 | 6 << 4 | 6 << 8, wei, CONV_K, 1,
                cols, CONV_P, 1, out, CONV_P, 1);
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
