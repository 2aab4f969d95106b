/* tlx_user_matmul.c - a square f32 matmul written the way TLX users write
 * it (tlx.h: tensor_load / tensor_matmul / tensor_typeinfo / tensor_store),
 * compiled with `tlx-cc -O2 -march=native` - the whole TLX pipeline
 * (recognition, verification, lowering, GEMM emitter) - and timed like
 * tlx_gemm.c. -D: GN (the size). bench/run now times bench/tlx_matmul.c
 * (every type, three builds) instead; this square f32 form stays as the
 * program docs/pipeline.md measured. */
#define _POSIX_C_SOURCE 200809L
#include <tlx.h>

#include "bench_common.h"

#ifndef GN
#define GN 1024
#endif

typedef float mat_t __attribute__((__vector_size__(GN * GN * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(mat_t)

static void matmul(const float *a, const float *b, float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(GN, GN), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(GN, GN), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  mat_t r = tensor_matmul(ta, tb);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(GN, GN), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(c, tr, TLX_ZEROS(2));
}

int main(void) {
  bench_matrices mats;
  bench_alloc(&mats, 0, GN, GN, GN);
  matmul(mats.a, mats.b, mats.c);
  if (bench_check(&mats, 0, GN, GN, GN)) {
    printf("tlx-cc f32 %d %d %d FAILED\n", GN, GN, GN);
    return 1;
  }
  double best = 1e30;
  int reps = bench_reps(GN, GN, GN, 5);
  for (int r = 0; r < reps; ++r) {
    double t0 = bench_now();
    matmul(mats.a, mats.b, mats.c);
    double t = bench_now() - t0;
    best = t < best ? t : best;
  }
  printf("tlx-cc f32 %d %d %d %.1f\n", GN, GN, GN,
         2.0 * GN * GN * (double)GN / best * 1e-9);
  return 0;
}
