// Matmul and the mma family with sizes that are C variables (docs/ops.md,
// "Run-time sizes"): every element against a plain C loop, at sizes on both
// sides of the register block (6..14 rows, 8..32 columns) and of the cache
// blocks (MC 48.., KC 672, NC 1560), A in place or packed, with zero
// extents, column-major operands, leading dimensions from variables, and
// int8 with each
// signedness, accumulating from another tensor and in place; relu fused
// into the GEMM; batches of run-time size (3-D and 4-D, smma with an
// accumulator, a permuted layout); unary ops (one, or a chain) on memory and plain copies,
// 1-D to 3-D, row- and column-major, in place, across the vector width;
// results of constant extents over a run-time K.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// Every x86 level the dispatch picks from, and the AMX target (tile
// kernels for the int8 mma family, test/AMX/runtime-sizes.c; vector code
// for the rest, with a missed remark).
// RUN: %clang_tlx -std=c11 -O2 -march=x86-64 %s %tlx_rt -o %tb
// RUN: env TLX_ISA_LEVEL_MAX=0 %tb | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=1 %tb | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-target=amx-emulate -Rpass-missed=tlx %s %tlx_rt -o %te 2>&1 | FileCheck %s --check-prefix=AMX
// RUN: %te | FileCheck %s
// With -fopenmp: split over the threads when M*N*K passes the threshold at
// run time (the 200x64x300 and 97x130x700 cases), whole on one thread
// below it; 3 threads leave uneven shares.
// RUN: %if openmp %{ %clang_tlx -std=c11 -O2 -fopenmp -Rpass=tlx %s %tlx_rt -o %tp 2>&1 | FileCheck %s --check-prefix=OMP %}
// RUN: %if openmp %{ env OMP_NUM_THREADS=3 %tp | FileCheck %s %}
// OMP: remark: matmul: split over the OpenMP threads by the larger of rows and columns, in blocks of {{[0-9]+}} rows or {{[0-9]+}} columns, when M*N*K >= {{[0-9]+}} at run time
// AMX: remark: matmul: AMX cannot do this GEMM (AMX multiplies only i8 x i8 -> i32, bf16 x bf16 -> f32 and f16 x f16 -> f32); using vector code
// CHECK: f32 row-major: ok
// CHECK: f32 layouts and leading dimensions: ok
// CHECK: f64: ok
// CHECK: i32: ok
// CHECK: int8 mma: ok
// CHECK: fused relu: ok
// CHECK: batched: ok
// CHECK: unary ops and copies: ok
// CHECK: static result, run-time K: ok
// CHECK: PASSED
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlx.h>

TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)
TLX_DECLARE_TENSOR_OPS_AS(tlx_int32_result_t, i32)

static int failures;

static void fill_f32(float *p, long n, int seed) {
  for (long i = 0; i < n; ++i)
    p[i] = (float)((i * 7 + seed * 3) % 11 - 5);
}

/* b is k x 1: its row stride is the constant 1. This call site comes
 * first in the module, so it creates the shared f32 kernel that every
 * other one calls, whose b rows are then not 1 apart. */
static void mm_kx1(int m, int k, const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, m, k), TLX_LOAD(b, k, 1)));
}

/* c = a x b, row-major, through the short form. */
static void mm_f32(int m, int n, int k, const float *a, const float *b,
                   float *c) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, m, k), TLX_LOAD(b, k, n)));
}

static void check_f32(const char *what, int m, int n, int k, const float *c,
                      const float *want, long ldc) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      if (c[i * ldc + j] != want[i * ldc + j]) {
        if (failures++ < 5)
          printf("%s %dx%dx%d: c[%d][%d] = %g, want %g\n", what, m, n, k, i, j,
                 c[i * ldc + j], want[i * ldc + j]);
        return;
      }
}

