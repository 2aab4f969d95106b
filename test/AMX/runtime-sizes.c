// Run-time-sized int8 GEMMs on AMX tiles (docs/ops.md, "Run-time sizes"):
// the tile configurations are computed at run time, with M and N tails of
// one or two tiles (M, N = 1, 15, 16, 17, 31, 32, 33, 50; B packed in
// 64-column panels for M <= 64, whole above), K in whole 64-byte steps or
// not (A then packed), each signedness, accumulating from
// another tensor and in place, A column-major, C column-major (staged) or
// with a leading dimension, relu fused, bf16 -> f32, and M, N or K of 0
// (the scalar loops). Every element against a plain C loop, through the emulator at
// -O0 and -O2, natively where the CPU has AMX, and through the backend
// with native tile code at -O0 and -O2.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 -fplugin-arg-tlx-target=amx-emulate -Rpass=tlx-tile -Rpass-missed=tlx %s %tlx_rt -o %t2 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O0 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// Native tile code: LLVM 19 (LLVM 22's tile register allocation fails on
// these kernels: vector code, with a missed remark; lib/Compat.h).
// RUN: %if llvm-19 %{ %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-target=amx -S %s -o %t2.s %}
// RUN: %if llvm-19 %{ FileCheck %s --check-prefix=ASM < %t2.s %}
// RUN: %if llvm-19 %{ %clang_tlx -std=c11 -O0 -fplugin-arg-tlx-target=amx -S %s -o %t0.s %}
// RUN: %if llvm-19 %{ FileCheck %s --check-prefix=ASM < %t0.s %}
// RUN: %if llvm-22 %{ %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-target=amx -Rpass-missed=tlx -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LLVM22 %}
// LLVM22: remark: smma: AMX cannot do this GEMM (LLVM 22 cannot allocate the tile registers of AMX kernels whose tile shapes are computed at run time); using vector code
// With -fopenmp the larger of M and N is shared out in 64s (3 threads
// leave uneven shares), at every size here (the minimum work lowered).
// RUN: %if openmp %{ %clang_tlx -std=c11 -O2 -fopenmp -mllvm -tlx-threads-min-work=0 -fplugin-arg-tlx-target=amx-emulate -Rpass=tlx-tile %s %tlx_rt -o %tp 2>&1 | FileCheck %s --check-prefix=OMP %}
// RUN: %if openmp %{ env OMP_NUM_THREADS=3 %tp | FileCheck %s %}
// int8 B panels for M <= 64 are packed with vpermt2b: a caller with VBMI.
// RUN: %if cpu-avx512-vbmi %{ %clang_tlx -std=c11 -O2 -mavx512bw -mavx512vbmi -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %tv && %tv | FileCheck %s %}
// RUN: %if amx-hw %{ %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-target=amx %s %tlx_rt -o %th && %th | FileCheck %s %}
// REMARK: remark: smma: MxKxN known at run time i8 x i8 -> i32 GEMM on AMX, kernel amx tdpbssd 2x2 tiles
// REMARK-NOT: using vector code
// OMP: remark: smma: split over the OpenMP threads by the larger of rows and columns, in blocks of 64 rows or 64 columns, when M*N*K >= 0 at run time
// ASM: ldtilecfg
// ASM: tdpbssd
// ASM: tdpbuud
// ASM: tdpbf16ps
// CHECK: smma sizes: ok
// CHECK: signedness: ok
// CHECK: layouts: ok
// CHECK: relu: ok
// CHECK: bf16: ok
// CHECK: empty: ok
// CHECK: PASSED
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

TLX_DECLARE_TENSOR_OPS_AS(tlx_int32_result_t, i32)
TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)

static int failures;

/* c = acc + a x b: acc another tensor (from) or c itself (in place). */
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

