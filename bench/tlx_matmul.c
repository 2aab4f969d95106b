/* tlx_matmul.c - one GEMM as a TLX user writes it: tlx.h (tensor_load,
 * tensor_matmul / tensor_usmma, tensor_typeinfo, tensor_store), compiled
 * by tlx-cc - the whole pipeline (recognition, verification, lowering, the
 * GEMM emitter). bench/run builds it once per (type, size, build): -O2
 * -march=native, -O2 without -march, -O0 -march=native, and with
 * -fplugin-arg-tlx-target=amx where the CPU has AMX.
 *
 * Checks sampled results against a direct dot product (all of C for small
 * sizes) before timing, as every bench program does (bench_common.h);
 * prints "NAME TYPE M N K GFLOPS" or "NAME TYPE M N K FAILED".
 *
 * -D: BT (0 f32, 1 s8s8s32, 2 u8s8s32, 3 bf16 -> f32), GM, GN, GK, NAME
 * (the row's name, a string), REPS (timed runs at least; the best counts),
 * RTSIZE=1: the same GEMM with its sizes read from volatiles at run time
 * (docs/ops.md, "Run-time sizes"; not for u8s8s32, whose zero accumulator
 * is a broadcast).
 *
 *  f32:     tensor_matmul(float, float) -> float
 *  s8s8s32: tensor_matmul(int8_t, int8_t) -> int32_t (matmul widens
 *           integers as signed: smma with a zero accumulator)
 *  u8s8s32: tensor_usmma(0, uint8_t, int8_t) -> int32_t (a matmul would read
 *           the u8 operand as signed); the zero accumulator is a broadcast
 *           of one zero, read through stride-0 views, never materialized
 *  bf16:    tensor_matmul(__bf16, __bf16) -> float
 */
#define _POSIX_C_SOURCE 200809L
#include <tlx.h>

#include "bench_common.h"

#ifndef REPS
#define REPS 5
#endif
#ifndef NAME
#define NAME "tlx"
#endif

#if BT == 0
typedef float a_elem, b_elem, c_elem;
#elif BT == 1
typedef int8_t a_elem, b_elem;
typedef int32_t c_elem;
#elif BT == 2
typedef uint8_t a_elem;
typedef int8_t b_elem;
typedef int32_t c_elem;
#else
typedef __bf16 a_elem, b_elem;
typedef float c_elem;
#endif

typedef c_elem c_t __attribute__((__vector_size__(GM * GN * sizeof(c_elem))));
TLX_DECLARE_TENSOR_OPS(c_t)

#define ROW_MAJOR TLX_LAYOUT(0, 1)

#if RTSIZE
/* The sizes as a program reading them from its input has them. */
static volatile int size_m = GM, size_n = GN, size_k = GK;
typedef c_elem rt_t __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS_AS(rt_t, rt)

static void gemm(const a_elem *restrict a, const b_elem *restrict b,
                 c_elem *restrict c) {
  int m = size_m, n = size_n, k = size_k;
  tlx_token_t ta =
      tensor_load(a, TLX_SHAPE(m, k), ROW_MAJOR, TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb =
      tensor_load(b, TLX_SHAPE(k, n), ROW_MAJOR, TLX_ZEROS(2), TLX_ZEROS(2));
  rt_t r = tensor_matmul_rt(ta, tb);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(m, n), ROW_MAJOR, TLX_ZEROS(2)),
               TLX_ZEROS(2));
}
#else
static void gemm(const a_elem *restrict a, const b_elem *restrict b,
                 c_elem *restrict c) {
  tlx_token_t ta =
      tensor_load(a, TLX_SHAPE(GM, GK), ROW_MAJOR, TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb =
      tensor_load(b, TLX_SHAPE(GK, GN), ROW_MAJOR, TLX_ZEROS(2), TLX_ZEROS(2));
#if BT == 2
  static const int32_t zero[1] = {0};
  tlx_token_t tz = tensor_load(zero, TLX_SHAPE(1, 1), ROW_MAJOR, TLX_ZEROS(2),
                               TLX_ZEROS(2));
  c_t z = tensor_broadcast(tz);
  c_t r = tensor_usmma(
      tensor_typeinfo(z, TLX_SHAPE(GM, GN), ROW_MAJOR, TLX_ZEROS(2)), ta, tb);
#else
  c_t r = tensor_matmul(ta, tb);
#endif
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(GM, GN), ROW_MAJOR, TLX_ZEROS(2)),
               TLX_ZEROS(2));
}
#endif

int main(void) {
  bench_matrices mats;
  bench_alloc(&mats, BT, GM, GN, GK);
  gemm(mats.a, mats.b, mats.c);
  if (bench_check(&mats, BT, GM, GN, GK)) {
    printf("%s %s %d %d %d FAILED\n", NAME, bench_type_name(BT), GM, GN, GK);
    return 1;
  }
  double best = 1e30;
  int reps = bench_reps(GM, GN, GK, REPS);
  for (int r = 0; r < reps; ++r) {
    double t0 = bench_now();
    gemm(mats.a, mats.b, mats.c);
    double t = bench_now() - t0;
    best = t < best ? t : best;
  }
  printf("%s %s %d %d %d %.1f\n", NAME, bench_type_name(BT), GM, GN, GK,
         2.0 * GM * GN * (double)GK / best * 1e-9);
  bench_free(&mats);
  return 0;
}
