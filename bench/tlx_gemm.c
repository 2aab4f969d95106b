/* tlx_gemm.c - times one GEMM of TLX's emitter, called through its test
 * marker tlx_test_gemm (lowered by opt -passes=tlx-test-gemm, then
 * optimized at -O2). Not a user's path, so bench/run no longer times it
 * (its GEMM rows are bench/tlx_matmul.c through tlx-cc); it stays for
 * test/Transforms/GemmEmitter/bench-smoke.test and for emitter work.
 * Checks sampled results against a direct dot product (all of C for small
 * sizes) before timing; prints "tlx TYPE M N K GFLOPS" or fails.
 *
 * -D: BT (0 f32, 1 s8s8s32, 2 u8s8s32, 3 bf16->f32), GM, GN, GK, AMX (1: ask
 * for the AMX kernels), REPS (timed runs; the best is reported).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"

#ifndef AMX
#define AMX 0
#endif
#ifndef REPS
#define REPS 5
#endif

void tlx_test_gemm(long m, long n, long k, long flags, void *a, long ars,
                   long acs, void *b, long brs, long bcs, void *c, long crs,
                   long ccs);

/* tlx_dtype codes (tlxrt.h) of A, B, C and the signedness flags. */
#if BT == 0
#define FLAGS (6 | 6 << 4 | 6 << 8)
#elif BT == 1
#define FLAGS (0 | 0 << 4 | 2 << 8)
#elif BT == 2
#define FLAGS (0 | 0 << 4 | 2 << 8 | 1 << 13)
#else
#define FLAGS (5 | 5 << 4 | 6 << 8)
#endif

static void run(void *a, void *b, void *c) {
  tlx_test_gemm(GM, GN, GK, FLAGS | AMX << 15, a, GK, 1, b, GN, 1, c, GN, 1);
}

int main(void) {
  bench_matrices mats;
  bench_alloc(&mats, BT, GM, GN, GK);
  run(mats.a, mats.b, mats.c);
  if (bench_check(&mats, BT, GM, GN, GK)) {
    printf("tlx %s %d %d %d FAILED\n", bench_type_name(BT), GM, GN, GK);
    return 1;
  }
  double best = 1e30;
  int reps = bench_reps(GM, GN, GK, REPS);
  for (int r = 0; r < reps; ++r) {
    double t0 = bench_now();
    run(mats.a, mats.b, mats.c);
    double t = bench_now() - t0;
    if (t < best)
      best = t;
  }
  printf("tlx %s %d %d %d %.1f\n", bench_type_name(BT), GM, GN, GK,
         2.0 * GM * GN * (double)GK / best * 1e-9);
  bench_free(&mats);
  return 0;
}