static void test_row_major(void) {
  static const int sizes[][3] = {
      {1, 1, 1},    {3, 5, 7},     {6, 8, 2},    {7, 9, 3},   {14, 32, 5},
      {15, 33, 6},  {13, 17, 31},  {49, 65, 97}, {48, 47, 1}, {2, 1561, 3},
      {5, 7, 673},  {97, 130, 700}, {0, 4, 3},   {4, 0, 3},   {4, 3, 0},
      {200, 64, 300},
      /* N past four micro-panels: A read in place as one A block of
       * cache-line-aligned rows (k = 64), packed for rows that are not
       * (65) and for several A blocks (600 rows) */
      {50, 200, 64}, {50, 200, 65}, {600, 200, 64}};
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    float *a = malloc(sizeof(float) * (m * k + 1));
    float *b = malloc(sizeof(float) * (k * n + 1));
    float *c = malloc(sizeof(float) * (m * n + 1));
    float *want = malloc(sizeof(float) * (m * n + 1));
    fill_f32(a, m * k, 1);
    fill_f32(b, k * n, 2);
    for (int i = 0; i < m * n; ++i)
      c[i] = 99.0f; /* k == 0 must clear it */
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float sum = 0;
        for (int p = 0; p < k; ++p)
          sum += a[i * k + p] * b[p * n + j];
        want[i * n + j] = sum;
      }
    mm_f32(m, n, k, a, b, c);
    check_f32("row-major", m, n, k, c, want, n);
    free(a), free(b), free(c), free(want);
  }
  printf("f32 row-major: %s\n", failures ? "FAILED" : "ok");
}

/* c[m x n] (leading dimension ldc) = a^T x b, with a stored column-major
 * (k x m in memory, rows lda apart) and b row-major with rows ldb apart:
 * the long form, every shape and stride a variable. */
static void mm_layouts(int m, int n, int k, int lda, int ldb, int ldc,
                       const float *a, const float *b, float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(k, m), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_STRIDES(0, lda));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(k, n), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_STRIDES(0, ldb));
  tlx_float_result_t r = tensor_matmul_f32(ta, tb);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(c, tr, TLX_STRIDES(0, ldc));
}

static void test_layouts(void) {
  static const int sizes[][3] = {{3, 5, 7}, {17, 33, 9}, {64, 70, 130}};
  int before = failures;
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    int lda = m + 3, ldb = n + 1, ldc = n + 5;
    float *a = malloc(sizeof(float) * k * lda);
    float *b = malloc(sizeof(float) * k * ldb);
    float *c = malloc(sizeof(float) * m * ldc);
    float *want = malloc(sizeof(float) * m * ldc);
    fill_f32(a, (long)k * lda, 3);
    fill_f32(b, (long)k * ldb, 4);
    for (long i = 0; i < (long)m * ldc; ++i)
      c[i] = want[i] = -7.0f; /* the gaps between rows stay */
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float sum = 0;
        for (int p = 0; p < k; ++p)
          sum += a[p * lda + i] * b[p * ldb + j];
        want[i * ldc + j] = sum;
      }
    mm_layouts(m, n, k, lda, ldb, ldc, a, b, c);
    check_f32("layouts", m, ldc, k, c, want, ldc);
    free(a), free(b), free(c), free(want);
  }
  printf("f32 layouts and leading dimensions: %s\n",
         failures == before ? "ok" : "FAILED");
}

static void mm_f64(int m, int n, int k, const double *a, const double *b,
                   double *c) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, m, k), TLX_LOAD(b, k, n)));
}

static void mm_i32(int m, int n, int k, const int32_t *a, const int32_t *b,
                   int32_t *c) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, m, k), TLX_LOAD(b, k, n)));
}

static void test_f64_i32(void) {
  int m = 23, n = 19, k = 41, before = failures;
  double a[23 * 41], b[41 * 19], c[23 * 19];
  int32_t ai[23 * 41], bi[41 * 19], ci[23 * 19];
  for (int i = 0; i < m * k; ++i)
    a[i] = ai[i] = (i * 5) % 13 - 6;
  for (int i = 0; i < k * n; ++i)
    b[i] = bi[i] = (i * 3) % 7 - 3;
  mm_f64(m, n, k, a, b, c);
  mm_i32(m, n, k, ai, bi, ci);
  int ok64 = 1, ok32 = 1;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int p = 0; p < k; ++p)
        sum += (int64_t)ai[i * k + p] * bi[p * n + j];
      ok64 &= c[i * n + j] == (double)sum;
      ok32 &= ci[i * n + j] == (int32_t)sum;
    }
  failures += !ok64 + !ok32;
  printf("f64: %s\n", ok64 ? "ok" : "FAILED");
  printf("i32: %s\n", ok32 ? "ok" : "FAILED");
  (void)before;
}

