// Skinny products (docs/pipeline.md, "Skinny products"): matmul and smma
// with M or N from 1 to 17 - both sides of the streamed kernels' limit of
// 16 and of their group sizes (1, 4, 8) - and the other extents on both
// sides of every vector and block width (K across the dot kernel's blocks
// of k too), with sizes known at run time and
// at compile time: W x and x W (the large operand row- or column-major,
// with a leading dimension), f32, bf16 and f16 weights with f32
// activations, s8 x s8 -> s32 and u8 x s8 -> s32 with an accumulator, and
// a fused bias + relu. Every element against plain C loops (small integers:
// exact in every type).
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 -Rpass=tlx-tile %s %tlx_rt -o %t2 2>%t2.remarks && %t2 | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t2.remarks
// RUN: %if openmp %{ %clang_tlx -std=c11 -Wall -Werror -O2 -fopenmp -mllvm -tlx-threads-min-work=0 %s %tlx_rt -o %tp && env OMP_NUM_THREADS=3 %tp | FileCheck %s %}
// CHECK: runtime f32: ok
// CHECK: runtime bf16: ok
// CHECK: runtime f16: ok
// CHECK: runtime s8: ok
// CHECK: static: ok
// CHECK: PASSED
// REMARK: matmul: 1x67x45 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel streamed axpy f32, B in place, {{[0-9]+}} rows of it x 1 row of A per step
// REMARK: matmul: 130x33x3 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel streamed dot f32, A in place, {{[0-9]+ rows?}} of it x 3 columns of B per step
// REMARK: smma: 17x100x5 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel streamed dot i8->i32, A in place, {{[0-9]+ rows?}} of it x 4 columns of B per step, accumulating in place
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlx.h>

typedef float rt_f32 __attribute__((__vector_size__(16)));
typedef int32_t rt_i32 __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS_AS(rt_f32, f32)
TLX_DECLARE_TENSOR_OPS_AS(rt_i32, i32)

#define ROW_MAJOR TLX_LAYOUT(0, 1)

static int failures;

static int value(int i, int salt) { return (i * 7 + salt * 13) % 7 - 3; }

static void report(const char *what, int d, int n, int s, int ld, int i,
                   double got, double want) {
  if (failures++ < 10)
    printf("FAILED %s d=%d n=%d s=%d ld=%d at %d: %g, expected %g\n", what, d,
           n, s, ld, i, got, want);
}

/* y (d x s) = W (d x n, rows ld apart) x X (n x s), and y2 (s x d) =
 * X' (s x n) x W^T: W's k contiguous (the dot kernel) both ways. */
static void wx_f32(const float *w, const float *x, const float *xt, float *y,
                   float *y2, int d, int n, int s, int ld) {
  tlx_token_t tw = tensor_load(w, TLX_SHAPE(d, n), ROW_MAJOR, TLX_ZEROS(2),
                               TLX_DIMS(0, ld));
  TLX_STORE(y, tlx_matmul(tw, TLX_LOAD(x, n, s)));
  TLX_STORE(y2, tlx_matmul(TLX_LOAD(xt, s, n), tlx_transpose(tw)));
}

/* y (s x n) = X (s x d) x W (d x n, rows ld apart), and y2 (n x s) =
 * W^T x X^T: W's l contiguous (the axpy kernel) both ways. */
static void xw_f32(const float *w, const float *x, const float *xt, float *y,
                   float *y2, int d, int n, int s, int ld) {
  tlx_token_t tw = tensor_load(w, TLX_SHAPE(d, n), ROW_MAJOR, TLX_ZEROS(2),
                               TLX_DIMS(0, ld));
  TLX_STORE(y, tlx_matmul(TLX_LOAD(x, s, d), tw));
  TLX_STORE(y2, tlx_matmul(tlx_transpose(tw), TLX_LOAD(xt, d, s)));
}

#define HALF_WEIGHTS(T, name)                                                  \
  static void wx_##name(const T *w, const float *x, float *y, float *y2,      \
                        int d, int n, int s) {                                 \
    tlx_token_t tw = TLX_LOAD(w, d, n);                                        \
    TLX_STORE(y, tlx_matmul(tw, TLX_LOAD(x, n, s)));                           \
    TLX_STORE(y2, tlx_matmul(TLX_LOAD(x, s, d), TLX_LOAD(w, d, n)));           \
  }
HALF_WEIGHTS(__bf16, bf16)
HALF_WEIGHTS(_Float16, f16)

