// GEMMs of constant extents calling the module's shared GEMM kernels
// (-fplugin-arg-tlx-share-kernels, docs/pipeline.md "Shared kernels"):
// with `always`, every matmul/mma below the same kind calls one kernel
// (f32 row-major with and without relu, int8 with an accumulator from
// another tensor or in place, column-major A, rows with a leading
// dimension, bf16 -> f32, a static matmul next to a run-time-sized one of
// the same kind), with `auto` the big one (M*N*K >= 256^3 and M >= 512)
// and the layers of a network (three of one kind, any M: 64, 64 and 32,
// N and K >= 64) but not a relu layer alone of its kind next to them,
// with `never` none. Every element against a plain C loop; -O0 keeps its
// per-call-site kernels (outlined and optimized).
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 -fplugin-arg-tlx-share-kernels=always -Rpass=tlx-tile %s %tlx_rt -o %ta 2>&1 | FileCheck %s --check-prefix=ALWAYS
// RUN: %ta | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 -Rpass=tlx-tile %s %tlx_rt -o %tu 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: %tu | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-share-kernels=never -Rpass=tlx-tile %s %tlx_rt -o %tn 2>&1 | FileCheck %s --check-prefix=NEVER
// RUN: %tn | FileCheck %s
// RUN: %clang_tlx -std=c11 -O0 -fplugin-arg-tlx-share-kernels=always -Rpass=tlx-tile %s %tlx_rt -o %t0 2>&1 | FileCheck %s --check-prefix=NEVER
// RUN: %t0 | FileCheck %s
// RUN: not %clang_tlx -fsyntax-only -fplugin-arg-tlx-share-kernels=sometimes %s 2>&1 | FileCheck %s --check-prefix=BADARG
// ALWAYS: remark: matmul: 3x7x5 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r, the module's shared GEMM kernel of its kind (share-kernels)
// ALWAYS: remark: matmul: 17x33x40 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r, the module's
// ALWAYS: remark: matmul: 20x9x11 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r.relu, the module's
// ALWAYS: remark: smma: 19x70x21 (MxKxN) calls tlx.gemm.rt.i8sr.i8sr.i32r.acc, the module's
// ALWAYS: remark: smma: 19x70x21 (MxKxN) calls tlx.gemm.rt.i8sr.i8sr.i32r.acc, the module's
// ALWAYS: remark: matmul: 13x11x6 (MxKxN) calls tlx.gemm.rt.f32sc.f32sr.f32r, the module's
// ALWAYS: remark: matmul: 9x10x7 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r, the module's
// ALWAYS: remark: matmul: 30x40x50 (MxKxN) calls tlx.gemm.rt.bf16sr.bf16sr.f32r, the module's
// ALWAYS: remark: matmul: 512x300x260 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r.relu, the module's
// ALWAYS: remark: matmul: 64x80x96 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r, the module's
// ALWAYS: remark: matmul: 64x96x72 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r, the module's
// ALWAYS: remark: matmul: 32x80x96 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r, the module's
// ALWAYS: remark: matmul: 64x80x96 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r.relu, the module's
// AUTO-NOT: 3x7x5 (MxKxN) calls
// AUTO: remark: matmul: 512x300x260 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r.relu, the module's
// AUTO: remark: matmul: 64x80x96 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r, the module's
// AUTO: remark: matmul: 64x96x72 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r, the module's
// AUTO: remark: matmul: 32x80x96 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r, the module's
// AUTO-NOT: 64x80x96 (MxKxN) calls tlx.gemm.rt.f32sr.f32sr.f32r.relu
// NEVER-NOT: calls tlx.gemm.rt.f32sr.f32sr.f32r,
// NEVER-NOT: (MxKxN) calls
// BADARG: invalid TLX plugin argument 'share-kernels=sometimes': expected 'auto', 'always' or 'never'
// CHECK: f32: ok
// CHECK: relu: ok
// CHECK: int8: ok
// CHECK: layouts: ok
// CHECK: bf16: ok
// CHECK: big: ok
// CHECK: batch: ok
// CHECK: PASSED
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