/* c = acc + a x b on int8 operands, each signedness; acc is another
 * tensor (from), or c itself (in place). */
#define MMA_FN(OP, TA, TB)                                                     \
  static void OP##_from(int m, int n, int k, const TA *a, const TB *b,         \
                        const int32_t *acc, int32_t *c) {                      \
    TLX_STORE(c, tlx_##OP(TLX_LOAD(acc, m, n), TLX_LOAD(a, m, k),              \
                          TLX_LOAD(b, k, n)));                                 \
  }                                                                            \
  static void OP##_inplace(int m, int n, int k, const TA *a, const TB *b,      \
                           int32_t *c) {                                       \
    TLX_STORE(c, tlx_##OP(TLX_LOAD(c, m, n), TLX_LOAD(a, m, k),                \
                          TLX_LOAD(b, k, n)));                                 \
  }
MMA_FN(smma, int8_t, int8_t)
MMA_FN(umma, uint8_t, uint8_t)
MMA_FN(usmma, uint8_t, int8_t)
MMA_FN(summa, int8_t, uint8_t)

#define MMA_CHECK(OP, TA, TB)                                                  \
  do {                                                                         \
    TA *a = malloc((size_t)m * k);                                             \
    TB *b = malloc((size_t)k * n);                                             \
    int32_t *acc = malloc(4 * (size_t)m * n), *c = malloc(4 * (size_t)m * n);  \
    for (int i = 0; i < m * k; ++i)                                            \
      a[i] = (TA)(i * 37 + 11);                                                \
    for (int i = 0; i < k * n; ++i)                                            \
      b[i] = (TB)(i * 53 + 7);                                                 \
    for (int i = 0; i < m * n; ++i)                                            \
      acc[i] = i * 3 - 50;                                                     \
    OP##_from(m, n, k, a, b, acc, c);                                          \
    int ok = 1;                                                                \
    for (int i = 0; i < m; ++i)                                                \
      for (int j = 0; j < n; ++j) {                                            \
        int32_t sum = acc[i * n + j];                                          \
        for (int p = 0; p < k; ++p)                                            \
          sum += (int32_t)a[i * k + p] * (int32_t)b[p * n + j];                \
        ok &= c[i * n + j] == sum;                                             \
      }                                                                        \
    OP##_inplace(m, n, k, a, b, c); /* c = c + a x b = acc + 2 a x b */        \
    for (int i = 0; i < m; ++i)                                                \
      for (int j = 0; j < n; ++j) {                                            \
        int32_t sum = acc[i * n + j];                                          \
        for (int p = 0; p < k; ++p)                                            \
          sum += 2 * (int32_t)a[i * k + p] * (int32_t)b[p * n + j];            \
        ok &= c[i * n + j] == sum;                                             \
      }                                                                        \
    if (!ok && failures++ < 5)                                                 \
      printf(#OP " %dx%dx%d: wrong\n", m, n, k);                               \
    free(a), free(b), free(acc), free(c);                                      \
  } while (0)

static void test_mma(void) {
  static const int sizes[][3] = {{1, 1, 1}, {5, 7, 3}, {33, 65, 130},
                                 {64, 64, 1025}};
  int before = failures;
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    MMA_CHECK(smma, int8_t, int8_t);
    MMA_CHECK(umma, uint8_t, uint8_t);
    MMA_CHECK(usmma, uint8_t, int8_t);
    MMA_CHECK(summa, int8_t, uint8_t);
  }
  printf("int8 mma: %s\n", failures == before ? "ok" : "FAILED");
}

/* y = relu(x w): the relu runs in the GEMM's write-back. */
static void dense_relu(int m, int n, int k, const float *x, const float *w,
                       float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, m, k), TLX_LOAD(w, k, n))));
}

/* The layers of an MLP whose widths come from an array: TLX ops in a loop,
 * ping-ponging between two buffers. */
static void mlp(int nl, const int *widths, float *const *w, float *x,
                float *y) {
  for (int l = 0; l < nl; ++l) {
    dense_relu(4, widths[l + 1], widths[l], x, w[l], y);
    float *t = x;
    x = y;
    y = t;
  }
}

