// A 2-D transpose of a tensor in memory that only feeds matmul / mma
// operands gets no buffer: the GEMM reads the memory through swapped
// strides, so packing does the transpose (tlx-bufferize tryViewIntoGemm).
// The research prototype's tensor_transpose(t), the permuting form, an
// int8 mma on vector and AMX (emulated) code, and a write to the input
// between the transpose and the matmul (then the transpose is a copy, and
// the matmul must see the old values). Checked against plain C loops.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te && %te | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -Rpass=tlx-bufferize -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// CHECK: x^T w: ok
// CHECK: x w^T (permuted): ok
// CHECK: int8 x^T w: ok
// CHECK: written in between: ok
// CHECK-NOT: bad
// REMARK-COUNT-3: transpose: no buffer, the GEMM reads its operand through swapped strides
// REMARK-NOT: transpose: no buffer
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

#define RM TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))

typedef float v20x30 __attribute__((ext_vector_type(20 * 30)));
typedef float v20x9 __attribute__((ext_vector_type(20 * 9)));
typedef float v9x30 __attribute__((ext_vector_type(9 * 30)));
typedef int32_t vi __attribute__((ext_vector_type(20 * 30)));
typedef int8_t vi8 __attribute__((ext_vector_type(20 * 64)));
TLX_DECLARE_TENSOR_OPS_AS(v20x30, r)
TLX_DECLARE_TENSOR_OPS_AS(v20x9, a)
TLX_DECLARE_TENSOR_OPS_AS(v9x30, b)
TLX_DECLARE_TENSOR_OPS_AS(vi, i)
TLX_DECLARE_TENSOR_OPS_AS(vi8, i8)

static float x[9 * 20], xr[20 * 9], w[9 * 30], wt[30 * 9], y[20 * 30];
static int8_t xi[64 * 20], wi[64 * 30];
static int32_t yi[20 * 30];

static void report(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
}

/* x is stored 9x20; y = x^T w. */
static void xt_w(void) {
  v20x9 xt = tensor_transpose_a(LOAD2(x, 9, 20));
  v20x30 r = tensor_matmul_r(
      tensor_typeinfo(xt, TLX_SHAPE(20, 9), RM, TLX_ZEROS(2)), LOAD2(w, 9, 30));
  tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(20, 30), RM, TLX_ZEROS(2)),
               TLX_ZEROS(2));
  int bad = 0;
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 30; j++) {
      float s = 0;
      for (int k = 0; k < 9; k++)
        s += x[k * 20 + i] * w[k * 30 + j];
      bad |= s != y[i * 30 + j];
    }
  report("x^T w", bad);
}

/* wt is stored 30x9 (row-major W^T); the permuting transpose names the
   same logical 30x9 tensor column-major, and the prototype transpose of
   that is the 9x30 W. */
static void x_wt(void) {
  v9x30 p = tensor_transpose_b(LOAD2(wt, 30, 9), TLX_LAYOUT(1, 0));
  v9x30 wv = tensor_transpose_b(
      tensor_typeinfo(p, TLX_SHAPE(9, 30), TLX_LAYOUT(1, 0), TLX_ZEROS(2)));
  v20x30 r = tensor_matmul_r(
      LOAD2(xr, 20, 9), tensor_typeinfo(wv, TLX_SHAPE(9, 30), RM, TLX_ZEROS(2)));
  tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(20, 30), RM, TLX_ZEROS(2)),
               TLX_ZEROS(2));
  int bad = 0;
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 30; j++) {
      float s = 0;
      for (int k = 0; k < 9; k++)
        s += xr[i * 9 + k] * wt[j * 9 + k];
      bad |= s != y[i * 30 + j];
    }
  report("x w^T (permuted)", bad);
}

/* xi is stored 64x20; yi = xi^T wi in s8 x s8 -> s32. */
static void int8_xt_w(void) {
  vi8 xt = tensor_transpose_i8(LOAD2(xi, 64, 20));
  vi zero = tensor_broadcast_i(LOAD2(yi, 20, 30), 0);
  vi r = tensor_smma_i(
      tensor_typeinfo(zero, TLX_SHAPE(20, 30), RM, TLX_ZEROS(2)),
      tensor_typeinfo(xt, TLX_SHAPE(20, 64), RM, TLX_ZEROS(2)),
      LOAD2(wi, 64, 30));
  tensor_store(yi, tensor_typeinfo(r, TLX_SHAPE(20, 30), RM, TLX_ZEROS(2)),
               TLX_ZEROS(2));
  int bad = 0;
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 30; j++) {
      int32_t s = 0;
      for (int k = 0; k < 64; k++)
        s += xi[k * 20 + i] * wi[k * 30 + j];
      bad |= s != yi[i * 30 + j];
    }
  report("int8 x^T w", bad);
}

/* The input changes between the transpose and the matmul. */
static void written_in_between(void) {
  float old[9 * 20];
  for (int i = 0; i < 9 * 20; i++)
    old[i] = x[i];
  v20x9 xt = tensor_transpose_a(LOAD2(x, 9, 20));
  x[0] += 100;
  v20x30 r = tensor_matmul_r(
      tensor_typeinfo(xt, TLX_SHAPE(20, 9), RM, TLX_ZEROS(2)), LOAD2(w, 9, 30));
  tensor_store(y, tensor_typeinfo(r, TLX_SHAPE(20, 30), RM, TLX_ZEROS(2)),
               TLX_ZEROS(2));
  int bad = 0;
  for (int i = 0; i < 20; i++)
    for (int j = 0; j < 30; j++) {
      float s = 0;
      for (int k = 0; k < 9; k++)
        s += old[k * 20 + i] * w[k * 30 + j];
      bad |= s != y[i * 30 + j];
    }
  x[0] -= 100;
  report("written in between", bad);
}

int main(void) {
  for (int i = 0; i < 9 * 20; i++)
    x[i] = (float)(i % 7 - 3);
  for (int i = 0; i < 9 * 30; i++)
    w[i] = (float)(i % 5 - 2);
  for (int i = 0; i < 20 * 9; i++)
    xr[i] = (float)(i % 11 - 5);
  for (int j = 0; j < 30; j++)
    for (int k = 0; k < 9; k++)
      wt[j * 9 + k] = w[k * 30 + j];
  for (int i = 0; i < 64 * 20; i++)
    xi[i] = (int8_t)((i * 37) % 255 - 127);
  for (int i = 0; i < 64 * 30; i++)
    wi[i] = (int8_t)((i * 53) % 251 - 125);
  xt_w();
  x_wt();
  int8_xt_w();
  written_in_between();
  return 0;
}
