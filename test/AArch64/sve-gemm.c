// GEMMs on SVE's scalable vectors (lib/Gemm/GemmVector.cpp, SVE's part in
// lib/Target/AArch64/SVEKernels.cpp): with
// SVE in -march the vector kernels are vector-length agnostic - a 12-row x
// 2-vector register block, FMLA / MLA with A broadcast (ld1rw), SDOT /
// UDOT, USDOT (+i8mm) and BFDOT (+bf16), tails by predicates. One binary
// runs at every vector length: -O2 at 128, 256, 512 and 2048 bits, -O0 at
// qemu's default, against plain C loops: tails in M, N and K (1, 13, 17,
// 33, 100), K over two cache blocks, a transposed A, C with padded rows
// and column-major (through the stack buffer), fused epilogues, f64, int8
// and int16 accumulating products, bf16 and an f16 result summed in f32.
// Without i8mm / bf16 (armv8.2-a+sve) those GEMMs take the i32 and f32
// kernels on widened operands. Most of these shapes are skinny (M or N up
// to 16): the runs that check the SVE kernels turn streaming off
// (-tlx-stream-max-rows=0); the -O0 run and the one without i8mm take the
// streamed kernels on NEON (docs/pipeline.md, "Skinny products").
// REQUIRES: aarch64-cross
// RUN: %a64_tlx_cc -O2 -march=armv8.6-a+sve -mllvm -tlx-stream-max-rows=0 -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: %a64_tlx_cc -O2 -march=armv8.6-a+sve -mllvm -tlx-stream-max-rows=0 -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %a64_tlx_cc -O2 -march=armv8.2-a+sve -mllvm -tlx-stream-max-rows=0 -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BASE
// RUN: %a64_tlx_cc -w -O0 -march=armv8.6-a+sve %s -o %t0 && %a64_qemu %t0 | FileCheck %s
// RUN: %a64_tlx_cc -w -O2 -march=armv8.6-a+sve -mllvm -tlx-stream-max-rows=0 %s -o %t2
// RUN: qemu-aarch64 -cpu max,sve-default-vector-length=16 %t2 | FileCheck %s
// RUN: qemu-aarch64 -cpu max,sve-default-vector-length=32 %t2 | FileCheck %s
// RUN: qemu-aarch64 -cpu max,sve-default-vector-length=64 %t2 | FileCheck %s
// RUN: qemu-aarch64 -cpu max,sve-default-vector-length=256 %t2 | FileCheck %s
// RUN: %a64_tlx_cc -w -O2 -march=armv8.2-a+sve %s -o %tb && %a64_qemu %tb | FileCheck %s

// REMARK: remark: matmul: 17x33x100 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel sve fma f32 9x2VL, {{.*}} tile 9x(8 x vscale)
// REMARK: remark: matmul: 1x1x1 (MxKxN) {{.*}} kernel sve fma f32 1x2VL
// REMARK: remark: matmul: 37x29x45 (MxKxN) {{.*}} kernel sve fma f32 10x2VL
// REMARK: remark: matmul: fused epilogue (fmul) applied to each C block as the scalable-vector kernel stores it (read back from L1); no temporary
// REMARK: remark: matmul: 100x17x33 (MxKxN) {{.*}} kernel sve fma f32 10x2VL, blocks MC=100 {{.*}} tile 10x(8 x vscale)
// REMARK: remark: matmul: 33x100x17 (MxKxN) {{.*}} kernel sve fma f32 11x2VL
// REMARK: remark: matmul: 13x1000x21 (MxKxN) {{.*}} kernel sve fma f32 7x2VL, blocks MC=14 NC=128 KC=672
// REMARK: remark: matmul: 20x9x30 (MxKxN) {{.*}} kernel sve fma f32 10x2VL
// REMARK: remark: matmul: 19x23x27 (MxKxN) f64 x f64 -> f64 {{.*}} kernel sve fma f64 10x2VL, {{.*}} tile 10x(4 x vscale)
// REMARK: remark: smma: 21x70x35 (MxKxN) i8 x i8 -> i32 {{.*}} kernel sve s8s8s32 sdot 11x2VL
// REMARK: remark: umma: {{.*}} kernel sve u8u8s32 udot
// REMARK: remark: summa: {{.*}} kernel sve s8u8s32 usdot
// REMARK: remark: smma: 21x70x35 (MxKxN) i16 x i16 -> i32 {{.*}} kernel sve mla i32 11x2VL
// REMARK: remark: matmul: 21x70x35 (MxKxN) bf16 x bf16 -> f32 {{.*}} kernel sve bf16 bfdot
// REMARK: remark: matmul: 21x70x35 (MxKxN) f16 x f16 -> f16 {{.*}} kernel sve fma f32 11x2VL, {{.*}} accumulated in f32
// BASE: kernel sve fma f32
// BASE: smma: {{.*}} kernel sve s8s8s32 sdot
// BASE: umma: {{.*}} kernel sve u8u8s32 udot
// BASE: summa: {{.*}} kernel sve mla i32
// BASE: matmul: 21x70x35 (MxKxN) bf16 x bf16 -> f32 {{.*}} kernel sve fma f32