static void test_fused(void) {
  static const int sizes[][3] = {{1, 1, 1}, {7, 33, 5}, {50, 70, 700}};
  int before = failures;
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    float *x = malloc(sizeof(float) * m * k), *w = malloc(sizeof(float) * k * n);
    float *y = malloc(sizeof(float) * m * n), *want = malloc(sizeof(float) * m * n);
    fill_f32(x, m * k, 5);
    fill_f32(w, k * n, 6);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float sum = 0;
        for (int p = 0; p < k; ++p)
          sum += x[i * k + p] * w[p * n + j];
        want[i * n + j] = sum > 0 ? sum : 0;
      }
    dense_relu(m, n, k, x, w, y);
    check_f32("fused relu", m, n, k, y, want, n);
    free(x), free(w), free(y), free(want);
  }
  int widths[4] = {8, 33, 7, 16};
  float *w[3], x[4 * 33], y[4 * 33], rx[4 * 33], ry[4 * 33];
  for (int l = 0; l < 3; ++l) {
    w[l] = malloc(sizeof(float) * widths[l] * widths[l + 1]);
    fill_f32(w[l], widths[l] * widths[l + 1], l);
  }
  fill_f32(x, 4 * 8, 9);
  memcpy(rx, x, sizeof x);
  mlp(3, widths, w, x, y); /* result in y (odd number of layers) */
  for (int l = 0; l < 3; ++l) {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < widths[l + 1]; ++j) {
        float sum = 0;
        for (int p = 0; p < widths[l]; ++p)
          sum += rx[i * widths[l] + p] * w[l][p * widths[l + 1] + j];
        ry[i * widths[l + 1] + j] = sum > 0 ? sum : 0;
      }
    memcpy(rx, ry, sizeof ry);
  }
  for (int i = 0; i < 4 * 16; ++i)
    if (y[i] != rx[i] && failures++ < 5)
      printf("mlp: y[%d] = %g, want %g\n", i, y[i], rx[i]);
  for (int l = 0; l < 3; ++l)
    free(w[l]);
  printf("fused relu: %s\n", failures == before ? "ok" : "FAILED");
}

/* c[nb][m][n] = relu(a[nb][m][k] x b[nb][k][n]), and a 4-D smma whose
 * op2 is stored with its batch dims innermost-but-matrix permuted. */
static void batched_relu(int nb, int m, int n, int k, const float *a,
                         const float *b, float *c) {
  TLX_STORE(c, tlx_relu(tlx_matmul(TLX_LOAD(a, nb, m, k),
                                   TLX_LOAD(b, nb, k, n))));
}
static void batched_smma(int p, int q, int m, int n, int k, const int8_t *a,
                         const int8_t *b, const int32_t *acc, int32_t *c) {
  /* b: storage q x p x k x n (layout <1, 0, 2, 3>), logical p x q x k x n */
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(q, p, k, n), TLX_LAYOUT(1, 0, 2, 3),
                               TLX_ZEROS(4), TLX_ZEROS(4));
  TLX_STORE(c, tlx_smma(TLX_LOAD(acc, p, q, m, n), TLX_LOAD(a, p, q, m, k),
                        tb));
}

