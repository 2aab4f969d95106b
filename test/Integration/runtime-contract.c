// contract (numpy tensordot) with sizes that are C variables (docs/ops.md,
// "Run-time sizes"): one axis and two, axes in any position (operands
// packed first), a full contraction, a result stored column-major and
// through a leading dimension, a result read by relu, f32 and i32 - every
// element against plain C, at sizes 0, 1, tails and beyond.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 %t0 | FileCheck %s %}
// RUN: %clang_tlx -std=c11 -O2 -Rpass=tlx-nd-to-2d %s %tlx_rt -o %t2 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: contract: ?x?x? x ?x? with extents known at run time -> one MxKxN 2-D matmul of the products of its free and contracted extents, operands packed first unless they are already
// CHECK: last axis: ok
// CHECK: two axes: ok
// CHECK: transposed axes: ok
// CHECK: full: ok
// CHECK: column-major result: ok
// CHECK: strided result: ok
// CHECK: relu: ok
// CHECK: int32: ok
// CHECK: PASSED
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)

static int failures;

static void expect(const char *what, int a, int b, long i, double got,
                   double want) {
  if (got != want && failures++ < 10)
    printf("%s %dx%d: element %ld is %g, want %g\n", what, a, b, i, got,
           want);
}

/* Small integers and quarters: every sum is exact in any order. */
static float *fill_f32(long n, int seed) {
  float *p = malloc(sizeof(float) * (n + 1));
  for (long i = 0; i < n; ++i)
    p[i] = (float)((i * 7 + seed * 13) % 9 - 4) * 0.25f;
  return p;
}

static const int sizes[][3] = {{0, 3, 2}, {1, 1, 1}, {3, 5, 2},
                               {2, 17, 3}, {9, 1, 4}, {17, 33, 5}};
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))

/* c[m,n,q] = sum_p a[m,n,p] b[p,q] */
static void last_axis(int m, int n, int p, int q, const float *a,
                      const float *b, float *c) {
  TLX_STORE(c, tlx_contract(TLX_LOAD(a, m, n, p), TLX_LOAD(b, p, q),
                            TLX_DIMS(2), TLX_DIMS(0)));
}

/* c[m,q] = sum_{n,p} a[m,n,p] b[n,p,q] */
static void two_axes(int m, int n, int p, int q, const float *a,
                     const float *b, float *c) {
  TLX_STORE(c, tlx_contract(TLX_LOAD(a, m, n, p), TLX_LOAD(b, n, p, q),
                            TLX_DIMS(1, 2), TLX_DIMS(0, 1)));
}

/* c[n,q] = sum_{m,p} a[m,n,p] b[q,p,m]: both operands packed first */
static void transposed_axes(int m, int n, int p, int q, const float *a,
                            const float *b, float *c) {
  TLX_STORE(c, tlx_contract(TLX_LOAD(a, m, n, p), TLX_LOAD(b, q, p, m),
                            TLX_DIMS(0, 2), TLX_DIMS(2, 1)));
}

/* c[0] = sum a[m,n] b[m,n] */
static void full(int m, int n, const float *a, const float *b, float *c) {
  TLX_STORE(c, tlx_contract(TLX_LOAD(a, m, n), TLX_LOAD(b, m, n),
                            TLX_DIMS(0, 1), TLX_DIMS(0, 1)));
}