/* Both forms of OP at m x n x k against the plain loop. */
#define MMA_CHECK(OP, TA, TB, m, n, k)                                         \
  do {                                                                         \
    TA *a = malloc((size_t)(m) * (k) + 1);                                     \
    TB *b = malloc((size_t)(k) * (n) + 1);                                     \
    int32_t *acc = malloc(4 * (size_t)(m) * (n) + 4);                          \
    int32_t *c = malloc(4 * (size_t)(m) * (n) + 4);                            \
    for (int i = 0; i < (m) * (k); ++i)                                        \
      a[i] = (TA)(i * 37 + 11);                                                \
    for (int i = 0; i < (k) * (n); ++i)                                        \
      b[i] = (TB)(i * 53 + 7);                                                 \
    for (int i = 0; i < (m) * (n); ++i)                                        \
      acc[i] = i * 3 - 50;                                                     \
    OP##_from(m, n, k, a, b, acc, c);                                          \
    int ok = 1;                                                                \
    for (int i = 0; i < (m); ++i)                                              \
      for (int j = 0; j < (n); ++j) {                                          \
        int32_t sum = acc[i * (n) + j];                                        \
        for (int p = 0; p < (k); ++p)                                          \
          sum += (int32_t)a[i * (k) + p] * (int32_t)b[p * (n) + j];            \
        ok &= c[i * (n) + j] == sum;                                           \
      }                                                                        \
    OP##_inplace(m, n, k, a, b, c); /* c = acc + 2 a x b */                    \
    for (int i = 0; i < (m); ++i)                                              \
      for (int j = 0; j < (n); ++j) {                                          \
        int32_t sum = acc[i * (n) + j];                                        \
        for (int p = 0; p < (k); ++p)                                          \
          sum += 2 * (int32_t)a[i * (k) + p] * (int32_t)b[p * (n) + j];        \
        ok &= c[i * (n) + j] == sum;                                           \
      }                                                                        \
    if (!ok && failures++ < 5)                                                 \
      printf(#OP " %dx%dx%d: wrong\n", m, n, k);                               \
    free(a), free(b), free(acc), free(c);                                      \
  } while (0)

static const int edges[] = {1, 15, 16, 17, 31, 32, 33, 50};
enum { NEDGES = sizeof edges / sizeof edges[0] };

static void test_sizes(void) {
  static const int ks[] = {1, 63, 64, 65, 192};
  int before = failures;
  for (int mi = 0; mi < NEDGES; ++mi)
    for (int ni = 0; ni < NEDGES; ++ni)
      for (unsigned ki = 0; ki < sizeof ks / sizeof ks[0]; ++ki) {
        int m = edges[mi], n = edges[ni], k = ks[ki];
        MMA_CHECK(smma, int8_t, int8_t, m, n, k);
      }
  printf("smma sizes: %s\n", failures == before ? "ok" : "FAILED");
}

static void test_signedness(void) {
  static const int sizes[][3] = {
      {17, 33, 65}, {64, 64, 128}, {70, 97, 300}, {150, 130, 70}};
  int before = failures;
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    MMA_CHECK(umma, uint8_t, uint8_t, m, n, k);
    MMA_CHECK(usmma, uint8_t, int8_t, m, n, k);
    MMA_CHECK(summa, int8_t, uint8_t, m, n, k);
  }
  printf("signedness: %s\n", failures == before ? "ok" : "FAILED");
}

/* c = acc + a x b with a stored column-major (k rows of m, lda apart;
 * shapes are in storage order), acc and c column-major (C then goes
 * through a row-major staging copy) or row-major with rows ldc apart. */
static void smma_cm(int m, int n, int k, int lda, const int8_t *a,
                    const int8_t *b, const int32_t *acc, int32_t *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(k, m), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_STRIDES(0, lda));
  tlx_token_t tb = TLX_LOAD(b, k, n);
  tlx_token_t tacc = tensor_load(acc, TLX_SHAPE(n, m), TLX_LAYOUT(1, 0),
                                 TLX_ZEROS(2), TLX_STRIDES(0, 0));
  tlx_int32_result_t r = tensor_smma_i32(tacc, ta, tb);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(n, m), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  tensor_store(c, tr, TLX_STRIDES(0, 0));
}

static void smma_ld(int m, int n, int k, int lda, int ldc, const int8_t *a,
                    const int8_t *b, int32_t *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(k, m), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_STRIDES(0, lda));
  tlx_token_t tc = tensor_load(c, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_STRIDES(0, ldc));
  tlx_int32_result_t r = tensor_smma_i32(tc, ta, TLX_LOAD(b, k, n));
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(c, tr, TLX_STRIDES(0, ldc));
}

static void test_layouts(void) {
  static const int sizes[][3] = {
      {5, 7, 3}, {33, 17, 70}, {64, 80, 129}, {70, 200, 65}};
  int before = failures;
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    int lda = m + 3, ldc = n + 5;
    int8_t *a = malloc((size_t)k * lda), *b = malloc((size_t)k * n);
    int32_t *acc = malloc(4 * (size_t)m * n), *c = malloc(4 * (size_t)m * n);
    int32_t *cl = malloc(4 * (size_t)m * ldc), *want = malloc(4 * (size_t)m * n);
    for (int i = 0; i < k * lda; ++i)
      a[i] = (int8_t)(i * 29 + 5);
    for (int i = 0; i < k * n; ++i)
      b[i] = (int8_t)(i * 41 + 3);
    for (int i = 0; i < m * n; ++i)
      acc[i] = 1000 - i;
    for (int i = 0; i < m * ldc; ++i)
      cl[i] = i % ldc < n ? acc[i / ldc * n + i % ldc] : -7;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        int32_t sum = acc[j * m + i]; /* acc column-major */
        for (int p = 0; p < k; ++p)
          sum += (int32_t)a[p * lda + i] * (int32_t)b[p * n + j];
        want[i * n + j] = sum;
      }
    smma_cm(m, n, k, lda, a, b, acc, c);
    int ok = 1;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        ok &= c[j * m + i] == want[i * n + j];
    smma_ld(m, n, k, lda, ldc, a, b, cl);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < ldc; ++j) {
        int32_t sum = j < n ? acc[i * n + j] : -7;
        for (int p = 0; j < n && p < k; ++p)
          sum += (int32_t)a[p * lda + i] * (int32_t)b[p * n + j];
        ok &= cl[i * ldc + j] == sum;
      }
    if (!ok && failures++ < 5)
      printf("layouts %dx%dx%d: wrong\n", m, n, k);
    free(a), free(b), free(acc), free(c), free(cl), free(want);
  }
  printf("layouts: %s\n", failures == before ? "ok" : "FAILED");
}