static void test_batched(void) {
  int ok = 1;
  static const int sizes[][4] = {{1, 1, 1, 1}, {3, 5, 7, 9}, {2, 20, 33, 70},
                                 {0, 3, 3, 3}, {4, 6, 1, 0}};
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int nb = sizes[s][0], m = sizes[s][1], n = sizes[s][2], k = sizes[s][3];
    size_t na = (size_t)nb * m * k + 1, nbb = (size_t)nb * k * n + 1,
           nc = (size_t)nb * m * n + 1;
    float *a = malloc(4 * na), *b = malloc(4 * nbb), *c = malloc(4 * nc);
    fill_f32(a, (long)na, 7);
    fill_f32(b, (long)nbb, 8);
    batched_relu(nb, m, n, k, a, b, c);
    for (int z = 0; z < nb; ++z)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          float sum = 0;
          for (int p = 0; p < k; ++p)
            sum += a[(z * m + i) * k + p] * b[(z * k + p) * n + j];
          ok &= c[(z * m + i) * n + j] == (sum > 0 ? sum : 0);
        }
    free(a), free(b), free(c);
    /* 4-D: p = 2 x q = nb */
    int P = 2, Q = nb;
    size_t n8a = (size_t)P * Q * m * k + 1, n8b = (size_t)P * Q * k * n + 1,
           n32 = (size_t)P * Q * m * n + 1;
    int8_t *a8 = malloc(n8a), *b8 = malloc(n8b);
    int32_t *acc = malloc(4 * n32), *c32 = malloc(4 * n32);
    for (size_t i = 0; i < n8a; ++i)
      a8[i] = (int8_t)(i * 37 + 5);
    for (size_t i = 0; i < n8b; ++i)
      b8[i] = (int8_t)(i * 11 + 3);
    for (size_t i = 0; i < n32; ++i)
      acc[i] = (int32_t)i - 40;
    batched_smma(P, Q, m, n, k, a8, b8, acc, c32);
    for (int x = 0; x < P; ++x)
      for (int y = 0; y < Q; ++y)
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            int32_t sum = acc[((x * Q + y) * m + i) * n + j];
            for (int p = 0; p < k; ++p)
              sum += a8[((x * Q + y) * m + i) * k + p] *
                     b8[((y * P + x) * k + p) * n + j];
            ok &= c32[((x * Q + y) * m + i) * n + j] == sum;
          }
    free(a8), free(b8), free(acc), free(c32);
  }
  failures += !ok;
  printf("batched: %s\n", ok ? "ok" : "FAILED");
}

/* c = floor(fabs(a)) of an m x n block with rows lda apart; a 3-D copy; a
 * column-major relu in place; int32 relu of a vector. */
static void floor_fabs(int m, int n, int lda, const float *a, float *c) {
  TLX_STORE(c, tlx_floor(tlx_fabs(tensor_load(a, TLX_SHAPE(m, n),
                                              TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                                              TLX_STRIDES(0, lda)))));
}
static void copy3(int x, int y, int z, const double *a, double *c) {
  TLX_STORE(c, TLX_LOAD(a, x, y, z));
}
static void relu_in_place(int m, int n, float *a) {
  tensor_store(a, tlx_relu(TLX_LOAD(a, m, n)), TLX_ZEROS(2));
}
/* a column-major source into a row-major result: a transposing loop */
static void relu_transposed(int m, int n, const float *a, float *c) {
  tlx_token_t t = tensor_load(a, TLX_SHAPE(n, m), TLX_LAYOUT(1, 0),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  TLX_STORE(c, tlx_relu(t));
}
static void relu_i32(int n, const int32_t *a, int32_t *c) {
  TLX_STORE(c, tlx_relu(TLX_LOAD(a, n)));
}

static void test_unary(void) {
  static const int sizes[][3] = {{1, 1, 1}, {3, 17, 2}, {5, 33, 7}, {0, 9, 2},
                                 {9, 0, 3}, {31, 65, 4}};
  int ok = 1;
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int m = sizes[s][0], n = sizes[s][1], z = sizes[s][2], lda = n + 3;
    size_t cells = (size_t)(m + 1) * (lda + 1) * (z + 1);
    float *a = malloc(sizeof(float) * cells), *c = malloc(sizeof(float) * cells);
    double *d = malloc(sizeof(double) * cells), *e = malloc(sizeof(double) * cells);
    int32_t *ai = malloc(4 * cells), *ci = malloc(4 * cells);
    for (size_t i = 0; i < cells; ++i) {
      a[i] = (float)((int)(i % 17) - 8) * 0.75f;
      d[i] = (double)i * 0.5;
      ai[i] = (int32_t)(i % 11) - 5;
      c[i] = 42.0f, e[i] = 42.0, ci[i] = 42;
    }
    floor_fabs(m, n, lda, a, c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        ok &= c[i * n + j] == floorf(fabsf(a[i * lda + j]));
    ok &= m * n == 0 || c[m * n] == 42.0f; /* nothing written past the end */
    copy3(m, n, z, d, e);
    for (int i = 0; i < m * n * z; ++i)
      ok &= e[i] == d[i];
    ok &= e[m * n * z] == 42.0;
    memcpy(c, a, sizeof(float) * cells);
    relu_in_place(m, n, c);
    for (int i = 0; i < m * n; ++i)
      ok &= c[i] == (a[i] > 0 ? a[i] : 0);
    relu_transposed(m, n, a, c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        ok &= c[i * n + j] == (a[j * m + i] > 0 ? a[j * m + i] : 0);
    relu_i32(m * n, ai, ci);
    for (int i = 0; i < m * n; ++i)
      ok &= ci[i] == (ai[i] > 0 ? ai[i] : 0);
    free(a), free(c), free(d), free(e), free(ai), free(ci);
  }
  failures += !ok;
  printf("unary ops and copies: %s\n", ok ? "ok" : "FAILED");
}

/* M and N constants, K a variable: a result of constant extents that the
 * run-time GEMM computes (plain, with relu, and smma into its
 * accumulator's constant shape). */
static void mm_static_mn(int k, const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, 13, k), TLX_LOAD(b, k, 9)));
}

