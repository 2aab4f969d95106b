// NaN and signed zeros (docs/decisions.md): relu(x) on floats is
// llvm.maximum(x, +0) with a NaN passed through unchanged; reduce max/min
// fold with llvm.maximum/llvm.minimum, the first NaN of the window (in
// row-major window order) winning unchanged, -0 < +0. The compiled code
// (stored, fused into a consumer, at every -O level, masked or native
// vector width) and the reference oracle agree bit for bit.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O1 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O3 %s %tlx_rt -o %t3 && %t3 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %march_native %s %tlx_rt -o %tn && %tn | FileCheck %s
// CHECK: relu f32: ok
// CHECK: relu f64: ok
// CHECK: relu bf16: ok
// CHECK: max-pool f32: ok
// CHECK: min-pool f32: ok
// CHECK: max-pool f64: ok
// CHECK: relu then max-pool (fused): ok
// CHECK: oracle: ok
// CHECK-NOT: bad

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>
#include <tlxrt.h>

typedef float v8f __attribute__((__vector_size__(8 * sizeof(float))));
typedef float v4f __attribute__((__vector_size__(4 * sizeof(float))));
typedef double v8d __attribute__((__vector_size__(8 * sizeof(double))));
typedef double v4d __attribute__((__vector_size__(4 * sizeof(double))));
typedef __bf16 v8b __attribute__((__vector_size__(8 * sizeof(__bf16))));
TLX_DECLARE_TENSOR_OPS_AS(v8f, f8)
TLX_DECLARE_TENSOR_OPS_AS(v4f, f4)
TLX_DECLARE_TENSOR_OPS_AS(v8d, d8)
TLX_DECLARE_TENSOR_OPS_AS(v4d, d4)
TLX_DECLARE_TENSOR_OPS_AS(v8b, b8)
#define S8 TLX_SHAPE(8), TLX_LAYOUT(0), TLX_ZEROS(1)
#define S4 TLX_SHAPE(4), TLX_LAYOUT(0), TLX_ZEROS(1)

static int failures;
static void expect(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
  failures += bad;
}