/* relu applied as each block of C is written back. */
static void smma_relu(int m, int n, int k, const int8_t *a, const int8_t *b,
                      const int32_t *acc, int32_t *c) {
  TLX_STORE(c, tlx_relu(tlx_smma(TLX_LOAD(acc, m, n), TLX_LOAD(a, m, k),
                                 TLX_LOAD(b, k, n))));
}

static void test_relu(void) {
  static const int sizes[][3] = {
      {1, 1, 1}, {17, 49, 65}, {48, 40, 64}, {140, 70, 65}};
  int before = failures;
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    int8_t *a = malloc((size_t)m * k), *b = malloc((size_t)k * n);
    int32_t *acc = malloc(4 * (size_t)m * n), *c = malloc(4 * (size_t)m * n);
    for (int i = 0; i < m * k; ++i)
      a[i] = (int8_t)(i * 37 + 11);
    for (int i = 0; i < k * n; ++i)
      b[i] = (int8_t)(i * 53 + 7);
    for (int i = 0; i < m * n; ++i)
      acc[i] = (i % 7 - 3) * 500;
    smma_relu(m, n, k, a, b, acc, c);
    int ok = 1;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        int32_t sum = acc[i * n + j];
        for (int p = 0; p < k; ++p)
          sum += (int32_t)a[i * k + p] * (int32_t)b[p * n + j];
        ok &= c[i * n + j] == (sum > 0 ? sum : 0);
      }
    if (!ok && failures++ < 5)
      printf("relu %dx%dx%d: wrong\n", m, n, k);
    free(a), free(b), free(acc), free(c);
  }
  printf("relu: %s\n", failures == before ? "ok" : "FAILED");
}

/* bf16 x bf16 -> f32 (tdpbf16ps; 32 k values per tile step): small
 * integers, so every product and sum is exact in any order. */
static void mm_bf16(int m, int n, int k, const __bf16 *a, const __bf16 *b,
                    float *c) {
  tlx_token_t ta = TLX_LOAD(a, m, k), tb = TLX_LOAD(b, k, n);
  tlx_float_result_t r = tensor_matmul_f32(ta, tb);
  tensor_store(c,
               tensor_typeinfo(r, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

static void test_bf16(void) {
  static const int sizes[][3] = {
      {1, 1, 1}, {17, 33, 31}, {32, 32, 64}, {50, 20, 33}, {33, 47, 96}};
  int before = failures;
  for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    __bf16 *a = malloc(sizeof(__bf16) * m * k);
    __bf16 *b = malloc(sizeof(__bf16) * k * n);
    float *c = malloc(sizeof(float) * m * n);
    for (int i = 0; i < m * k; ++i)
      a[i] = (__bf16)(float)(i * 7 % 17 - 8);
    for (int i = 0; i < k * n; ++i)
      b[i] = (__bf16)(float)(i * 5 % 13 - 6);
    mm_bf16(m, n, k, a, b, c);
    int ok = 1;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float sum = 0;
        for (int p = 0; p < k; ++p)
          sum += (float)a[i * k + p] * (float)b[p * n + j];
        ok &= c[i * n + j] == sum;
      }
    if (!ok && failures++ < 5)
      printf("bf16 %dx%dx%d: wrong\n", m, n, k);
    free(a), free(b), free(c);
  }
  printf("bf16: %s\n", failures == before ? "ok" : "FAILED");
}

/* K = 0 copies acc; M or N = 0 writes nothing. */
static void test_empty(void) {
  int8_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  int32_t acc[6] = {1, 2, 3, 4, 5, 6}, c[6] = {9, 9, 9, 9, 9, 9};
  int before = failures;
  smma_from(2, 3, 0, a, b, acc, c);
  for (int i = 0; i < 6; ++i)
    if (c[i] != acc[i] && failures++ < 5)
      printf("empty: K = 0 gives c[%d] = %d\n", i, c[i]);
  int32_t d[6] = {9, 9, 9, 9, 9, 9};
  smma_from(0, 3, 2, a, b, acc, d);
  smma_from(2, 0, 2, a, b, acc, d);
  for (int i = 0; i < 6; ++i)
    if (d[i] != 9 && failures++ < 5)
      printf("empty: M or N = 0 wrote d[%d]\n", i);
  printf("empty: %s\n", failures == before ? "ok" : "FAILED");
}

int main(void) {
  test_sizes();
  test_signedness();
  test_layouts();
  test_relu();
  test_bf16();
  test_empty();
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
