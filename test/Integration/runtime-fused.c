// The index-map ops and reduce.* with sizes that are C variables (docs/ops.md,
// "Run-time sizes"): transpose (logical and permuted), pad (constant and
// run-time amounts), concat on every axis, broadcast (to a shape, and the
// fill form), every reduce.* with row, column, full and pooling windows
// (run-time windows and strides too), reshape.block and reshape.permute,
// and chains of them with unary ops -
// every element against a plain C loop, at sizes 0, 1, tails of the vector
// width and beyond it, f32, f64, i32 and i8, column-major and strided
// operands, strided destinations.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// Empty operands of pad and concat are never read (valgrind: no read
// outside any allocation).
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 %t2 | FileCheck %s %}
// RUN: %clang_tlx -std=c11 -O2 -Rpass=tlx %s %tlx_rt -o %t2 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang_tlx -std=c11 -O2 -march=x86-64 %s %tlx_rt -o %tb && %tb | FileCheck %s
// With -fopenmp a loop nest is split over the threads by its outermost
// loop when it does enough work at run time; 3 threads leave uneven shares.
// RUN: %if openmp %{ %clang_tlx -std=c11 -O2 -fopenmp -Rpass=tlx-legalize %s %tlx_rt -o %tp 2>&1 | FileCheck %s --check-prefix=OMP %}
// RUN: %if openmp %{ env OMP_NUM_THREADS=3 %tp | FileCheck %s %}
// RUN: %if openmp %{ %clang_tlx -std=c11 -O0 -fopenmp %s %tlx_rt -o %tp0 && env OMP_NUM_THREADS=2 %tp0 | FileCheck %s %}
// OMP: remark: transpose with run-time extents, in one loop nest, {{[0-9]+}} lanes wide, its outermost loop split over the OpenMP threads when it writes at least {{[0-9]+}} elements at run time
// REMARK: remark: pad, transpose, relu with run-time extents, in one loop nest, {{[0-9]+}} lanes wide
// CHECK: transpose: ok
// CHECK: pad: ok
// CHECK: concat: ok
// CHECK: broadcast: ok
// CHECK: reduce: ok
// CHECK: chains: ok
// CHECK: reshapes: ok
// CHECK: strided: ok
// CHECK: large: ok
// CHECK: PASSED
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)
TLX_DECLARE_TENSOR_OPS_AS(tlx_int32_result_t, i32)

static int failures;

/* Reports the first difference of one case. */
static void expect(const char *what, int a, int b, long i, double got,
                   double want) {
  if (got == want || (got != got && want != want))
    return;
  if (failures++ < 8)
    printf("%s (%d, %d): element %ld = %g, want %g\n", what, a, b, i, got,
           want);
}

static float *fill_f32(long n, int seed) {
  float *p = malloc(sizeof(float) * (n + 1));
  for (long i = 0; i < n; ++i)
    p[i] = (float)((i * 7 + seed * 5) % 13) - 6.0f;
  return p;
}

static int *fill_i32(long n, int seed) {
  int *p = malloc(sizeof(int) * (n + 1));
  for (long i = 0; i < n; ++i)
    p[i] = (int)((i * 31 + seed * 11) % 23) - 11;
  return p;
}

static const int sizes[][2] = {{0, 3}, {1, 1}, {3, 5}, {2, 17}, {17, 33},
                               {64, 67}, {5, 0}};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

/*===--- transpose --------------------------------------------------------===*/

static void transpose_f32(int m, int n, const float *a, float *t) {
  TLX_STORE(t, tlx_transpose(TLX_LOAD(a, m, n)));
}

static void transpose_i8(int m, int n, const signed char *a, signed char *t) {
  TLX_STORE(t, tlx_transpose(TLX_LOAD(a, m, n)));
}

/* A layout change: logical d0 x d1 x d2 stored as d2, d0, d1. */
static void permute_i32(int d0, int d1, int d2, const int *a, int *t) {
  TLX_STORE(t, tlx_transpose(TLX_LOAD(a, d0, d1, d2), TLX_LAYOUT(2, 0, 1)));
}