static void mm_static_mn_relu(int k, const float *a, const float *b,
                              float *c) {
  TLX_STORE(c, tlx_relu(tlx_matmul(TLX_LOAD(a, 13, k), TLX_LOAD(b, k, 9))));
}

static void smma_static_mn(int k, const int8_t *a, const int8_t *b,
                           int32_t *c) {
  TLX_STORE(c, tlx_smma(TLX_LOAD(c, 5, 7), TLX_LOAD(a, 5, k),
                        TLX_LOAD(b, k, 7)));
}

static void test_static_result(void) {
  static const int ks[] = {0, 1, 5, 64, 700};
  for (unsigned t = 0; t < sizeof ks / sizeof ks[0]; ++t) {
    int k = ks[t];
    float *a = malloc(sizeof(float) * (13 * k + 1));
    float *b = malloc(sizeof(float) * (9 * k + 1));
    float c[13 * 9], r[13 * 9], want[13 * 9];
    fill_f32(a, 13 * k, 1), fill_f32(b, 9 * k, 2);
    mm_static_mn(k, a, b, c);
    mm_static_mn_relu(k, a, b, r);
    for (int i = 0; i < 13; ++i)
      for (int j = 0; j < 9; ++j) {
        float acc = 0;
        for (int p = 0; p < k; ++p)
          acc += a[i * k + p] * b[p * 9 + j];
        want[i * 9 + j] = acc;
      }
    check_f32("static MxN", 13, 9, k, c, want, 9);
    float col[13], colwant[13];
    mm_kx1(13, k, a, b, col); /* b's first k elements as k x 1 */
    for (int i = 0; i < 13; ++i) {
      colwant[i] = 0;
      for (int p = 0; p < k; ++p)
        colwant[i] += a[i * k + p] * b[p];
    }
    check_f32("k x 1", 13, 1, k, col, colwant, 1);
    for (int i = 0; i < 13 * 9; ++i)
      want[i] = want[i] > 0 ? want[i] : 0;
    check_f32("static MxN relu", 13, 9, k, r, want, 9);
    int8_t *ia = malloc(5 * k + 1), *ib = malloc(7 * k + 1);
    int32_t ic[5 * 7], iwant[5 * 7];
    for (int i = 0; i < 5 * k; ++i)
      ia[i] = (int8_t)(i * 37 % 255 - 127);
    for (int i = 0; i < 7 * k; ++i)
      ib[i] = (int8_t)(i * 53 % 255 - 127);
    for (int i = 0; i < 5 * 7; ++i)
      ic[i] = iwant[i] = i * 3 - 50;
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 7; ++j)
        for (int p = 0; p < k; ++p)
          iwant[i * 7 + j] += ia[i * k + p] * ib[p * 7 + j];
    smma_static_mn(k, ia, ib, ic);
    if (memcmp(ic, iwant, sizeof ic) && failures++ < 5)
      printf("static MxN smma: wrong for K = %d\n", k);
    free(a), free(b), free(ia), free(ib);
  }
  printf("static result, run-time K: ok\n");
}

int main(void) {
  test_row_major();
  test_layouts();
  test_f64_i32();
  test_mma();
  test_fused();
  test_batched();
  test_unary();
  test_static_result();
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