typedef float f30x50 __attribute__((__vector_size__(30 * 50 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(f30x50, f30x50)

static int failures;

static void fill(float *p, int n, int seed) {
  for (int i = 0; i < n; ++i)
    p[i] = (float)((i * 7 + seed * 3) % 11 - 5);
}

/* want[m x n] = op(a[m x k] x b[k x n]) with the given strides of a. */
static void ref(int m, int n, int k, const float *a, int ars, int acs,
                const float *b, float *want, int relu) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int p = 0; p < k; ++p)
        s += a[i * ars + p * acs] * b[p * n + j];
      want[i * n + j] = relu && s < 0 ? 0 : s;
    }
}

static int same(const float *got, const float *want, int n) {
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i])
      return 0;
  return 1;
}

static void mm_3x5x7(const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, 3, 7), TLX_LOAD(b, 7, 5)));
}
static void mm_17x40x33(const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, 17, 33), TLX_LOAD(b, 33, 40)));
}
static void mm_relu(const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_relu(tlx_matmul(TLX_LOAD(a, 20, 9), TLX_LOAD(b, 9, 11))));
}

static void test_f32(void) {
  float a[17 * 33], b[33 * 40], c[17 * 40], want[17 * 40];
  fill(a, 17 * 33, 1), fill(b, 33 * 40, 2);
  mm_3x5x7(a, b, c);
  ref(3, 5, 7, a, 7, 1, b, want, 0);
  int ok = same(c, want, 15);
  mm_17x40x33(a, b, c);
  ref(17, 40, 33, a, 33, 1, b, want, 0);
  ok &= same(c, want, 17 * 40);
  failures += !ok;
  printf("f32: %s\n", ok ? "ok" : "FAILED");
  mm_relu(a, b, c);
  ref(20, 11, 9, a, 9, 1, b, want, 1);
  ok = same(c, want, 20 * 11);
  failures += !ok;
  printf("relu: %s\n", ok ? "ok" : "FAILED");
}

static void smma_from(const int8_t *a, const int8_t *b, const int32_t *acc,
                      int32_t *c) {
  TLX_STORE(c, tlx_smma(TLX_LOAD(acc, 19, 21), TLX_LOAD(a, 19, 70),
                        TLX_LOAD(b, 70, 21)));
}
static void smma_inplace(const int8_t *a, const int8_t *b, int32_t *c) {
  TLX_STORE(c, tlx_smma(TLX_LOAD(c, 19, 21), TLX_LOAD(a, 19, 70),
                        TLX_LOAD(b, 70, 21)));
}

static void test_int8(void) {
  int8_t a[19 * 70], b[70 * 21];
  int32_t acc[19 * 21], c[19 * 21];
  for (int i = 0; i < 19 * 70; ++i)
    a[i] = (int8_t)(i * 37 + 11);
  for (int i = 0; i < 70 * 21; ++i)
    b[i] = (int8_t)(i * 53 + 7);
  for (int i = 0; i < 19 * 21; ++i)
    acc[i] = i * 3 - 50;
  smma_from(a, b, acc, c);
  smma_inplace(a, b, c); /* acc + 2 a x b */
  int ok = 1;
  for (int i = 0; i < 19; ++i)
    for (int j = 0; j < 21; ++j) {
      int32_t s = acc[i * 21 + j];
      for (int p = 0; p < 70; ++p)
        s += 2 * a[i * 70 + p] * b[p * 21 + j];
      ok &= c[i * 21 + j] == s;
    }
  failures += !ok;
  printf("int8: %s\n", ok ? "ok" : "FAILED");
}

/* a stored column-major (11 x 13 in memory); a sub-block of rows with a
 * leading dimension of 12 read from a 9 x 12 array. */
static void mm_colmajor(const float *a, const float *b, float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(11, 13), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  TLX_STORE(c, tlx_matmul(ta, TLX_LOAD(b, 11, 6)));
}
static void mm_ld(const float *a, const float *b, float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(9, 10), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_STRIDES(0, 12));
  TLX_STORE(c, tlx_matmul(ta, TLX_LOAD(b, 10, 7)));
}

static void test_layouts(void) {
  float a[13 * 12], b[11 * 7], c[13 * 7], want[13 * 7];
  fill(a, 13 * 12, 3), fill(b, 11 * 7, 4);
  mm_colmajor(a, b, c);
  ref(13, 6, 11, a, 1, 13, b, want, 0);
  int ok = same(c, want, 13 * 6);
  mm_ld(a, b, c);
  ref(9, 7, 10, a, 12, 1, b, want, 0);
  ok &= same(c, want, 9 * 7);
  failures += !ok;
  printf("layouts: %s\n", ok ? "ok" : "FAILED");
}