static void test_transpose(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    float *a = fill_f32((long)m * n, s), *t = fill_f32((long)m * n, 9);
    transpose_f32(m, n, a, t);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        expect("transpose f32", m, n, j * m + i, t[j * m + i], a[i * n + j]);
    signed char *b = malloc(m * n + 1), *u = malloc(m * n + 1);
    for (int i = 0; i < m * n; ++i)
      b[i] = (signed char)(i * 37 - 100);
    transpose_i8(m, n, b, u);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        expect("transpose i8", m, n, j * m + i, u[j * m + i], b[i * n + j]);
    int d2 = s % 3 + 1;
    int *c = fill_i32((long)m * n * d2, s), *v = fill_i32((long)m * n * d2, 1);
    permute_i32(m, n, d2, c, v);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < d2; ++k) {
          long at = ((long)k * m + i) * n + j;
          expect("transpose <2,0,1>", m, n, at, v[at], c[(i * n + j) * d2 + k]);
        }
    free(a), free(t), free(b), free(u), free(c), free(v);
  }
  printf("transpose: %s\n", failures ? "FAILED" : "ok");
}

/*===--- pad ---------------------------------------------------------------===*/

static void pad_f32(int m, int n, const float *a, float *p) {
  TLX_STORE(p, tlx_pad(TLX_LOAD(a, m, n), TLX_SHAPE(1, 2), TLX_SHAPE(3, 0),
                       -7.5f));
}

static void pad_i32_runtime(int m, int n, int lo0, int lo1, int hi0, int hi1,
                            const int *a, int *p) {
  TLX_STORE(p, tlx_pad(TLX_LOAD(a, m, n), TLX_SHAPE(lo0, lo1),
                       TLX_SHAPE(hi0, hi1), 42));
}

static void test_pad(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    float *a = fill_f32((long)m * n, s);
    int pm = m + 4, pn = n + 2;
    float *p = fill_f32((long)pm * pn, 3);
    pad_f32(m, n, a, p);
    for (int i = 0; i < pm; ++i)
      for (int j = 0; j < pn; ++j) {
        int inside = i >= 1 && i < 1 + m && j >= 2 && j < 2 + n;
        expect("pad f32", m, n, (long)i * pn + j, p[i * pn + j],
               inside ? a[(i - 1) * n + j - 2] : -7.5f);
      }
    int lo0 = s % 3, lo1 = (s + 1) % 4, hi0 = s % 2, hi1 = 5 - s % 5;
    int *b = fill_i32((long)m * n, s);
    int qm = m + lo0 + hi0, qn = n + lo1 + hi1;
    int *q = fill_i32((long)qm * qn, 1);
    pad_i32_runtime(m, n, lo0, lo1, hi0, hi1, b, q);
    for (int i = 0; i < qm; ++i)
      for (int j = 0; j < qn; ++j) {
        int inside = i >= lo0 && i < lo0 + m && j >= lo1 && j < lo1 + n;
        expect("pad i32, run-time amounts", m, n, (long)i * qn + j,
               q[i * qn + j], inside ? b[(i - lo0) * n + j - lo1] : 42);
      }
    free(a), free(p), free(b), free(q);
  }
  printf("pad: %s\n", failures > before ? "FAILED" : "ok");
}

/*===--- concat ------------------------------------------------------------===*/

static void concat3(int axis, int d0, int d1, int d2, int e, const float *a,
                    const float *b, float *c) {
  /* b has extent e along the axis, d0/d1/d2 elsewhere. */
  int b0 = axis == 0 ? e : d0, b1 = axis == 1 ? e : d1, b2 = axis == 2 ? e : d2;
  if (axis == 0)
    TLX_STORE(c, tlx_concat(TLX_LOAD(a, d0, d1, d2), TLX_LOAD(b, b0, b1, b2), 0));
  else if (axis == 1)
    TLX_STORE(c, tlx_concat(TLX_LOAD(a, d0, d1, d2), TLX_LOAD(b, b0, b1, b2), 1));
  else
    TLX_STORE(c, tlx_concat(TLX_LOAD(a, d0, d1, d2), TLX_LOAD(b, b0, b1, b2), 2));
}