// The k loop: B vectors and A broadcasts from the packed panels, the
// products, the back branch; C under predicates.
// ASM-LABEL: mm_17x33x100:
// ASM: ld1rw { z{{[0-9]+}}.s }
// ASM: fmla z{{[0-9]+}}.s, p{{[0-9]+}}/m, z{{[0-9]+}}.s, z{{[0-9]+}}.s
// ASM: b.{{[a-z]+}} .LBB
// ASM: whilelo p{{[0-9]+}}.s
// ASM: st1w { z{{[0-9]+}}.s }, p{{[0-9]+}}
// ASM-LABEL: mm_f64:
// ASM: fmla z{{[0-9]+}}.d
// ASM-LABEL: mma_s8s8:
// ASM: sdot z{{[0-9]+}}.s, z{{[0-9]+}}.b, z{{[0-9]+}}.b
// ASM-LABEL: mma_u8u8:
// ASM: udot z{{[0-9]+}}.s, z{{[0-9]+}}.b, z{{[0-9]+}}.b
// ASM-LABEL: mma_s8u8:
// ASM: usdot z{{[0-9]+}}.s, z{{[0-9]+}}.b, z{{[0-9]+}}.b
// ASM-LABEL: mma_s16:
// ASM: mla z{{[0-9]+}}.s
// ASM-LABEL: mm_bf16:
// ASM: bfdot z{{[0-9]+}}.s, z{{[0-9]+}}.h, z{{[0-9]+}}.h
// ASM-LABEL: mm_f16:
// ASM: fmla z{{[0-9]+}}.s

// CHECK: 17x33x100: ok
// CHECK: 1x1x1: ok
// CHECK: a b * 0.5: ok
// CHECK: transposed A, padded C: ok
// CHECK: bias + relu: ok
// CHECK: K over two blocks: ok
// CHECK: column-major C: ok
// CHECK: f64: ok
// CHECK: s8s8 + acc: ok
// CHECK: u8u8 + acc: ok
// CHECK: s8u8 + acc: ok
// CHECK: s16 + acc: ok
// CHECK: bf16: ok
// CHECK: f16: ok
// CHECK: PASSED
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>

#define ROW TLX_LAYOUT(0, 1)
#define LOAD(p, m, n) tensor_load(p, TLX_SHAPE(m, n), ROW, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), ROW, TLX_ZEROS(2))

typedef float v17x100 __attribute__((__vector_size__(17 * 100 * 4)));
typedef float v1x1 __attribute__((__vector_size__(4)));
typedef float v37x45 __attribute__((__vector_size__(37 * 45 * 4)));
typedef float v100x33 __attribute__((__vector_size__(100 * 33 * 4)));
typedef float v33x17 __attribute__((__vector_size__(33 * 17 * 4)));
typedef float v13x21 __attribute__((__vector_size__(13 * 21 * 4)));
typedef float v20x30 __attribute__((__vector_size__(20 * 30 * 4)));
typedef double d19x27 __attribute__((__vector_size__(19 * 27 * 8)));
typedef int32_t i21x35 __attribute__((__vector_size__(21 * 35 * 4)));
typedef float f21x35 __attribute__((__vector_size__(21 * 35 * 4)));
typedef _Float16 h21x35 __attribute__((__vector_size__(21 * 35 * 2)));
TLX_DECLARE_TENSOR_OPS_AS(v17x100, a)
TLX_DECLARE_TENSOR_OPS_AS(v1x1, b)
TLX_DECLARE_TENSOR_OPS_AS(v37x45, c)
TLX_DECLARE_TENSOR_OPS_AS(v100x33, d)
TLX_DECLARE_TENSOR_OPS_AS(v33x17, e)
TLX_DECLARE_TENSOR_OPS_AS(v13x21, f)
TLX_DECLARE_TENSOR_OPS_AS(v20x30, g)
TLX_DECLARE_TENSOR_OPS_AS(d19x27, h)
TLX_DECLARE_TENSOR_OPS_AS(i21x35, i)
TLX_DECLARE_TENSOR_OPS_AS(f21x35, j)
TLX_DECLARE_TENSOR_OPS_AS(h21x35, k)

