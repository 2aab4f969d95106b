/* tlx_qgemv.c - a matrix-vector product with group-quantized int8 weights,
 * as a quantized transformer's decode step writes it (llama2.c's runq.c
 * matmul): W (D x N) int8 with one float scale per group of 32 along N,
 * x (N) quantized the same way, y[i] = sum_g ws[i][g] xs[g] sum_k
 * W[i][32g + k] x[32g + k].
 *
 * TLX (tlx.h + tlx-cc): the group sums - exact int32 - are one batched
 * product over the groups, W viewed as [groups][D][32] through its layout
 * operand (docs/tutorial.md, "Quantized weights"), into a [groups][D]
 * buffer; the scales are applied in C. -DPLAIN_C: the loop runq.c writes
 * (built with clang -O3 -ffast-math -march=native; -fopenmp splits rows).
 *
 * -D: GD, GN (N a multiple of 32), NAME, RTSIZE=1 (sizes read from
 * volatiles, as from a model file: the default). Prints "NAME gemv-0-q8
 * D N 1 GB/s", GB/s being the bytes of W and its scales read per second,
 * after checking y against a double-precision sum.
 */
#define _POSIX_C_SOURCE 200809L
#ifndef PLAIN_C
#include <tlx.h>
#endif
#include "bench_common.h"

#ifndef NAME
#define NAME "tlx"
#endif
#ifndef RTSIZE
#define RTSIZE 1
#endif
#define GROUP 32

#if RTSIZE
static volatile int size_d = GD, size_n = GN;
#define D_ size_d
#define N_ size_n
#else
#define D_ GD
#define N_ GN
#endif

#ifndef PLAIN_C
typedef int32_t sums_vec __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS_AS(sums_vec, sums)

/* sums[i][g] = sum_k wq[i][32g + k] xq[32g + k]: W stored [D][groups][32]
 * is the tensor [groups][D][32] of layout (1, 0, 2), the sums stored
 * [D][groups] the product's [groups][D][1] of the same layout (each row's
 * sums together, as the scales are). */
static void group_sums(int32_t *restrict sums, const int8_t *restrict wq,
                       const int8_t *restrict xq, int d, int n) {
  int groups = n / GROUP;
  tlx_token_t w = tensor_load(wq, TLX_SHAPE(d, groups, GROUP),
                              TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3), TLX_ZEROS(3));
  sums_vec p = tensor_matmul_sums(w, TLX_LOAD(xq, groups, GROUP, 1));
  TLX_STORE(sums, tensor_typeinfo(p, TLX_SHAPE(d, groups, 1),
                                  TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3)));
}

static void product(float *restrict y, const int8_t *restrict wq,
                    const float *restrict ws, const int8_t *restrict xq,
                    const float *restrict xs, int32_t *restrict sums) {
  int d = D_, n = N_, groups = n / GROUP;
  group_sums(sums, wq, xq, d, n);
#pragma omp parallel for
  for (int i = 0; i < d; ++i) {
    float acc = 0;
    for (int g = 0; g < groups; ++g)
      acc += (float)sums[(size_t)i * groups + g] * ws[(size_t)i * groups + g] *
             xs[g];
    y[i] = acc;
  }
}
#else
static void product(float *restrict y, const int8_t *restrict wq,
                    const float *restrict ws, const int8_t *restrict xq,
                    const float *restrict xs, int32_t *restrict sums) {
  int d = D_, n = N_, groups = n / GROUP;
  (void)sums;
#pragma omp parallel for
  for (int i = 0; i < d; ++i) {
    float acc = 0;
    const int8_t *row = wq + (size_t)i * n;
    for (int g = 0; g < groups; ++g) {
      int32_t isum = 0;
      for (int k = 0; k < GROUP; ++k)
        isum += (int32_t)row[g * GROUP + k] * (int32_t)xq[g * GROUP + k];
      acc += (float)isum * ws[(size_t)i * groups + g] * xs[g];
    }
    y[i] = acc;
  }
}
#endif

static int value(int64_t i, int salt) {
  uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ull + (uint64_t)salt;
  x ^= x >> 29;
  return (int)(x % 255) - 127;
}

int main(void) {
  size_t wn = (size_t)GD * GN, groups = GN / GROUP;
  int8_t *wq = malloc(wn), *xq = malloc(GN);
  float *ws = malloc(GD * groups * sizeof(float));
  float *xs = malloc(groups * sizeof(float)), *y = malloc(GD * sizeof(float));
  int32_t *sums = malloc(GD * groups * sizeof(int32_t));
  if (!wq || !xq || !ws || !xs || !y || !sums)
    return 1;
  for (size_t i = 0; i < wn; ++i)
    wq[i] = (int8_t)value((int64_t)i, 1);
  for (size_t i = 0; i < GN; ++i)
    xq[i] = (int8_t)value((int64_t)i, 2);
  for (size_t i = 0; i < GD * groups; ++i)
    ws[i] = 1e-3f * (float)(value((int64_t)i, 3) + 128);
  for (size_t g = 0; g < groups; ++g)
    xs[g] = 1e-2f * (float)(value((int64_t)g, 4) + 128);
  product(y, wq, ws, xq, xs, sums);
  for (int i = 0; i < GD; ++i) {
    double want = 0, mag = 0;
    for (size_t g = 0; g < groups; ++g) {
      int64_t isum = 0;
      for (int k = 0; k < GROUP; ++k)
        isum += (int64_t)wq[(size_t)i * GN + g * GROUP + k] *
                xq[g * GROUP + k];
      double term = (double)isum * ws[(size_t)i * groups + g] * xs[g];
      want += term;
      mag += term < 0 ? -term : term;
    }
    if ((y[i] - want) * (y[i] - want) > 1e-10 * (1 + mag * mag)) {
      printf("%s gemv-0-q8 %d %d 1 FAILED at %d: %g, expected %g\n", NAME, GD,
             GN, i, (double)y[i], want);
      return 1;
    }
  }
  /* About 0.3 s of reads at 30 GB/s, at least 5 runs; best run counts. */
  double bytes = (double)wn + (double)GD * groups * sizeof(float);
  int reps = (int)(1e10 / bytes);
  reps = reps < 5 ? 5 : reps > 20000 ? 20000 : reps;
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    double t0 = bench_now();
    product(y, wq, ws, xq, xs, sums);
    double t = bench_now() - t0;
    best = t < best ? t : best;
  }
  printf("%s gemv-0-q8 %d %d 1 %.2f\n", NAME, GD, GN, bytes / best * 1e-9);
  free(wq);
  free(xq);
  free(ws);
  free(xs);
  free(y);
  free(sums);
  return 0;
}