/* One operand of constant shape: m x 4 beside m x n. */
static void concat_mixed(int m, int n, const int *a, const int *b, int *c) {
  TLX_STORE(c, tlx_concat(TLX_LOAD(a, m, 4), TLX_LOAD(b, m, n), 1));
}

static void test_concat(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1], d2 = s % 3 + 1, e = (s * 5) % 7;
    for (int axis = 0; axis < 3; ++axis) {
      int d[3] = {m, n, d2}, bd[3] = {m, n, d2}, cd[3] = {m, n, d2};
      bd[axis] = e;
      cd[axis] += e;
      long na = (long)m * n * d2, nb = (long)bd[0] * bd[1] * bd[2];
      float *a = fill_f32(na, s), *b = fill_f32(nb, s + 1);
      float *c = fill_f32((long)cd[0] * cd[1] * cd[2], 2);
      concat3(axis, m, n, d2, e, a, b, c);
      for (int i = 0; i < cd[0]; ++i)
        for (int j = 0; j < cd[1]; ++j)
          for (int k = 0; k < cd[2]; ++k) {
            int x[3] = {i, j, k};
            float want;
            if (x[axis] < d[axis]) {
              want = a[((long)i * d[1] + j) * d[2] + k];
            } else {
              x[axis] -= d[axis];
              want = b[((long)x[0] * bd[1] + x[1]) * bd[2] + x[2]];
            }
            long at = ((long)i * cd[1] + j) * cd[2] + k;
            expect("concat", axis, s, at, c[at], want);
          }
      free(a), free(b), free(c);
    }
    int *a = fill_i32((long)m * 4, s), *b = fill_i32((long)m * n, 7);
    int *c = fill_i32((long)m * (n + 4), 1);
    concat_mixed(m, n, a, b, c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n + 4; ++j)
        expect("concat mixed", m, n, (long)i * (n + 4) + j, c[i * (n + 4) + j],
               j < 4 ? a[i * 4 + j] : b[i * n + j - 4]);
    free(a), free(b), free(c);
  }
  printf("concat: %s\n", failures > before ? "FAILED" : "ok");
}

/*===--- broadcast ---------------------------------------------------------===*/

/* A row of n to m x n, and a 1 x n x 1 column block to m x n x k. */
static void broadcast_row(int m, int n, const float *row, float *o) {
  tlx_float_result_t r = tensor_broadcast_f32(TLX_LOAD(row, n));
  TLX_STORE(o, tensor_typeinfo(r, TLX_SHAPE(m, n), TLX_IDENTITY_LAYOUT(2),
                               TLX_ZEROS(2)));
}

static void broadcast_3d(int m, int n, int k, const int *col, int *o) {
  tlx_int32_result_t r = tensor_broadcast_i32(TLX_LOAD(col, 1, n, 1));
  TLX_STORE(o, tensor_typeinfo(r, TLX_SHAPE(m, n, k), TLX_IDENTITY_LAYOUT(3),
                               TLX_ZEROS(3)));
}

/* The fill form: a tensor of a's shape, every element 2.5. */
static void broadcast_fill(int m, int n, const float *a, float *o) {
  TLX_STORE(o, tlx_broadcast(TLX_LOAD(a, m, n), 2.5f));
}