/* acc (d x s, int32) += W (d x n, s8) x X (n x s, s8), then relu(acc + b)
 * with b a broadcast row: the accumulator, and an epilogue. u8 weights
 * through usmma for the second result. */
static void wx_s8(const int8_t *w, const uint8_t *wu, const int8_t *x,
                  int32_t *acc, int32_t *accu, int32_t *out, const int32_t *b,
                  int d, int n, int s) {
  tlx_token_t tw = TLX_LOAD(w, d, n), tx = TLX_LOAD(x, n, s);
  rt_i32 r = tensor_smma_i32(TLX_LOAD(acc, d, s), tw, tx);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(d, s), ROW_MAJOR, TLX_ZEROS(2));
  TLX_STORE(acc, tr);
  rt_i32 ru = tensor_usmma_i32(TLX_LOAD(accu, d, s), TLX_LOAD(wu, d, n), tx);
  TLX_STORE(accu, tensor_typeinfo(ru, TLX_SHAPE(d, s), ROW_MAJOR,
                                  TLX_ZEROS(2)));
  rt_i32 p = tensor_matmul_i32(tw, tx);
  tensor_typeinfo(p, TLX_SHAPE(d, s), ROW_MAJOR, TLX_ZEROS(2));
  rt_i32 bias = tensor_broadcast_i32(TLX_LOAD(b, s));
  tensor_typeinfo(bias, TLX_SHAPE(d, s), ROW_MAJOR, TLX_ZEROS(2));
  rt_i32 sum = p + bias;
  TLX_STORE(out, tlx_relu(tensor_typeinfo(sum, TLX_SHAPE(d, s), ROW_MAJOR,
                                          TLX_ZEROS(2))));
}

/* Plain C: y (rows x cols) = A (rows x k) B (k x cols) through strides. */
static double dot(const double *a, long as_r, long as_k, const double *b,
                  long bs_k, long bs_c, int i, int j, int k) {
  double acc = 0;
  for (int t = 0; t < k; ++t)
    acc += a[i * as_r + t * as_k] * b[t * bs_k + j * bs_c];
  return acc;
}

static void check(const char *what, const float *got, long gr, long gc,
                  const double *a, long ar, long ak, const double *b, long bk,
                  long bc, int rows, int cols, int k, int d, int n, int s,
                  int ld) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      double want = dot(a, ar, ak, b, bk, bc, i, j, k);
      if (got[i * gr + j * gc] != want)
        report(what, d, n, s, ld, i * cols + j, got[i * gr + j * gc], want);
    }
}

static const int Ls[] = {1, 2, 3, 5, 8, 9, 15, 16, 17, 33, 67, 130};
static const int Ks[] = {1, 3, 7, 8, 9, 16, 17, 31, 40, 100};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Long K: the dot kernel's blocks of k (X's block in L1: 4096, 1024 or
 * 256 f32 for kernels of 1, up to 4 and more rows of X). */
static void runtime_long_k(void) {
  enum { MAXL = 17, MAXK = 4100, MAXS = 16 };
  static const int ls[] = {5, 17}, ks[] = {300, 1100, 4100},
                   ss[] = {1, 3, 4, 5, 8, 16};
  static float w[MAXL * MAXK], x[MAXK * MAXS], xt[MAXS * MAXK];
  static float y[MAXL * MAXS], y2[MAXL * MAXS];
  static double wd[MAXL * MAXK], xd[MAXK * MAXS], xtd[MAXS * MAXK];
  for (int li = 0; li < COUNT(ls); ++li)
    for (int ki = 0; ki < COUNT(ks); ++ki)
      for (int si = 0; si < COUNT(ss); ++si) {
        int l = ls[li], k = ks[ki], s = ss[si];
        for (int i = 0; i < l * k; ++i)
          wd[i] = w[i] = (float)value(i, 16);
        for (int i = 0; i < k * s; ++i) {
          xd[i] = x[i] = (float)value(i, 17);
          xtd[i] = xt[i] = (float)value(i, 18);
        }
        wx_f32(w, x, xt, y, y2, l, k, s, k);
        check("W x long k", y, s, 1, wd, k, 1, xd, s, 1, l, s, k, l, k, s, k);
        check("x W^T long k", y2, l, 1, xtd, k, 1, wd, 1, k, s, l, k, l, k, s,
              k);
      }
}