static void mm_bf16(const __bf16 *a, const __bf16 *b, float *c) {
  f30x50 r = tensor_matmul_f30x50(TLX_LOAD(a, 30, 40), TLX_LOAD(b, 40, 50));
  TLX_STORE(c, tensor_typeinfo(r, TLX_SHAPE(30, 50), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2)));
}

static void test_bf16(void) {
  static __bf16 a[30 * 40], b[40 * 50];
  static float fa[30 * 40], fb[40 * 50], c[30 * 50], want[30 * 50];
  fill(fa, 30 * 40, 5), fill(fb, 40 * 50, 6);
  for (int i = 0; i < 30 * 40; ++i)
    a[i] = (__bf16)fa[i];
  for (int i = 0; i < 40 * 50; ++i)
    b[i] = (__bf16)fb[i];
  mm_bf16(a, b, c);
  ref(30, 50, 40, fa, 40, 1, fb, want, 0);
  int ok = same(c, want, 30 * 50);
  failures += !ok;
  printf("bf16: %s\n", ok ? "ok" : "FAILED");
}

/* Big enough for share-kernels=auto, next to a run-time-sized GEMM of
 * the same kind: both call one kernel. */
static void mm_big(const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_relu(tlx_matmul(TLX_LOAD(a, 512, 300),
                                   TLX_LOAD(b, 300, 260))));
}
static void mm_rt(int m, int n, int k, const float *a, const float *b,
                  float *c) {
  TLX_STORE(c, tlx_relu(tlx_matmul(TLX_LOAD(a, m, k), TLX_LOAD(b, k, n))));
}

static void test_big(void) {
  float *a = malloc(sizeof(float) * 512 * 300);
  float *b = malloc(sizeof(float) * 300 * 260);
  float *c = malloc(sizeof(float) * 512 * 260);
  float *want = malloc(sizeof(float) * 512 * 260);
  fill(a, 512 * 300, 7), fill(b, 300 * 260, 8);
  mm_big(a, b, c);
  ref(512, 260, 300, a, 300, 1, b, want, 1);
  int ok = same(c, want, 512 * 260);
  mm_rt(31, 260, 300, a, b, c);
  ok &= same(c, want, 31 * 260);
  failures += !ok;
  printf("big: %s\n", ok ? "ok" : "FAILED");
  free(a), free(b), free(c), free(want);
}

/* Layers of a network: three f32 matmuls of one kind (shared with `auto`,
 * whatever their M), and one with relu, alone of its kind but for the big
 * one above (its own code: the kind counts the epilogue). */
static void mm_batch64(const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, 64, 80), TLX_LOAD(b, 80, 96)));
}
static void mm_batch64_next(const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, 64, 96), TLX_LOAD(b, 96, 72)));
}
static void mm_batch32(const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, 32, 80), TLX_LOAD(b, 80, 96)));
}
static void mm_batch64_relu(const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_relu(tlx_matmul(TLX_LOAD(a, 64, 80), TLX_LOAD(b, 80, 96))));
}

static void test_batch(void) {
  static float a[64 * 80], b[80 * 96], c[64 * 96], want[64 * 96];
  static float b2[96 * 72], c2[64 * 72], want2[64 * 72];
  fill(a, 64 * 80, 9), fill(b, 80 * 96, 10), fill(b2, 96 * 72, 11);
  mm_batch64(a, b, c);
  ref(64, 96, 80, a, 80, 1, b, want, 0);
  int ok = same(c, want, 64 * 96);
  mm_batch64_next(c, b2, c2);
  ref(64, 72, 96, c, 96, 1, b2, want2, 0);
  ok &= same(c2, want2, 64 * 72);
  mm_batch32(a, b, c);
  ok &= same(c, want, 32 * 96);
  mm_batch64_relu(a, b, c);
  ref(64, 96, 80, a, 80, 1, b, want, 1);
  ok &= same(c, want, 64 * 96);
  failures += !ok;
  printf("batch: %s\n", ok ? "ok" : "FAILED");
}

int main(void) {
  test_f32();
  test_int8();
  test_layouts();
  test_bf16();
  test_big();
  test_batch();
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