static void test_broadcast(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = s % 4 + 1;
    float *row = fill_f32(n, s), *o = fill_f32((long)m * n, 1);
    broadcast_row(m, n, row, o);
    for (long i = 0; i < (long)m * n; ++i)
      expect("broadcast row", m, n, i, o[i], row[i % (n ? n : 1)]);
    broadcast_fill(m, n, row, o);
    for (long i = 0; i < (long)m * n; ++i)
      expect("broadcast fill", m, n, i, o[i], 2.5f);
    int *col = fill_i32(n, s), *p = fill_i32((long)m * n * k, 2);
    broadcast_3d(m, n, k, col, p);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        for (int q = 0; q < k; ++q) {
          long at = ((long)i * n + j) * k + q;
          expect("broadcast 1xnx1", m, n, at, p[at], col[j]);
        }
    free(row), free(o), free(col), free(p);
  }
  printf("broadcast: %s\n", failures > before ? "FAILED" : "ok");
}

/*===--- reduce.* ----------------------------------------------------------===*/

enum { MAX, MIN, ADD, MUL, AND, OR, XOR };

static void reduce_f32(int kind, int m, int n, int wm, int wn, int sm, int sn,
                       const float *a, float *o) {
#define t TLX_LOAD(a, m, n)
  switch (kind) {
  case MAX:
    TLX_STORE(o, tlx_reduce_max(t, TLX_SHAPE(wm, wn), TLX_SHAPE(sm, sn)));
    break;
  case MIN:
    TLX_STORE(o, tlx_reduce_min(t, TLX_SHAPE(wm, wn), TLX_SHAPE(sm, sn)));
    break;
  case ADD:
    TLX_STORE(o, tlx_reduce_add(t, TLX_SHAPE(wm, wn), TLX_SHAPE(sm, sn)));
    break;
  default:
    TLX_STORE(o, tlx_reduce_mul(t, TLX_SHAPE(wm, wn), TLX_SHAPE(sm, sn)));
    break;
  }
#undef t
}

static void reduce_i32(int kind, int m, int n, int wm, int wn, int sm, int sn,
                       const int *a, int *o) {
#define t TLX_LOAD(a, m, n)
  switch (kind) {
  case MAX:
    TLX_STORE(o, tlx_reduce_max(t, TLX_SHAPE(wm, wn), TLX_SHAPE(sm, sn)));
    break;
  case AND:
    TLX_STORE(o, tlx_reduce_and(t, TLX_SHAPE(wm, wn), TLX_SHAPE(sm, sn)));
    break;
  case OR:
    TLX_STORE(o, tlx_reduce_or(t, TLX_SHAPE(wm, wn), TLX_SHAPE(sm, sn)));
    break;
  case XOR:
    TLX_STORE(o, tlx_reduce_xor(t, TLX_SHAPE(wm, wn), TLX_SHAPE(sm, sn)));
    break;
  default:
    TLX_STORE(o, tlx_reduce_add(t, TLX_SHAPE(wm, wn), TLX_SHAPE(sm, sn)));
    break;
  }
#undef t
}

/* Constant window and strides over run-time extents: 2x2 pooling. */
static void pool_f64(int m, int n, const double *a, double *o) {
  TLX_STORE(o, tlx_reduce_max(TLX_LOAD(a, m, n), TLX_SHAPE(2, 2),
                              TLX_SHAPE(2, 2)));
}

static double fold(int kind, double acc, double x) {
  switch (kind) {
  case MAX: return x > acc ? x : acc;
  case MIN: return x < acc ? x : acc;
  case ADD: return acc + x;
  default: return acc * x;
  }
}

static int fold_i(int kind, int acc, int x) {
  switch (kind) {
  case MAX: return x > acc ? x : acc;
  case AND: return acc & x;
  case OR: return acc | x;
  case XOR: return acc ^ x;
  default: return (int)((unsigned)acc + (unsigned)x);
  }
}