static uint32_t bits32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint64_t bits64(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

// A quiet NaN with a payload, and a negative one.
#define QNAN 0x7fc00123u
#define NNAN 0xffc00456u
static float in[8];

__attribute__((noinline)) static void relu_f32(const float *x, float *y) {
  tensor_store(y, tensor_typeinfo(tensor_relu_f8(tensor_load(x, S8, TLX_ZEROS(1))), S8), TLX_ZEROS(1));
}
__attribute__((noinline)) static void relu_f64(const double *x, double *y) {
  tensor_store(y, tensor_typeinfo(tensor_relu_d8(tensor_load(x, S8, TLX_ZEROS(1))), S8), TLX_ZEROS(1));
}
__attribute__((noinline)) static void relu_bf16(const __bf16 *x, __bf16 *y) {
  tensor_store(y, tensor_typeinfo(tensor_relu_b8(tensor_load(x, S8, TLX_ZEROS(1))), S8), TLX_ZEROS(1));
}
__attribute__((noinline)) static void pool_f32(const float *x, float *y,
                                               int max) {
  tlx_token_t t = tensor_load(x, S8, TLX_ZEROS(1));
  v4f r = max ? tensor_reduce_max_f4(t, TLX_DIMS(2), TLX_DIMS(2))
              : tensor_reduce_min_f4(t, TLX_DIMS(2), TLX_DIMS(2));
  tensor_store(y, tensor_typeinfo(r, S4), TLX_ZEROS(1));
}
__attribute__((noinline)) static void pool_f64(const double *x, double *y) {
  tlx_token_t t = tensor_load(x, S8, TLX_ZEROS(1));
  v4d r = tensor_reduce_max_d4(t, TLX_DIMS(2), TLX_DIMS(2));
  tensor_store(y, tensor_typeinfo(r, S4), TLX_ZEROS(1));
}
__attribute__((noinline)) static void relu_pool(const float *x, float *y) {
  v8f r = tensor_relu_f8(tensor_load(x, S8, TLX_ZEROS(1)));
  v4f m = tensor_reduce_max_f4(tensor_typeinfo(r, S8), TLX_DIMS(2), TLX_DIMS(2));
  tensor_store(y, tensor_typeinfo(m, S4), TLX_ZEROS(1));
}

int main(void) {
  const uint32_t pattern[8] = {QNAN, 0x3f800000u /*1*/, 0x80000000u /*-0*/,
                               0x40000000u /*2*/, 0x40400000u /*3*/, NNAN,
                               0x80000000u /*-0*/, 0u /*+0*/};
  for (int i = 0; i < 8; ++i)
    in[i] = f32(pattern[i]);
  float y[8];
  int bad = 0;

  // relu: NaNs unchanged, -0 -> +0.
  const uint32_t relu_want[8] = {QNAN, 0x3f800000u, 0, 0x40000000u,
                                 0x40400000u, NNAN, 0, 0};
  relu_f32(in, y);
  for (int i = 0; i < 8; ++i)
    bad += bits32(y[i]) != relu_want[i];
  expect("relu f32", bad);

  double din[8], dy[8];
  for (int i = 0; i < 8; ++i)
    din[i] = in[i]; // NaN payloads widen, signs kept
  relu_f64(din, dy);
  bad = 0;
  for (int i = 0; i < 8; ++i) {
    uint64_t want = din[i] != din[i] ? bits64(din[i]) : bits64(din[i] > 0 ? din[i] : 0.0);
    bad += bits64(dy[i]) != want;
  }
  expect("relu f64", bad);

  __bf16 bin[8], by[8];
  for (int i = 0; i < 8; ++i) {
    uint16_t h = (uint16_t)(pattern[i] >> 16); // exact: low bits are zero
    memcpy(&bin[i], &h, 2);
  }
  relu_bf16(bin, by);
  bad = 0;
  for (int i = 0; i < 8; ++i) {
    uint16_t g, want = (uint16_t)(relu_want[i] >> 16);
    memcpy(&g, &by[i], 2);
    bad += g != want;
  }
  expect("relu bf16", bad);

  // Windows {NaN, 1} {-0, 2} {3, -NaN} {-0, +0}.
  float p[4];
  const uint32_t max_want[4] = {QNAN, 0x40000000u, NNAN, 0};
  const uint32_t min_want[4] = {QNAN, 0x80000000u, NNAN, 0x80000000u};
  pool_f32(in, p, 1);
  bad = 0;
  for (int i = 0; i < 4; ++i)
    bad += bits32(p[i]) != max_want[i];
  expect("max-pool f32", bad);
  pool_f32(in, p, 0);
  bad = 0;
  for (int i = 0; i < 4; ++i)
    bad += bits32(p[i]) != min_want[i];
  expect("min-pool f32", bad);

  double dp[4];
  pool_f64(din, dp);
  bad = 0;
  for (int i = 0; i < 4; ++i) {
    double w = (double)f32(max_want[i]);
    bad += bits64(dp[i]) != bits64(w);
  }
  expect("max-pool f64", bad);

  // relu first: windows {NaN, 1} {+0, 2} {3, -NaN} {+0, +0}.
  relu_pool(in, p);
  const uint32_t fused_want[4] = {QNAN, 0x40000000u, NNAN, 0};
  bad = 0;
  for (int i = 0; i < 4; ++i)
    bad += bits32(p[i]) != fused_want[i];
  expect("relu then max-pool (fused)", bad);

  // The oracle agrees bit for bit.
  float oy[8], op[4];
  int64_t s8 = 8, s4 = 4, win = 2, st = 2;
  tlx_tensor ti, to, tp;
  tlx_tensor_init(&ti, in, TLX_F32, 1, &s8, NULL, NULL, NULL);
  tlx_tensor_init(&to, oy, TLX_F32, 1, &s8, NULL, NULL, NULL);
  tlx_tensor_init(&tp, op, TLX_F32, 1, &s4, NULL, NULL, NULL);
  bad = tlx_ref_unary(TLX_RELU, &ti, &to) != 0;
  for (int i = 0; i < 8; ++i)
    bad += bits32(oy[i]) != relu_want[i];
  bad += tlx_ref_reduce(TLX_REDUCE_MAX, &ti, &win, &st, &tp) != 0;
  for (int i = 0; i < 4; ++i)
    bad += bits32(op[i]) != max_want[i];
  bad += tlx_ref_reduce(TLX_REDUCE_MIN, &ti, &win, &st, &tp) != 0;
  for (int i = 0; i < 4; ++i)
    bad += bits32(op[i]) != min_want[i];
  expect("oracle", bad);
  return failures != 0;
}
