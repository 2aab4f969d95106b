// Elementwise consumers of a matmul are fused into the GEMM (tlx-tile step
// 4): the chain is applied to C in registers as the last K block writes it.
// Checked against plain C loops, fused and unfused (fuse-epilogues=off), at
// -O0 and -O2, for: scale + broadcast bias + relu (f32, sizes with tails and
// K over one cache block), an int32 matmul with bias and relu, tanh, a
// column-major destination, an int8 smma whose accumulator is a broadcast
// bias (restrict pointers: no run-time check), a destination that
// overlaps an operand (the
// run-time check takes the temporary), `y = relu(xw + y)` (the chain
// reads the destination), and chains ending in a narrower type (the GEMM
// writes the destination through GemmDesc::Out; partial sums stay in the
// accumulator type): s8 requantization (i32 -> i8), f32 -> bf16, and a bf16
// matmul rounded to bf16, relu'd and stored as bf16 - each with K over one
// cache block. Inputs are small integers: every sum is exact.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -Rpass=tlx-tile %s %tlx_rt -o %t2 2> %t2.remarks && %t2 | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t2.remarks
// RUN: %clang_tlx -std=c11 -w -O2 -Rpass=tlx-tile -fplugin-arg-tlx-fuse-epilogues=off %s %tlx_rt -o %tu 2> %tu.remarks && %tu | FileCheck %s
// RUN: FileCheck %s --check-prefix=OFF < %tu.remarks
// RUN: %clang_tlx -std=c11 -w -O2 -fsanitize=address %s %tlx_rt -o %ta && %ta | FileCheck %s
// AMX kernels apply the chain to each C block right after tilestored:
// RUN: %clang_tlx -std=c11 -w -O0 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te0 && %te0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fplugin-arg-tlx-target=amx-emulate -fsanitize=address -Rpass=tlx-tile %s %tlx_rt -o %te2 2> %te2.remarks && %te2 | FileCheck %s
// RUN: FileCheck %s --check-prefix=AMX < %te2.remarks
// CHECK: dense 37x29x53: ok
// CHECK: dense 64x600x80: ok
// CHECK: int bias relu: ok
// CHECK: tanh: ok
// CHECK: column-major: ok
// CHECK: overlapping destination: ok
// CHECK: reads destination: ok
// CHECK: int8 mma bias relu: ok
// CHECK: t * t + t: ok
// CHECK: requantize s8: ok
// CHECK: f32 -> bf16: ok
// CHECK: bf16 relu: ok
// CHECK-NOT: bad
// REMARK-DAG: fused epilogue (fmul, fadd, relu) applied to C in registers
// REMARK-DAG: fused epilogue (add, relu)
// REMARK-DAG: fused epilogue (tanh)
// REMARK-DAG: fused epilogue (fmul, fadd)
// REMARK-DAG: smma: fused epilogue (relu) applied to C in registers as the GEMM writes it; no temporary [
// REMARK-DAG: fused epilogue (fadd, relu) applied to C in registers as the GEMM writes it; no temporary unless the destination overlaps an operand (checked at run time)
// REMARK-DAG: smma: fused epilogue (relu, ashr, trunc) applied to C in registers as the GEMM writes it; only partial sums between K blocks go to an i32 temporary
// REMARK-DAG: matmul: fused epilogue (relu, fptrunc) applied to C in registers as the GEMM writes it; only partial sums between K blocks go to an f32 temporary
// REMARK-DAG: matmul: fused epilogue (relu) applied to C in registers as the GEMM writes it; only partial sums between K blocks go to an f32 temporary
// OFF-NOT: fused epilogue
// AMX-DAG: smma: fused epilogue (relu) applied to each C block as the AMX kernel stores it (read back from L1); no temporary
// AMX-DAG: smma: fused epilogue (relu, ashr, trunc) applied to each C block as the AMX kernel stores it (read back from L1); the sums pass block by block through an i32 temporary
// AMX-DAG: matmul: fused epilogue (relu) applied to each C block as the AMX kernel stores it (read back from L1); the sums pass block by block through an f32 temporary
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlx.h>

#define ROW_MAJOR TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), ROW_MAJOR, TLX_ZEROS(2), TLX_ZEROS(2))

static void fill(float *p, int n, int seed) {
  for (int i = 0; i < n; i++)
    p[i] = (float)((i * 7 + seed * 13) % 9 - 4);
}

static void reference(const float *x, const float *w, int m, int k, int n,
                      float *xw) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += x[i * k + p] * w[p * n + j];
      xw[i * n + j] = s;
    }
}