static void test_reduce(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    if (m == 0 || n == 0)
      continue; /* a window is at least 1 and at most the extent */
    /* row, column, full, pooling (2x3 by 2x1 where it fits) */
    int windows[4][4] = {{1, n, 1, 1}, {m, 1, 1, 1}, {m, n, 1, 1},
                         {m > 1 ? 2 : 1, n > 2 ? 3 : 1, m > 1 ? 2 : 1, 1}};
    float *a = fill_f32((long)m * n, s);
    for (long i = 0; i < (long)m * n; ++i)
      a[i] = a[i] * 0.25f + (i % 5 == 0 ? 0.5f : 1.0f); /* products stay exact */
    int *b = fill_i32((long)m * n, s);
    for (int w = 0; w < 4; ++w) {
      int wm = windows[w][0], wn = windows[w][1], sm = windows[w][2],
          sn = windows[w][3];
      int om = (m - wm) / sm + 1, on = (n - wn) / sn + 1;
      float *o = fill_f32((long)om * on, 1);
      int *p = fill_i32((long)om * on, 1);
      for (int kind = MAX; kind <= XOR; ++kind) {
        if (kind <= MUL && !(kind == MUL && wm * wn > 12)) {
          reduce_f32(kind, m, n, wm, wn, sm, sn, a, o);
          for (int i = 0; i < om; ++i)
            for (int j = 0; j < on; ++j) {
              double acc = a[(i * sm) * n + j * sn];
              for (int u = 0; u < wm; ++u)
                for (int v = 0; v < wn; ++v)
                  if (u || v)
                    acc = (float)fold(kind, acc, a[(i * sm + u) * n + j * sn + v]);
              expect("reduce f32", kind, w, (long)i * on + j, o[i * on + j], acc);
            }
        }
        if (kind == MAX || kind >= AND || kind == ADD) {
          reduce_i32(kind, m, n, wm, wn, sm, sn, b, p);
          for (int i = 0; i < om; ++i)
            for (int j = 0; j < on; ++j) {
              int acc = b[(i * sm) * n + j * sn];
              for (int u = 0; u < wm; ++u)
                for (int v = 0; v < wn; ++v)
                  if (u || v)
                    acc = fold_i(kind, acc, b[(i * sm + u) * n + j * sn + v]);
              expect("reduce i32", kind, w, (long)i * on + j, p[i * on + j], acc);
            }
        }
      }
      free(o), free(p);
    }
    if (m >= 2 && n >= 2) {
      double *c = malloc(sizeof(double) * m * n);
      for (long i = 0; i < (long)m * n; ++i)
        c[i] = (double)((i * 17) % 29) - 14.5;
      int om = (m - 2) / 2 + 1, on = (n - 2) / 2 + 1;
      double *q = malloc(sizeof(double) * om * on);
      pool_f64(m, n, c, q);
      for (int i = 0; i < om; ++i)
        for (int j = 0; j < on; ++j) {
          double acc = c[2 * i * n + 2 * j];
          for (int u = 0; u < 2; ++u)
            for (int v = 0; v < 2; ++v)
              acc = fold(MAX, acc, c[(2 * i + u) * n + 2 * j + v]);
          expect("pool f64", m, n, (long)i * on + j, q[i * on + j], acc);
        }
      free(c), free(q);
    }
    free(a), free(b);
  }
  printf("reduce: %s\n", failures > before ? "FAILED" : "ok");
}

/*===--- chains ------------------------------------------------------------===*/

/* relu(transpose(pad(a))): (n + 3) x (m + 2). */
static void chain_pad_transpose(int m, int n, const float *a, float *o) {
  TLX_STORE(o, tlx_relu(tlx_transpose(tlx_pad(
                   TLX_LOAD(a, m, n), TLX_SHAPE(1, 2), TLX_SHAPE(1, 1), -1.0f))));
}

/* Row maxima of tanh(a), beside the row sums of a's transpose's transpose:
 * two m x 1 columns joined into m x 2. */