static void runtime_f32(void) {
  enum { MAXL = 130, MAXK = 100, MAXS = 17, PAD = 3 };
  static float w[MAXL * (MAXK + PAD)], x[MAXK * MAXS], xt[MAXS * MAXK];
  static float y[MAXL * MAXS], y2[MAXL * MAXS];
  static double wd[MAXL * (MAXK + PAD)], xd[MAXK * MAXS], xtd[MAXS * MAXK];
  for (int li = 0; li < COUNT(Ls); ++li)
    for (int ki = 0; ki < COUNT(Ks); ++ki)
      for (int s = 1; s <= MAXS; ++s) {
        int l = Ls[li], k = Ks[ki];
        int ld = k + (s % 3 == 0 ? PAD : 0);
        /* W x: W is l x k (rows ld apart). */
        for (int i = 0; i < l * ld; ++i)
          wd[i] = w[i] = (float)value(i, 1);
        for (int i = 0; i < k * s; ++i) {
          xd[i] = x[i] = (float)value(i, 2);
          xtd[i] = xt[i] = (float)value(i, 3);
        }
        wx_f32(w, x, xt, y, y2, l, k, s, ld);
        check("W x", y, s, 1, wd, ld, 1, xd, s, 1, l, s, k, l, k, s, ld);
        check("x W^T", y2, l, 1, xtd, k, 1, wd, 1, ld, s, l, k, l, k, s, ld);
        /* x W: W is k x l (rows ld2 apart). */
        int ld2 = l + (s % 3 == 0 ? PAD : 0);
        for (int i = 0; i < k * ld2; ++i)
          wd[i] = w[i] = (float)value(i, 4);
        xw_f32(w, xt, x, y, y2, k, l, s, ld2);
        check("x W", y, l, 1, xtd, k, 1, wd, ld2, 1, s, l, k, k, l, s, ld2);
        check("W^T x", y2, s, 1, wd, 1, ld2, xd, s, 1, l, s, k, k, l, s, ld2);
      }
  runtime_long_k();
  printf("runtime f32: %s\n", failures ? "FAILED" : "ok");
}

#define RUNTIME_HALF(T, name)                                                  \
  static void runtime_##name(void) {                                           \
    enum { MAXL = 67, MAXK = 40, MAXS = 17 };                                  \
    static T w[MAXL * MAXK];                                                   \
    static float x[MAXL * MAXS], y[MAXL * MAXS], y2[MAXK * MAXS];             \
    static double wd[MAXL * MAXK], xd[MAXL * MAXS];                            \
    for (int li = 0; li < COUNT(Ls) && Ls[li] <= MAXL; ++li)                   \
      for (int ki = 0; ki < COUNT(Ks) && Ks[ki] <= MAXK; ++ki)                 \
        for (int s = 1; s <= MAXS; s += 2) {                                   \
          int l = Ls[li], k = Ks[ki];                                          \
          for (int i = 0; i < l * k; ++i)                                      \
            wd[i] = (double)(w[i] = (T)(float)value(i, 5));                    \
          for (int i = 0; i < (k > l ? k : l) * s; ++i)                        \
            xd[i] = x[i] = (float)value(i, 6);                                 \
          wx_##name(w, x, y, y2, l, k, s);                                     \
          check("W x " #name, y, s, 1, wd, k, 1, xd, s, 1, l, s, k, l, k, s,  \
                k);                                                            \
          /* y2 = X' (s x l) W (l x k), X' the same elements as x. */          \
          check("x W " #name, y2, k, 1, xd, l, 1, wd, k, 1, s, k, l, l, k, s, \
                k);                                                            \
        }                                                                      \
    printf("runtime " #name ": %s\n", failures ? "FAILED" : "ok");             \
  }
RUNTIME_HALF(__bf16, bf16)
RUNTIME_HALF(_Float16, f16)