static int failures;
static unsigned state = 7;

static int next_int(void) {
  state = state * 1664525u + 1013904223u;
  return (int)(state >> 24) - 128;
}

static void fill(float *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] = (float)next_int() / 64.0f;
}

static void report(const char *name, int bad) {
  printf("%s: %s\n", name, bad ? "FAILED" : "ok");
  failures += bad != 0;
}

// got[i*ldg + j*cs] against scale * sum_k A(i,k) B(k,j) (+ bias[j]), A(i,k)
// = a[i*ar + k*ac], B row-major; then relu when asked.
static void check(const char *name, const float *got, int ldg, int cs,
                  float scale, const float *bias, int relu, const float *a,
                  int ar, int ac, const float *b, int m, int k, int n) {
  int bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0, mag = 0;
      for (int p = 0; p < k; ++p) {
        double x = (double)a[i * ar + p * ac] * b[p * n + j];
        want += x;
        mag += fabs(x);
      }
      want *= scale;
      if (bias)
        want += bias[j];
      if (relu && want < 0)
        want = 0;
      float g = got[i * ldg + j * cs];
      if (fabs(g - want) > 1e-5 * (mag + 1) && bad++ < 5)
        printf("%s: [%d][%d] = %g, want %g\n", name, i, j, g, want);
    }
  report(name, bad);
}

__attribute__((noinline)) void mm_17x33x100(const float *a, const float *b,
                                            float *c) {
  v17x100 r = tensor_matmul_a(LOAD(a, 17, 33), LOAD(b, 33, 100));
  tensor_store(c, INFO(r, 17, 100), TLX_ZEROS(2));
}

__attribute__((noinline)) void mm_1x1x1(const float *a, const float *b,
                                        float *c) {
  v1x1 r = tensor_matmul_b(LOAD(a, 1, 1), LOAD(b, 1, 1));
  tensor_store(c, INFO(r, 1, 1), TLX_ZEROS(2));
}

// c = (a b) * 0.5: a fused scale.
__attribute__((noinline)) void mm_scaled(const float *restrict a,
                                         const float *restrict b,
                                         float *restrict c) {
  v37x45 ab = tensor_matmul_c(LOAD(a, 37, 29), LOAD(b, 29, 45));
  tensor_typeinfo(ab, TLX_SHAPE(37, 45), ROW, TLX_ZEROS(2));
  v37x45 r = ab * 0.5f;
  tensor_store(c, INFO(r, 37, 45), TLX_ZEROS(2));
}