static void report(const char *what, const float *got, const float *want,
                   int count, float tol) {
  for (int i = 0; i < count; i++)
    if (!(fabsf(got[i] - want[i]) <= tol)) {
      printf("%s: bad at %d: got %g expected %g\n", what, i, got[i], want[i]);
      return;
    }
  printf("%s: ok\n", what);
}

#define DENSE(M, K, N)                                                         \
  typedef float v##M##x##N __attribute__((ext_vector_type(M * N)));            \
  TLX_DECLARE_TENSOR_OPS_AS(v##M##x##N, d##M##x##N)                            \
  static void dense##M##x##K##x##N(const float *x, const float *w,             \
                                   const float *b, float alpha, float *y) {    \
    tlx_token_t tb = tensor_load(b, TLX_SHAPE(N), TLX_LAYOUT(0), TLX_ZEROS(1), \
                                 TLX_ZEROS(1));                                \
    v##M##x##N xw = tensor_matmul_d##M##x##N(LOAD2(x, M, K), LOAD2(w, K, N));  \
    tensor_typeinfo(xw, TLX_SHAPE(M, N), ROW_MAJOR, TLX_ZEROS(2));             \
    v##M##x##N bb = tensor_broadcast_d##M##x##N(tb);                           \
    tensor_typeinfo(bb, TLX_SHAPE(M, N), ROW_MAJOR, TLX_ZEROS(2));             \
    v##M##x##N z = xw * alpha + bb;                                            \
    v##M##x##N r = tensor_relu_d##M##x##N(                                     \
        tensor_typeinfo(z, TLX_SHAPE(M, N), ROW_MAJOR, TLX_ZEROS(2)));         \
    tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(M, N), ROW_MAJOR,             \
                                    TLX_ZEROS(2)),                             \
                 TLX_ZEROS(2));                                                \
  }                                                                            \
  static void check##M##x##K##x##N(void) {                                     \
    float *x = malloc(sizeof(float) * M * K), *w = malloc(sizeof(float) * K * N); \
    float b[N], *y = malloc(sizeof(float) * M * N);                            \
    float *want = malloc(sizeof(float) * M * N);                               \
    fill(x, M * K, 1);                                                         \
    fill(w, K * N, 2);                                                         \
    fill(b, N, 3);                                                             \
    reference(x, w, M, K, N, want);                                            \
    for (int i = 0; i < M * N; i++) {                                          \
      float z = want[i] * 0.5f + b[i % N];                                     \
      want[i] = z > 0 ? z : 0;                                                 \
    }                                                                          \
    dense##M##x##K##x##N(x, w, b, 0.5f, y);                                    \
    report("dense " #M "x" #K "x" #N, y, want, M * N, 0);                      \
    free(x), free(w), free(y), free(want);                                     \
  }

DENSE(37, 29, 53)
DENSE(64, 600, 80)

typedef int32_t vi __attribute__((ext_vector_type(24 * 40)));
TLX_DECLARE_TENSOR_OPS_AS(vi, vi)

static void int_bias_relu(void) {
  static int32_t x[24 * 50], w[50 * 40], b[24 * 40], y[24 * 40];
  static float got[24 * 40], want[24 * 40];
  for (int i = 0; i < 24 * 50; i++)
    x[i] = (i * 5) % 11 - 5;
  for (int i = 0; i < 50 * 40; i++)
    w[i] = (i * 3) % 7 - 3;
  for (int i = 0; i < 24 * 40; i++)
    b[i] = (i % 13) - 6;
  vi xw = tensor_matmul_vi(LOAD2(x, 24, 50), LOAD2(w, 50, 40));
  tensor_typeinfo(xw, TLX_SHAPE(24, 40), ROW_MAJOR, TLX_ZEROS(2));
  vi bias = tensor_tovector_vi(LOAD2(b, 24, 40));
  vi z = xw + bias;
  vi r = tensor_relu_vi(tensor_typeinfo(z, TLX_SHAPE(24, 40), ROW_MAJOR,
                                        TLX_ZEROS(2)));
  tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(24, 40), ROW_MAJOR, TLX_ZEROS(2)),
               TLX_ZEROS(2));
  for (int i = 0; i < 24; i++)
    for (int j = 0; j < 40; j++) {
      int32_t s = b[i * 40 + j];
      for (int p = 0; p < 50; p++)
        s += x[i * 50 + p] * w[p * 40 + j];
      want[i * 40 + j] = (float)(s > 0 ? s : 0);
      got[i * 40 + j] = (float)y[i * 40 + j];
    }
  report("int bias relu", got, want, 24 * 40, 0);
}