static void runtime_s8(void) {
  enum { MAXL = 67, MAXK = 100, MAXS = 17 };
  static int8_t w[MAXL * MAXK], x[MAXK * MAXS];
  static uint8_t wu[MAXL * MAXK];
  static int32_t acc[MAXL * MAXS], accu[MAXL * MAXS], out[MAXL * MAXS],
      b[MAXS];
  for (int li = 0; li < COUNT(Ls) && Ls[li] <= MAXL; ++li)
    for (int ki = 0; ki < COUNT(Ks); ++ki)
      for (int s = 1; s <= MAXS; ++s) {
        int l = Ls[li], k = Ks[ki];
        for (int i = 0; i < l * k; ++i) {
          w[i] = (int8_t)(value(i, 7) * 40); /* -120..120 */
          wu[i] = (uint8_t)(value(i, 8) * 40 + 128);
        }
        for (int i = 0; i < k * s; ++i)
          x[i] = (int8_t)(value(i, 9) * 42);
        for (int i = 0; i < l * s; ++i)
          acc[i] = accu[i] = i * 1000 - 7;
        for (int j = 0; j < s; ++j)
          b[j] = value(j, 10) * 5000;
        wx_s8(w, wu, x, acc, accu, out, b, l, k, s);
        for (int i = 0; i < l; ++i)
          for (int j = 0; j < s; ++j) {
            int32_t sum = 0, sumu = 0;
            for (int t = 0; t < k; ++t) {
              sum += w[i * k + t] * x[t * s + j];
              sumu += wu[i * k + t] * x[t * s + j];
            }
            int e = i * s + j;
            int32_t relu = sum + b[j] > 0 ? sum + b[j] : 0;
            if (acc[e] != e * 1000 - 7 + sum)
              report("smma", l, k, s, k, e, acc[e], e * 1000 - 7 + sum);
            if (accu[e] != e * 1000 - 7 + sumu)
              report("usmma", l, k, s, k, e, accu[e], e * 1000 - 7 + sumu);
            if (out[e] != relu)
              report("relu(W x + b)", l, k, s, k, e, out[e], relu);
          }
      }
  printf("runtime s8: %s\n", failures ? "FAILED" : "ok");
}

/* Compile-time sizes: y (D x S) = W x, y' (S x D) = x W, and an int8 smma
 * with an accumulator. */
#define STATIC_CASE(D, K, S)                                                   \
  static void static_##D##_##K##_##S(void) {                                   \
    static float w[D * K], x[K * S], xt[S * D], y[D * S], y2[S * K];          \
    static double wd[D * K], xd[K * S], xtd[S * D];                            \
    static int8_t w8[D * K], x8[K * S];                                        \
    static int32_t acc[D * S];                                                 \
    for (int i = 0; i < D * K; ++i) {                                          \
      wd[i] = w[i] = (float)value(i, 11);                                      \
      w8[i] = (int8_t)(value(i, 12) * 30);                                     \
    }                                                                          \
    for (int i = 0; i < K * S; ++i) {                                          \
      xd[i] = x[i] = (float)value(i, 13);                                      \
      x8[i] = (int8_t)(value(i, 14) * 30);                                     \
    }                                                                          \
    for (int i = 0; i < S * D; ++i)                                            \
      xtd[i] = xt[i] = (float)value(i, 15);                                    \
    for (int i = 0; i < D * S; ++i)                                            \
      acc[i] = 3 * i;                                                          \
    TLX_STORE(y, tlx_matmul(TLX_LOAD(w, D, K), TLX_LOAD(x, K, S)));            \
    TLX_STORE(y2, tlx_matmul(TLX_LOAD(xt, S, D), TLX_LOAD(w, D, K)));          \
    TLX_STORE(acc, tlx_smma(TLX_LOAD(acc, D, S), TLX_LOAD(w8, D, K),          \
                            TLX_LOAD(x8, K, S)));                              \
    check("static W x", y, S, 1, wd, K, 1, xd, S, 1, D, S, K, D, K, S, K);     \
    check("static x W", y2, K, 1, xtd, D, 1, wd, K, 1, S, K, D, D, K, S, K);   \
    for (int i = 0; i < D; ++i)                                                \
      for (int j = 0; j < S; ++j) {                                            \
        int32_t sum = 3 * (i * S + j);                                         \
        for (int t = 0; t < K; ++t)                                            \
          sum += w8[i * K + t] * x8[t * S + j];                                \
        if (acc[i * S + j] != sum)                                             \
          report("static smma", D, K, S, K, i * S + j, acc[i * S + j], sum);   \
      }                                                                        \
  }
STATIC_CASE(1, 1, 1)
STATIC_CASE(67, 45, 1)
STATIC_CASE(130, 33, 3)
STATIC_CASE(17, 100, 5)
STATIC_CASE(33, 64, 8)
STATIC_CASE(40, 17, 16)
STATIC_CASE(20, 9, 17)

int main(void) {
  runtime_f32();
  runtime_bf16();
  runtime_f16();
  runtime_s8();
  static_1_1_1();
  static_67_45_1();
  static_130_33_3();
  static_17_100_5();
  static_33_64_8();
  static_40_17_16();
  static_20_9_17();
  printf("static: %s\n", failures ? "FAILED" : "ok");
  if (failures)
    printf("%d FAILED\n", failures);
  else
    printf("PASSED\n");
  return failures != 0;
}