// A stored transposed (17 x 100, layout <1,0>: the logical 100 x 17), C
// written with rows 40 elements apart (33 used).
__attribute__((noinline)) void mm_transposed_a(const float *at, const float *b,
                                               float *c) {
  tlx_token_t ta = tensor_load(at, TLX_SHAPE(17, 100), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v100x33 r = tensor_matmul_d(ta, LOAD(b, 17, 33));
  tensor_store(c, INFO(r, 100, 33), TLX_STRIDES(0, 40));
}

// y = relu(x w + bias), bias broadcast over the rows: fused.
__attribute__((noinline)) void bias_relu(const float *restrict x,
                                         const float *restrict w,
                                         const float *restrict bias,
                                         float *restrict y) {
  v33x17 xw = tensor_matmul_e(LOAD(x, 33, 100), LOAD(w, 100, 17));
  tensor_typeinfo(xw, TLX_SHAPE(33, 17), ROW, TLX_ZEROS(2));
  v33x17 bb = tensor_broadcast_e(
      tensor_load(bias, TLX_SHAPE(17), TLX_LAYOUT(0), TLX_ZEROS(1),
                  TLX_ZEROS(1)));
  tensor_typeinfo(bb, TLX_SHAPE(33, 17), ROW, TLX_ZEROS(2));
  v33x17 z = xw + bb;
  v33x17 r = tensor_relu_e(INFO(z, 33, 17));
  tensor_store(y, INFO(r, 33, 17), TLX_ZEROS(2));
}

// K = 1000: two K blocks, the second adding to the first's sums.
__attribute__((noinline)) void mm_long_k(const float *a, const float *b,
                                         float *c) {
  v13x21 r = tensor_matmul_f(LOAD(a, 13, 1000), LOAD(b, 1000, 21));
  tensor_store(c, INFO(r, 13, 21), TLX_ZEROS(2));
}

// C stored column-major (the logical 20 x 30 as 30 x 20 with layout
// <1,0>): its rows are not contiguous.
__attribute__((noinline)) void mm_column_major(const float *a, const float *b,
                                               float *c) {
  v20x30 r = tensor_matmul_g(LOAD(a, 20, 9), LOAD(b, 9, 30));
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(30, 20), TLX_LAYOUT(1, 0),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

__attribute__((noinline)) void mm_f64(const double *a, const double *b,
                                      double *c) {
  d19x27 r = tensor_matmul_h(LOAD(a, 19, 23), LOAD(b, 23, 27));
  tensor_store(c, INFO(r, 19, 27), TLX_ZEROS(2));
}

// acc + a b, 21 x 70 x 35, acc read from its own buffer (the GEMM's
// initial sums), the result to c.
#define MMA(name, op, TA, TB)                                                  \
  __attribute__((noinline)) void name(const int32_t *acc, const TA *a,        \
                                      const TB *b, int32_t *c) {               \
    i21x35 r = op(LOAD(acc, 21, 35), LOAD(a, 21, 70), LOAD(b, 70, 35));       \
    tensor_store(c, INFO(r, 21, 35), TLX_ZEROS(2));                            \
  }
MMA(mma_s8s8, tensor_smma_i, int8_t, int8_t)
MMA(mma_u8u8, tensor_umma_i, uint8_t, uint8_t)
MMA(mma_s8u8, tensor_summa_i, int8_t, uint8_t)
MMA(mma_s16, tensor_smma_i, int16_t, int16_t)

__attribute__((noinline)) void mm_bf16(const __bf16 *a, const __bf16 *b,
                                       float *c) {
  f21x35 r = tensor_matmul_j(LOAD(a, 21, 70), LOAD(b, 70, 35));
  tensor_store(c, INFO(r, 21, 35), TLX_ZEROS(2));
}

__attribute__((noinline)) void mm_f16(const _Float16 *a, const _Float16 *b,
                                      _Float16 *c) {
  h21x35 r = tensor_matmul_k(LOAD(a, 21, 70), LOAD(b, 70, 35));
  tensor_store(c, INFO(r, 21, 35), TLX_ZEROS(2));
}

// The int8 / int16 products against plain C; a and b hold the operands as
// int (their types' ranges).
static void check_mma(const char *name, const int32_t *got,
                      const int32_t *acc, const int *a, const int *b) {
  int bad = 0;
  for (int i = 0; i < 21; ++i)
    for (int j = 0; j < 35; ++j) {
      int32_t want = acc[i * 35 + j];
      for (int p = 0; p < 70; ++p)
        want += a[i * 70 + p] * b[p * 35 + j];
      if (got[i * 35 + j] != want && bad++ < 5)
        printf("%s: [%d][%d] = %d, want %d\n", name, i, j,
               got[i * 35 + j], want);
    }
  report(name, bad);
}

// A bf16 holding a small integer (exact in bf16, f16 and f32) without a
// float -> bf16 conversion.
static __bf16 small_bf16(int v) {
  float f = (float)v;
  uint32_t bits;
  memcpy(&bits, &f, 4);
  uint16_t h = (uint16_t)(bits >> 16);
  __bf16 r;
  memcpy(&r, &h, 2);
  return r;
}

static void test_narrow(void) {
  static int32_t acc[21 * 35], c[21 * 35];
  static int8_t s8a[21 * 70], s8b[70 * 35];
  static uint8_t u8a[21 * 70], u8b[70 * 35];
  static int16_t s16a[21 * 70], s16b[70 * 35];
  static int ia[4][21 * 70], ib[4][70 * 35];
  static __bf16 ba[21 * 70], bb[70 * 35];
  static _Float16 ha[21 * 70], hb[70 * 35], hc[21 * 35];
  static float fa[21 * 70], fb[70 * 35], fc[21 * 35];
  for (int i = 0; i < 21 * 35; ++i)
    acc[i] = next_int() * 1000;
  for (int i = 0; i < 21 * 70; ++i) {
    ia[0][i] = s8a[i] = (int8_t)next_int();
    ia[1][i] = u8a[i] = (uint8_t)next_int();
    ia[2][i] = s16a[i] = (int16_t)(next_int() * 251);
    ia[3][i] = next_int() % 8;
    ba[i] = small_bf16(ia[3][i]);
    ha[i] = (_Float16)ia[3][i];
    fa[i] = (float)ia[3][i];
  }
  for (int i = 0; i < 70 * 35; ++i) {
    ib[0][i] = s8b[i] = (int8_t)next_int();
    ib[1][i] = u8b[i] = (uint8_t)next_int();
    ib[2][i] = s16b[i] = (int16_t)(next_int() * 127);
    ib[3][i] = next_int() % 8;
    bb[i] = small_bf16(ib[3][i]);
    hb[i] = (_Float16)ib[3][i];
    fb[i] = (float)ib[3][i];
  }
  mma_s8s8(acc, s8a, s8b, c);
  check_mma("s8s8 + acc", c, acc, ia[0], ib[0]);
  mma_u8u8(acc, u8a, u8b, c);
  check_mma("u8u8 + acc", c, acc, ia[1], ib[1]);
  mma_s8u8(acc, s8a, u8b, c);
  check_mma("s8u8 + acc", c, acc, ia[0], ib[1]);
  mma_s16(acc, s16a, s16b, c);
  check_mma("s16 + acc", c, acc, ia[2], ib[2]);
  // Products of integers below 8 in magnitude, 70 of them: every partial
  // sum is exact in f32, so the bf16 GEMM must match exactly.
  mm_bf16(ba, bb, fc);
  check("bf16", fc, 35, 1, 1, 0, 0, fa, 70, 1, fb, 21, 70, 35);
  mm_f16(ha, hb, hc);
  for (int i = 0; i < 21 * 35; ++i)
    fc[i] = (float)hc[i];
  // The f16 result is the f32 sum rounded once.
  int bad = 0;
  for (int i = 0; i < 21; ++i)
    for (int j = 0; j < 35; ++j) {
      float want = 0;
      for (int p = 0; p < 70; ++p)
        want += fa[i * 70 + p] * fb[p * 35 + j];
      if (fc[i * 35 + j] != (float)(_Float16)want && bad++ < 5)
        printf("f16: [%d][%d] = %g, want %g\n", i, j, fc[i * 35 + j],
               (float)(_Float16)want);
    }
  report("f16", bad);
}

int main(void) {
  static float a[100 * 1000], b[1000 * 100], c[100 * 100], bias[17];
  fill(a, 100 * 1000);
  fill(b, 1000 * 100);
  fill(bias, 17);

  mm_17x33x100(a, b, c);
  check("17x33x100", c, 100, 1, 1, 0, 0, a, 33, 1, b, 17, 33, 100);
  mm_1x1x1(a, b, c);
  check("1x1x1", c, 1, 1, 1, 0, 0, a, 1, 1, b, 1, 1, 1);
  mm_scaled(a, b, c);
  check("a b * 0.5", c, 45, 1, 0.5f, 0, 0, a, 29, 1, b, 37, 29, 45);

  for (int i = 0; i < 100 * 40; ++i)
    c[i] = -1;
  mm_transposed_a(a, b, c);
  check("transposed A, padded C", c, 40, 1, 1, 0, 0, a, 1, 100, b, 100, 17,
        33);
  int padding = 0;
  for (int i = 0; i < 100; ++i)
    for (int j = 33; j < 40; ++j)
      padding += c[i * 40 + j] != -1;
  if (padding)
    printf("padding between C's rows written: %d\n", failures += padding);

  bias_relu(a, b, bias, c);
  check("bias + relu", c, 17, 1, 1, bias, 1, a, 100, 1, b, 33, 100, 17);
  mm_long_k(a, b, c);
  check("K over two blocks", c, 21, 1, 1, 0, 0, a, 1000, 1, b, 13, 1000, 21);
  mm_column_major(a, b, c);
  check("column-major C", c, 1, 20, 1, 0, 0, a, 9, 1, b, 20, 9, 30);

  static double da[19 * 23], db[23 * 27], dc[19 * 27];
  for (int i = 0; i < 19 * 23; ++i)
    da[i] = a[i];
  for (int i = 0; i < 23 * 27; ++i)
    db[i] = b[i];
  mm_f64(da, db, dc);
  int bad = 0;
  for (int i = 0; i < 19; ++i)
    for (int j = 0; j < 27; ++j) {
      double want = 0;
      for (int p = 0; p < 23; ++p)
        want += da[i * 23 + p] * db[p * 27 + j];
      bad += fabs(dc[i * 27 + j] - want) > 1e-12 * (fabs(want) + 1);
    }
  report("f64", bad);

  test_narrow();
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