static void chain_concat_reduce(int m, int n, const float *a, float *o) {
  tlx_token_t t = TLX_LOAD(a, m, n);
  tlx_token_t u = TLX_LOAD(a, m, n);
  TLX_STORE(o, tlx_concat(
                   tlx_reduce_max(tlx_tanh(t), TLX_SHAPE(1, n), TLX_SHAPE(1, 1)),
                   tlx_reduce_add(tlx_transpose(tlx_transpose(u)),
                                  TLX_SHAPE(1, n), TLX_SHAPE(1, 1)),
                   1));
}

static void test_chains(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    float *a = fill_f32((long)m * n, s);
    int pm = m + 2, pn = n + 3;
    float *o = fill_f32((long)pm * pn, 4);
    chain_pad_transpose(m, n, a, o);
    for (int j = 0; j < pn; ++j)
      for (int i = 0; i < pm; ++i) {
        int inside = i >= 1 && i < 1 + m && j >= 2 && j < 2 + n;
        float v = inside ? a[(i - 1) * n + j - 2] : -1.0f;
        expect("relu(transpose(pad))", m, n, (long)j * pm + i, o[j * pm + i],
               v > 0 ? v : 0.0f);
      }
    if (m > 0 && n > 0) { /* a window is at least 1 and at most the extent */
      chain_concat_reduce(m, n, a, o);
      for (int i = 0; i < m; ++i) {
        float mx = tanhf(a[i * n]), sum = a[i * n];
        for (int j = 1; j < n; ++j) {
          float t = tanhf(a[i * n + j]);
          mx = t > mx ? t : mx;
          sum += a[i * n + j];
        }
        /* tanh within a few ulp of libm */
        if (fabsf(o[2 * i] - mx) > 1e-6f)
          expect("reduce_max(tanh)", m, n, 2 * i, o[2 * i], mx);
        expect("reduce_add(transpose(transpose))", m, n, 2 * i + 1,
               o[2 * i + 1], sum);
      }
    }
    free(a), free(o);
  }
  printf("chains: %s\n", failures > before ? "FAILED" : "ok");
}

/*===--- reshapes ----------------------------------------------------------===*/

/* m x (4k) blocked by 4 along dim 1: m x k x 4 (oneDNN's nC4c idea). */
static void block4(int m, int k, const int *a, int *o) {
  tlx_int32_result_t r =
      tensor_reshape_block_i32(TLX_LOAD(a, m, 4 * k), TLX_SHAPE(1, 4));
  TLX_STORE(o, tensor_typeinfo(r, TLX_SHAPE(m, k, 4), TLX_IDENTITY_LAYOUT(3),
                               TLX_ZEROS(3)));
}

/* The row-major elements of an m x n tensor as n x m (long form: the
 * result's typeinfo names the new shape). */
static void permute(int m, int n, const float *a, float *o) {
  tlx_float_result_t r = tensor_reshape_permute_f32(TLX_LOAD(a, m, n));
  TLX_STORE(o, tensor_typeinfo(r, TLX_SHAPE(n, m), TLX_IDENTITY_LAYOUT(2),
                               TLX_ZEROS(2)));
}

static void test_reshapes(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    int *a = fill_i32((long)m * 4 * n, s), *o = fill_i32((long)m * 4 * n, 1);
    block4(m, n, a, o);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        for (int q = 0; q < 4; ++q) {
          long at = ((long)i * n + j) * 4 + q;
          expect("reshape.block", m, n, at, o[at], a[(long)i * 4 * n + j * 4 + q]);
        }
    float *b = fill_f32((long)m * n, s), *p = fill_f32((long)m * n, 2);
    permute(m, n, b, p);
    for (long i = 0; i < (long)m * n; ++i)
      expect("reshape.permute", m, n, i, p[i], b[i]);
    free(a), free(o), free(b), free(p);
  }
  printf("reshapes: %s\n", failures > before ? "FAILED" : "ok");
}

/*===--- strided and column-major operands ---------------------------------===*/

/* pad of a column-major m x n (columns lda apart) into a sub-block of o
 * (rows ldo apart): the long form, every size a variable. */