typedef float v20x30 __attribute__((ext_vector_type(20 * 30)));
TLX_DECLARE_TENSOR_OPS_AS(v20x30, f)

static void tanh_epilogue(void) {
  static float x[20 * 9], w[9 * 30], y[20 * 30], want[20 * 30];
  fill(x, 20 * 9, 4);
  fill(w, 9 * 30, 5);
  v20x30 xw = tensor_matmul_f(LOAD2(x, 20, 9), LOAD2(w, 9, 30));
  v20x30 t = tensor_tanh_f(
      tensor_typeinfo(xw, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2)));
  tensor_store(y, tensor_typeinfo(t, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2)),
               TLX_ZEROS(2));
  reference(x, w, 20, 9, 30, want);
  for (int i = 0; i < 20 * 30; i++)
    want[i] = tanhf(want[i]);
  report("tanh", y, want, 20 * 30, 2e-6f);
}

/* y = relu(x w) written column-major: C's rows are not contiguous. */
static void column_major(void) {
  static float x[20 * 9], w[9 * 30], y[20 * 30], want[20 * 30];
  fill(x, 20 * 9, 6);
  fill(w, 9 * 30, 7);
  v20x30 xw = tensor_matmul_f(LOAD2(x, 20, 9), LOAD2(w, 9, 30));
  tensor_typeinfo(xw, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2));
  v20x30 r = tensor_relu_f(
      tensor_typeinfo(xw, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2)));
  tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(30, 20), TLX_LAYOUT(1, 0),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
  reference(x, w, 20, 9, 30, want);
  float got[20 * 30];
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 30; j++) {
      got[i * 30 + j] = y[j * 20 + i];
      want[i * 30 + j] = want[i * 30 + j] > 0 ? want[i * 30 + j] : 0;
    }
  report("column-major", got, want, 20 * 30, 0);
}

/* The destination is the first operand's own memory (a 20x30 block of a
   20x30 x that is also read as 20x9 with leading dimension 30). */
__attribute__((noinline)) static void relu_matmul(const float *x, const float *w,
                                                  float *y) {
  v20x30 xw = tensor_matmul_f(
      tensor_load(x, TLX_SHAPE(20, 9), ROW_MAJOR, TLX_ZEROS(2), TLX_DIMS(0, 30)),
      LOAD2(w, 9, 30));
  v20x30 r = tensor_relu_f(
      tensor_typeinfo(xw, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2)));
  tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

static void overlapping_destination(void) {
  static float x[20 * 30], x0[20 * 30], w[9 * 30], want[20 * 30];
  fill(x, 20 * 30, 8);
  fill(w, 9 * 30, 9);
  for (int i = 0; i < 20 * 30; i++)
    x0[i] = x[i];
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 30; j++) {
      float s = 0;
      for (int p = 0; p < 9; p++)
        s += x0[i * 30 + p] * w[p * 30 + j];
      want[i * 30 + j] = s > 0 ? s : 0;
    }
  relu_matmul(x, w, x);
  report("overlapping destination", x, want, 20 * 30, 0);
}

/* y = relu(x w + y): the chain reads the destination. */
__attribute__((noinline)) static void accumulate_relu(const float *x,
                                                      const float *w, float *y) {
  v20x30 xw = tensor_matmul_f(LOAD2(x, 20, 9), LOAD2(w, 9, 30));
  tensor_typeinfo(xw, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2));
  v20x30 old = tensor_tovector_f(LOAD2(y, 20, 30));
  v20x30 s = xw + old;
  v20x30 r = tensor_relu_f(
      tensor_typeinfo(s, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2)));
  tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

static void reads_destination(void) {
  static float x[20 * 9], w[9 * 30], y[20 * 30], want[20 * 30];
  fill(x, 20 * 9, 10);
  fill(w, 9 * 30, 11);
  fill(y, 20 * 30, 12);
  reference(x, w, 20, 9, 30, want);
  for (int i = 0; i < 20 * 30; i++) {
    float s = want[i] + y[i];
    want[i] = s > 0 ? s : 0;
  }
  accumulate_relu(x, w, y);
  report("reads destination", y, want, 20 * 30, 0);
}

/* y = relu(b + x w) on s8 x s8 -> s32: the bias is the mma accumulator. */
typedef int32_t vacc __attribute__((ext_vector_type(13 * 35)));
TLX_DECLARE_TENSOR_OPS_AS(vacc, acc)