/* c = a x b stored column-major: n x m in memory */
static void column_major(int m, int k, int n, const float *a, const float *b,
                         float *c) {
  tensor_store(c,
               tensor_typeinfo(tensor_contract_f32(TLX_LOAD(a, m, k),
                                               TLX_LOAD(b, k, n), TLX_DIMS(1),
                                               TLX_DIMS(0)),
                               TLX_SHAPE(n, m), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

/* c = a x b into rows of ldc elements */
static void strided(int m, int k, int n, int ldc, const float *a,
                    const float *b, float *c) {
  tensor_store(c,
               tlx_contract(TLX_LOAD(a, m, k), TLX_LOAD(b, k, n), TLX_DIMS(1),
                            TLX_DIMS(0)),
               TLX_STRIDES(0, ldc));
}

static void relu_of(int m, int k, int n, const float *a, const float *b,
                    float *c) {
  TLX_STORE(c, tlx_relu(tlx_contract(TLX_LOAD(a, k, m), TLX_LOAD(b, k, n),
                                     TLX_DIMS(0), TLX_DIMS(0))));
}

static void contract_i32(int m, int k, int n, const int *a, const int *b,
                         int *c) {
  TLX_STORE(c, tlx_contract(TLX_LOAD(a, k, m), TLX_LOAD(b, n, k), TLX_DIMS(0),
                            TLX_DIMS(1)));
}

int main(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1], p = sizes[s][2], q = 3 + s;
    float *a = fill_f32((long)m * n * p, 1), *b = fill_f32((long)n * p * q, 2);
    float *c = fill_f32((long)m * n * q + (long)m * q + (long)n * q + 1, 3);

    last_axis(m, n, p, q, a, b, c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        for (int l = 0; l < q; ++l) {
          float acc = 0;
          for (int r = 0; r < p; ++r)
            acc += a[(i * n + j) * p + r] * b[r * q + l];
          expect("last axis", m, q, (i * n + j) * q + l,
                 c[(i * n + j) * q + l], acc);
        }

    two_axes(m, n, p, q, a, b, c);
    for (int i = 0; i < m; ++i)
      for (int l = 0; l < q; ++l) {
        float acc = 0;
        for (int j = 0; j < n; ++j)
          for (int r = 0; r < p; ++r)
            acc += a[(i * n + j) * p + r] * b[(j * p + r) * q + l];
        expect("two axes", m, q, i * q + l, c[i * q + l], acc);
      }

    float *bt = fill_f32((long)q * p * m, 4);
    transposed_axes(m, n, p, q, a, bt, c);
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < q; ++l) {
        float acc = 0;
        for (int i = 0; i < m; ++i)
          for (int r = 0; r < p; ++r)
            acc += a[(i * n + j) * p + r] * bt[(l * p + r) * m + i];
        expect("transposed axes", n, q, j * q + l, c[j * q + l], acc);
      }

    float *a2 = fill_f32((long)m * n, 5), *b2 = fill_f32((long)m * n, 6);
    full(m, n, a2, b2, c);
    {
      float acc = 0;
      for (long i = 0; i < (long)m * n; ++i)
        acc += a2[i] * b2[i];
      expect("full", m, n, 0, c[0], acc);
    }

    /* a2 as m x n, b2 as n x m: c = a2 b2 (m x m) */
    column_major(m, n, m, a2, b2, c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) {
        float acc = 0;
        for (int r = 0; r < n; ++r)
          acc += a2[i * n + r] * b2[r * m + j];
        expect("column-major result", m, m, j * m + i, c[j * m + i], acc);
      }

    int ldc = m + 2;
    float *cs = fill_f32((long)m * ldc + 1, 7), *keep = fill_f32((long)m * ldc + 1, 7);
    strided(m, n, m, ldc, a2, b2, cs);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < ldc; ++j) {
        float want = keep[i * ldc + j];
        if (j < m) {
          want = 0;
          for (int r = 0; r < n; ++r)
            want += a2[i * n + r] * b2[r * m + j];
        }
        expect("strided result", m, ldc, i * ldc + j, cs[i * ldc + j], want);
      }

    /* a2 read as n x m (k x m), b2 as n x m (k x n with n = m) */
    relu_of(m, n, m, a2, b2, c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) {
        float acc = 0;
        for (int r = 0; r < n; ++r)
          acc += a2[r * m + i] * b2[r * m + j];
        expect("relu", m, m, i * m + j, c[i * m + j], acc > 0 ? acc : 0);
      }

    int *ia = malloc(sizeof(int) * ((long)n * m + 1));
    int *ib = malloc(sizeof(int) * ((long)q * n + 1));
    int *ic = malloc(sizeof(int) * ((long)m * q + 1));
    for (long i = 0; i < (long)n * m; ++i)
      ia[i] = (int)(i % 11) - 5;
    for (long i = 0; i < (long)q * n; ++i)
      ib[i] = (int)(i % 7) - 3;
    contract_i32(m, n, q, ia, ib, ic);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < q; ++j) {
        int acc = 0;
        for (int r = 0; r < n; ++r)
          acc += ia[r * m + i] * ib[j * n + r];
        expect("int32", m, q, i * q + j, ic[i * q + j], acc);
      }
    free(a), free(b), free(c), free(bt), free(a2), free(b2), free(cs);
    free(keep), free(ia), free(ib), free(ic);
  }
  printf("last axis: ok\ntwo axes: ok\ntransposed axes: ok\nfull: ok\n"
         "column-major result: ok\nstrided result: ok\nrelu: ok\nint32: ok\n");
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
