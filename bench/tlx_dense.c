/* tlx_dense.c - the dense layer y = relu(alpha * (x W) + b) written the way
 * a C programmer writes it with tlx.h: the scale and the bias add are C
 * vector operators on tensor values (f32), or the bias starts the s32
 * accumulator of an smma (int8: s8 x s8 -> s32, then relu). bench/run
 * builds it with tlx-cc -O2 -march=native, once as is (the epilogue fused
 * into the GEMM) and once with -fplugin-arg-tlx-fuse-epilogues=off.
 * -D: BATCH, IN, OUT (x is BATCH x IN, W is IN x OUT), INT8, NAME (the
 * row's name). The pointers are plain (not restrict) for f32: TLX checks
 * at run time that y overlaps none of x, W, b. */
#define _POSIX_C_SOURCE 200809L
#include <tlx.h>

#include "bench_common.h"

#ifndef BATCH
#define BATCH 256
#endif
#ifndef IN
#define IN 512
#endif
#ifndef OUT
#define OUT 512
#endif
#ifndef NAME
#define NAME "tlx-dense"
#endif

#define ROW_MAJOR TLX_LAYOUT(0, 1)
#define ACT TLX_SHAPE(BATCH, OUT), ROW_MAJOR, TLX_ZEROS(2)

#if INT8
typedef int32_t act_t
    __attribute__((__vector_size__(BATCH * OUT * sizeof(int32_t))));
#define BT 1
typedef int32_t bias_t;
#else
typedef float act_t
    __attribute__((__vector_size__(BATCH * OUT * sizeof(float))));
#define BT 0
typedef float bias_t;
#endif
TLX_DECLARE_TENSOR_OPS(act_t)

#if INT8
static void dense(const int8_t *restrict x, const int8_t *restrict w,
                  const int32_t *restrict bias, int32_t *restrict y) {
  tlx_token_t tb = tensor_load(bias, TLX_SHAPE(OUT), TLX_LAYOUT(0),
                               TLX_ZEROS(1), TLX_ZEROS(1));
  act_t b = tensor_broadcast(tb);
  act_t acc = tensor_smma(tensor_typeinfo(b, ACT),
                          tensor_load(x, TLX_SHAPE(BATCH, IN), ROW_MAJOR,
                                      TLX_ZEROS(2), TLX_ZEROS(2)),
                          tensor_load(w, TLX_SHAPE(IN, OUT), ROW_MAJOR,
                                      TLX_ZEROS(2), TLX_ZEROS(2)));
  act_t r = tensor_relu(tensor_typeinfo(acc, ACT));
  tensor_store(y, tensor_typeinfo(r, ACT), TLX_ZEROS(2));
}
#else
static void dense(const float *x, const float *w, const float *bias,
                  float alpha, float *y) {
  tlx_token_t tx = tensor_load(x, TLX_SHAPE(BATCH, IN), ROW_MAJOR,
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tw = tensor_load(w, TLX_SHAPE(IN, OUT), ROW_MAJOR, TLX_ZEROS(2),
                               TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(bias, TLX_SHAPE(OUT), TLX_LAYOUT(0),
                               TLX_ZEROS(1), TLX_ZEROS(1));
  act_t xw = tensor_matmul(tx, tw);
  tensor_typeinfo(xw, ACT);
  act_t b = tensor_broadcast(tb);
  tensor_typeinfo(b, ACT);
  act_t z = xw * alpha + b;
  act_t r = tensor_relu(tensor_typeinfo(z, ACT));
  tensor_store(y, tensor_typeinfo(r, ACT), TLX_ZEROS(2));
}
#endif

int main(void) {
  bench_matrices mats;
  bench_alloc(&mats, BT, BATCH, OUT, IN);
  static bias_t bias[OUT];
  for (int j = 0; j < OUT; j++)
    bias[j] = (bias_t)bench_dense_bias(j);
#if INT8
#define RUN() dense(mats.a, mats.b, bias, mats.c)
#else
#define RUN() dense(mats.a, mats.b, bias, 0.5f, mats.c)
#endif
  RUN();
  if (bench_check_dense(&mats, BT, BATCH, OUT, IN)) {
    printf("%s %s %d %d %d FAILED\n", NAME, bench_type_name(BT), BATCH, OUT,
           IN);
    return 1;
  }
  double best = 1e30;
  int reps = bench_reps(BATCH, OUT, IN, 5);
  for (int r = 0; r < reps; ++r) {
    double t0 = bench_now();
    RUN();
    double t = bench_now() - t0;
    best = t < best ? t : best;
  }
  printf("%s %s %d %d %d %.1f\n", NAME, bench_type_name(BT), BATCH, OUT, IN,
         2.0 * BATCH * OUT * (double)IN / best * 1e-9);
  bench_free(&mats);
  return 0;
}