__attribute__((noinline)) static void mma_bias_relu(const int8_t *restrict x,
                                                    const int8_t *restrict w,
                                                    const int32_t *restrict b,
                                                    int32_t *restrict y) {
  vacc bias = tensor_broadcast_acc(
      tensor_load(b, TLX_SHAPE(35), TLX_LAYOUT(0), TLX_ZEROS(1), TLX_ZEROS(1)));
  vacc s = tensor_smma_acc(
      tensor_typeinfo(bias, TLX_SHAPE(13, 35), ROW_MAJOR, TLX_ZEROS(2)),
      LOAD2(x, 13, 70), LOAD2(w, 70, 35));
  vacc r = tensor_relu_acc(
      tensor_typeinfo(s, TLX_SHAPE(13, 35), ROW_MAJOR, TLX_ZEROS(2)));
  tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(13, 35), ROW_MAJOR, TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

static void int8_mma(void) {
  static int8_t x[13 * 70], w[70 * 35];
  static int32_t b[35], y[13 * 35];
  static float got[13 * 35], want[13 * 35];
  for (int i = 0; i < 13 * 70; i++)
    x[i] = (int8_t)((i * 37) % 255 - 127);
  for (int i = 0; i < 70 * 35; i++)
    w[i] = (int8_t)((i * 53) % 251 - 125);
  for (int j = 0; j < 35; j++)
    b[j] = (j % 11 - 5) * 1000;
  mma_bias_relu(x, w, b, y);
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 35; j++) {
      int32_t s = b[j];
      for (int p = 0; p < 70; p++)
        s += x[i * 70 + p] * w[p * 35 + j];
      want[i * 35 + j] = (float)(s > 0 ? s : 0);
      got[i * 35 + j] = (float)y[i * 35 + j];
    }
  report("int8 mma bias relu", got, want, 13 * 35, 0);
}

/* y = t * t + t with t = x w: the result is read three times. */
static void square_plus(void) {
  static float x[20 * 9], w[9 * 30], y[20 * 30], want[20 * 30];
  fill(x, 20 * 9, 13);
  fill(w, 9 * 30, 14);
  v20x30 t = tensor_matmul_f(LOAD2(x, 20, 9), LOAD2(w, 9, 30));
  tensor_typeinfo(t, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2));
  v20x30 r = t * t + t;
  tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(20, 30), ROW_MAJOR, TLX_ZEROS(2)),
               TLX_ZEROS(2));
  reference(x, w, 20, 9, 30, want);
  for (int i = 0; i < 20 * 30; i++)
    want[i] = want[i] * want[i] + want[i];
  report("t * t + t", y, want, 20 * 30, 0);
}

/* y = (int8_t)(relu(b + x w) >> 8): s8 x s8 -> s32 requantized to s8. K is
   over any int8 cache block, so partial sums go through the i32 temporary. */
#define RQ_M 19
#define RQ_K 2100
#define RQ_N 45
typedef int32_t vrq __attribute__((ext_vector_type(RQ_M * RQ_N)));
typedef int8_t vrq8 __attribute__((ext_vector_type(RQ_M * RQ_N)));
TLX_DECLARE_TENSOR_OPS_AS(vrq, rq)

