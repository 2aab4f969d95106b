// Elementwise consumers of a matmul are fused into the GEMM (tlx-tile step
// 4): the chain is applied to C in registers as the last K block writes it.
// Checked against plain C loops, fused and unfused (fuse-epilogues=off), at
// -O0 and -O2, for: scale + broadcast bias + relu (f32, sizes with tails and
// K over one cache block), an int32 matmul with bias and relu, tanh, a
// column-major destination, an int8 smma whose accumulator is a broadcast
// bias (restrict pointers: no run-time check), a destination that
// overlaps an operand (the
// run-time check takes the temporary), and `y = relu(xw + y)` (the chain
// reads the destination). Inputs are small integers: every sum is exact.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fplugin-arg-tlx-fuse-epilogues=off %s %tlx_rt -o %tu && %tu | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fsanitize=address %s %tlx_rt -o %ta && %ta | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang_tlx -std=c11 -w -O2 -Rpass=tlx-tile -fplugin-arg-tlx-fuse-epilogues=off -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// CHECK: dense 37x29x53: ok
// CHECK: dense 64x600x80: ok
// CHECK: int bias relu: ok
// CHECK: tanh: ok
// CHECK: column-major: ok
// CHECK: overlapping destination: ok
// CHECK: reads destination: ok
// CHECK: int8 mma bias relu: ok
// CHECK: t * t + t: ok
// CHECK-NOT: bad
// REMARK-DAG: fused epilogue (fmul, fadd, relu) applied to C in registers
// REMARK-DAG: fused epilogue (add, relu)
// REMARK-DAG: fused epilogue (tanh)
// REMARK-DAG: fused epilogue (fmul, fadd)
// REMARK-DAG: smma: fused epilogue (relu) applied to C in registers as the GEMM writes it; no temporary [
// REMARK-DAG: fused epilogue (fadd, relu) applied to C in registers as the GEMM writes it; no temporary unless the destination overlaps an operand (checked at run time)
// OFF-NOT: fused epilogue
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
  return 0;
}