static void pad_strided(int m, int n, int lda, int ldo, const float *a,
                        float *o) {
  tlx_token_t t = tensor_load(a, TLX_SHAPE(n, m), TLX_LAYOUT(1, 0),
                              TLX_ZEROS(2), TLX_STRIDES(0, lda));
  tlx_float_result_t r =
      tensor_pad_f32(t, TLX_SHAPE(1, 0), TLX_SHAPE(0, 1), 3.0f);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(m + 1, n + 1),
                                   TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  tensor_store(o, tr, TLX_STRIDES(0, ldo));
}

/* Constant extents stored through run-time leading dimensions. */
static void static_strided(int ld, const float *a, float *c, float *d) {
  tensor_store(c, tlx_reduce_max(TLX_LOAD(a, 4, 8), TLX_SHAPE(1, 8),
                                 TLX_SHAPE(1, 1)),
               TLX_STRIDES(0, ld));
  tensor_store(d, tlx_transpose(TLX_LOAD(a, 4, 8)), TLX_STRIDES(0, ld));
}

static void test_strided(void) {
  int before = failures;
  for (int ld = 4; ld < 7; ++ld) {
    float *a = fill_f32(32, ld), *c = fill_f32(4 * ld, 1);
    float *d = fill_f32(8 * ld, 2), *keep = fill_f32(8 * ld, 2);
    static_strided(ld, a, c, d);
    for (int i = 0; i < 4; ++i) {
      float m = a[i * 8];
      for (int j = 1; j < 8; ++j)
        m = a[i * 8 + j] > m ? a[i * 8 + j] : m;
      expect("static reduce, run-time ld", ld, 0, i * ld, c[i * ld], m);
    }
    for (int j = 0; j < 8; ++j)
      for (int i = 0; i < ld; ++i)
        expect("static transpose, run-time ld", ld, 0, j * ld + i,
               d[j * ld + i], i < 4 ? a[i * 8 + j] : keep[j * ld + i]);
    free(a), free(c), free(d), free(keep);
  }
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1], lda = m + 3, ldo = n + 4;
    float *a = fill_f32((long)lda * n, s);
    float *o = fill_f32((long)ldo * (m + 1), 6), *keep = fill_f32((long)ldo * (m + 1), 6);
    pad_strided(m, n, lda, ldo, a, o);
    for (int i = 0; i < m + 1; ++i)
      for (int j = 0; j < ldo; ++j) {
        float want = keep[i * ldo + j];
        if (j < n + 1)
          want = i >= 1 && j < n ? a[j * lda + i - 1] : 3.0f;
        expect("pad strided", m, n, (long)i * ldo + j, o[i * ldo + j], want);
      }
    free(a), free(o), free(keep);
  }
  printf("strided: %s\n", failures > before ? "FAILED" : "ok");
}

/* Big enough to be split over the OpenMP threads with -fopenmp: 77100
 * elements written, 76800 window steps folded. */
static void test_large(void) {
  int before = failures;
  int m = 300, n = 257;
  float *a = fill_f32((long)m * n, 3), *t = fill_f32((long)m * n, 4);
  float *r = fill_f32(m, 5);
  transpose_f32(m, n, a, t);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      expect("large transpose", m, n, (long)j * m + i, t[j * m + i],
             a[i * n + j]);
  reduce_f32(MAX, m, n, 1, n, 1, 1, a, r);
  for (int i = 0; i < m; ++i) {
    float mx = a[i * n];
    for (int j = 1; j < n; ++j)
      mx = a[i * n + j] > mx ? a[i * n + j] : mx;
    expect("large row max", m, n, i, r[i], mx);
  }
  free(a), free(t), free(r);
  printf("large: %s\n", failures > before ? "FAILED" : "ok");
}

int main(void) {
  test_transpose();
  test_pad();
  test_concat();
  test_broadcast();
  test_reduce();
  test_chains();
  test_reshapes();
  test_strided();
  test_large();
  puts(failures ? "FAILED" : "PASSED");
  return failures != 0;
}