__attribute__((noinline)) static void requantize(const int8_t *restrict x,
                                                 const int8_t *restrict w,
                                                 const int32_t *restrict b,
                                                 int8_t *restrict y) {
  vrq bias = tensor_broadcast_rq(tensor_load(b, TLX_SHAPE(RQ_N), TLX_LAYOUT(0),
                                             TLX_ZEROS(1), TLX_ZEROS(1)));
  vrq s = tensor_smma_rq(
      tensor_typeinfo(bias, TLX_SHAPE(RQ_M, RQ_N), ROW_MAJOR, TLX_ZEROS(2)),
      LOAD2(x, RQ_M, RQ_K), LOAD2(w, RQ_K, RQ_N));
  vrq r = tensor_relu_rq(
      tensor_typeinfo(s, TLX_SHAPE(RQ_M, RQ_N), ROW_MAJOR, TLX_ZEROS(2)));
  vrq8 q = __builtin_convertvector(r >> 8, vrq8);
  tensor_store(y, tensor_typeinfo(q, TLX_SHAPE(RQ_M, RQ_N), ROW_MAJOR,
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

static void requantize_check(void) {
  static int8_t x[RQ_M * RQ_K], w[RQ_K * RQ_N], y[RQ_M * RQ_N];
  static int32_t b[RQ_N];
  static float got[RQ_M * RQ_N], want[RQ_M * RQ_N];
  for (int i = 0; i < RQ_M * RQ_K; i++)
    x[i] = (int8_t)((i * 37) % 255 - 127);
  for (int i = 0; i < RQ_K * RQ_N; i++)
    w[i] = (int8_t)((i * 53) % 251 - 125);
  for (int j = 0; j < RQ_N; j++)
    b[j] = (j % 11 - 5) * 3000;
  requantize(x, w, b, y);
  for (int i = 0; i < RQ_M; i++)
    for (int j = 0; j < RQ_N; j++) {
      int32_t s = b[j];
      for (int p = 0; p < RQ_K; p++)
        s += x[i * RQ_K + p] * w[p * RQ_N + j];
      s = s > 0 ? s : 0;
      want[i * RQ_N + j] = (float)(int8_t)(s >> 8);
      got[i * RQ_N + j] = (float)y[i * RQ_N + j];
    }
  report("requantize s8", got, want, RQ_M * RQ_N, 0);
}

/* bf16 results: (__bf16)relu(x w) from f32, and relu of a bf16 x bf16 ->
   bf16 matmul (rounded to bf16 before the relu, as unfused). K = 600 is
   over one f32 cache block. */
typedef float vbf32 __attribute__((ext_vector_type(21 * 37)));
typedef __bf16 vbf16 __attribute__((ext_vector_type(21 * 37)));
TLX_DECLARE_TENSOR_OPS_AS(vbf32, bf32)
TLX_DECLARE_TENSOR_OPS_AS(vbf16, bf16)

static float bf16_round(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  u &= 0xffff0000u;
  memcpy(&f, &u, 4);
  return f;
}

__attribute__((noinline)) static void to_bf16(const float *restrict x,
                                              const float *restrict w,
                                              __bf16 *restrict y) {
  vbf32 t = tensor_matmul_bf32(LOAD2(x, 21, 1500), LOAD2(w, 1500, 37));
  vbf32 r = tensor_relu_bf32(
      tensor_typeinfo(t, TLX_SHAPE(21, 37), ROW_MAJOR, TLX_ZEROS(2)));
  vbf16 h = __builtin_convertvector(r, vbf16);
  tensor_store(y, tensor_typeinfo(h, TLX_SHAPE(21, 37), ROW_MAJOR, TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

__attribute__((noinline)) static void bf16_relu(const __bf16 *restrict x,
                                                const __bf16 *restrict w,
                                                __bf16 *restrict y) {
  vbf16 t = tensor_matmul_bf16(LOAD2(x, 21, 1500), LOAD2(w, 1500, 37));
  vbf16 r = tensor_relu_bf16(
      tensor_typeinfo(t, TLX_SHAPE(21, 37), ROW_MAJOR, TLX_ZEROS(2)));
  tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(21, 37), ROW_MAJOR, TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

static void bf16_checks(void) {
  static float x[21 * 1500], w[1500 * 37], xw[21 * 37], got[21 * 37];
  static float want[21 * 37];
  static __bf16 xb[21 * 1500], wb[1500 * 37], y[21 * 37];
  /* Products of these sum exactly in f32 (|sum| < 2^24). */
  fill(x, 21 * 1500, 15);
  fill(w, 1500 * 37, 16);
  reference(x, w, 21, 1500, 37, xw);
  for (int i = 0; i < 21 * 37; i++)
    want[i] = bf16_round(xw[i] > 0 ? xw[i] : 0);
  to_bf16(x, w, y);
  for (int i = 0; i < 21 * 37; i++)
    got[i] = (float)y[i];
  report("f32 -> bf16", got, want, 21 * 37, 0);
  for (int i = 0; i < 21 * 1500; i++)
    xb[i] = (__bf16)x[i];
  for (int i = 0; i < 1500 * 37; i++)
    wb[i] = (__bf16)w[i];
  bf16_relu(xb, wb, y);
  for (int i = 0; i < 21 * 37; i++)
    got[i] = (float)y[i];
  report("bf16 relu", got, want, 21 * 37, 0);
}

int main(void) {
  check37x29x53();
  check64x600x80();
  int_bias_relu();
  tanh_epilogue();
  column_major();
  overlapping_destination();
  reads_destination();
  int8_mma();
  square_plus();
  requantize_check();
  bf16_checks();
  return 0;
}
