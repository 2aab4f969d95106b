/* tlx_gemv.c - skinny products as an inference program writes them: a
 * weight matrix W (D x N, row-major) read once per call, times S activation
 * vectors (S = 1: a matrix-vector product, one generated token), through
 * tlx.h's short form and tlx-cc - or, with -DPLAIN_C, the plain C loop a
 * user writes (built with clang -O3 -ffast-math -march=native).
 *
 *   ORIENT 0 ("Wx"): y[D x S] = W[D x N] x X[N x S]   (W's rows are dot
 *                    products: a transformer's matmul(xout, x, w, n, d))
 *   ORIENT 1 ("xW"): y[S x N] = X[S x D] x W[D x N]   (W's rows are scaled
 *                    and added: an MLP's x W)
 *
 * -D: WT (weights: 0 f32, 1 bf16, 2 f16 - activations and result f32 -,
 * 3 s8 with s8 activations and an int32 result), GD, GN, GS (S, default 1),
 * NAME, RTSIZE=1 (the sizes read from volatiles, as from a model file),
 * PLAIN_C, OPENBLAS (f32: cblas_sgemv for S = 1, else cblas_sgemm; link
 * -lopenblas). Prints "NAME gemv-ORIENT-TYPE D N S GB/s", GB/s being W's
 * bytes read per second (W is read once per product), after checking
 * every result against a plain dot product. With -fopenmp the plain C
 * loop splits W's rows (Wx) or columns (xW) over the threads.
 */
#define _POSIX_C_SOURCE 200809L
#if defined(OPENBLAS)
#include <cblas.h>
#define PLAIN_C 1
#endif
#ifndef PLAIN_C
#include <tlx.h>
#endif
#include "bench_common.h"

#ifndef NAME
#define NAME "tlx"
#endif
#ifndef GS
#define GS 1
#endif
#ifndef ORIENT
#define ORIENT 0
#endif
#ifndef WT
#define WT 0
#endif

#if WT == 0
typedef float w_elem;
typedef float x_elem;
typedef float y_elem;
#define TYPE_NAME "f32"
#elif WT == 1
typedef __bf16 w_elem;
typedef float x_elem;
typedef float y_elem;
#define TYPE_NAME "bf16"
#elif WT == 2
typedef _Float16 w_elem;
typedef float x_elem;
typedef float y_elem;
#define TYPE_NAME "f16"
#else
typedef int8_t w_elem;
typedef int8_t x_elem;
typedef int32_t y_elem;
#define TYPE_NAME "s8s8s32"
#endif

#if RTSIZE
static volatile int size_d = GD, size_n = GN, size_s = GS;
#define D_ size_d
#define N_ size_n
#define S_ size_s
#else
#define D_ GD
#define N_ GN
#define S_ GS
#endif

#ifndef PLAIN_C
#if WT == 3
/* An int32 result from int8 operands needs the long form: the short form's
 * product of two int8 tensors is int8. */
#if RTSIZE
typedef int32_t y_vec __attribute__((__vector_size__(16)));
#else
typedef int32_t y_vec __attribute__((__vector_size__(
    (ORIENT == 0 ? GD : GN) * GS * sizeof(int32_t))));
#endif
TLX_DECLARE_TENSOR_OPS_AS(y_vec, yv)
#define PRODUCT(ta, tb, rows, cols)                                            \
  tensor_store(y,                                                              \
               tensor_typeinfo(tensor_matmul_yv(ta, tb), TLX_SHAPE(rows, cols), \
                               TLX_LAYOUT(0, 1), TLX_ZEROS(2)),                \
               TLX_ZEROS(2))
#else
#define PRODUCT(ta, tb, rows, cols) TLX_STORE(y, tlx_matmul(ta, tb))
#endif
#endif

/* Small integers, exact in every type. */
static int value(int64_t i, int salt) {
  uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ull + (uint64_t)salt;
  x ^= x >> 29;
  return (int)(x % 7) - 3;
}

#if ORIENT == 0
/* y (D x S) = W (D x N) x X (N x S) */
static void product(const w_elem *restrict w, const x_elem *restrict x,
                    y_elem *restrict y) {
  int d = D_, n = N_, s = S_;
#if defined(OPENBLAS)
  if (s == 1)
    cblas_sgemv(CblasRowMajor, CblasNoTrans, d, n, 1.0f, w, n, x, 1, 0.0f, y,
                1);
  else
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, d, s, n, 1.0f, w,
                n, x, s, 0.0f, y, s);
#elif defined(PLAIN_C)
#pragma omp parallel for
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < s; ++j) {
      y_elem acc = 0;
      for (int k = 0; k < n; ++k)
        acc += (y_elem)w[(size_t)i * n + k] * (y_elem)x[(size_t)k * s + j];
      y[(size_t)i * s + j] = acc;
    }
#else
  PRODUCT(TLX_LOAD(w, d, n), TLX_LOAD(x, n, s), d, s);
#endif
}
#define W_ROWS GD
#define W_COLS GN
#define X_COUNT ((size_t)GN * GS)
#define Y_COUNT ((size_t)GD * GS)
static y_elem expected(const w_elem *w, const x_elem *x, int i, int j) {
  y_elem acc = 0;
  for (int k = 0; k < GN; ++k)
    acc += (y_elem)w[(size_t)i * GN + k] * (y_elem)x[(size_t)k * GS + j];
  return acc;
}
#define Y_AT(i, j) ((size_t)(i) * GS + (j))
#define Y_ROWS GD
#define Y_COLS GS
#else
/* y (S x N) = X (S x D) x W (D x N) */
static void product(const w_elem *restrict w, const x_elem *restrict x,
                    y_elem *restrict y) {
  int d = D_, n = N_, s = S_;
#if defined(OPENBLAS)
  if (s == 1)
    cblas_sgemv(CblasRowMajor, CblasTrans, d, n, 1.0f, w, n, x, 1, 0.0f, y,
                1);
  else
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s, n, d, 1.0f, x,
                d, w, n, 0.0f, y, n);
#elif defined(PLAIN_C)
  /* Columns in blocks of 256 per thread: each streams its part of every
   * row of W. */
#pragma omp parallel for
  for (int j0 = 0; j0 < n; j0 += 256) {
    int j1 = j0 + 256 < n ? j0 + 256 : n;
    for (int i = 0; i < s; ++i) {
      for (int j = j0; j < j1; ++j)
        y[(size_t)i * n + j] = 0;
      for (int k = 0; k < d; ++k) {
        y_elem xv = (y_elem)x[(size_t)i * d + k];
        for (int j = j0; j < j1; ++j)
          y[(size_t)i * n + j] += xv * (y_elem)w[(size_t)k * n + j];
      }
    }
  }
#else
  PRODUCT(TLX_LOAD(x, s, d), TLX_LOAD(w, d, n), s, n);
#endif
}
#define X_COUNT ((size_t)GS * GD)
#define Y_COUNT ((size_t)GS * GN)
static y_elem expected(const w_elem *w, const x_elem *x, int i, int j) {
  y_elem acc = 0;
  for (int k = 0; k < GD; ++k)
    acc += (y_elem)x[(size_t)i * GD + k] * (y_elem)w[(size_t)k * GN + j];
  return acc;
}
#define Y_AT(i, j) ((size_t)(i) * GN + (j))
#define Y_ROWS GS
#define Y_COLS GN
#endif

int main(void) {
  size_t wn = (size_t)GD * GN;
  /* malloc, as a program loading a model does (16-byte alignment). */
  w_elem *w = malloc(wn * sizeof(w_elem));
  x_elem *x = malloc(X_COUNT * sizeof(x_elem));
  y_elem *y = malloc(Y_COUNT * sizeof(y_elem));
  if (!w || !x || !y)
    return 1;
  for (size_t i = 0; i < wn; ++i) {
#if WT == 1
    /* Small integers are exact in bf16: its bits are the float's top half
     * (no conversion routine needed from the C library). */
    float f = (float)value((int64_t)i, 1);
    uint32_t u;
    memcpy(&u, &f, 4);
    uint16_t h = (uint16_t)(u >> 16);
    memcpy(&w[i], &h, 2);
#else
    w[i] = (w_elem)value((int64_t)i, 1);
#endif
  }
  for (size_t i = 0; i < X_COUNT; ++i)
    x[i] = (x_elem)value((int64_t)i, 2);
  product(w, x, y);
  for (int i = 0; i < Y_ROWS; ++i)
    for (int j = 0; j < Y_COLS; ++j)
      if (y[Y_AT(i, j)] != expected(w, x, i, j)) {
        printf("%s gemv-%d-%s %d %d %d FAILED at (%d, %d): %g, expected %g\n",
               NAME, ORIENT, TYPE_NAME, GD, GN, GS, i, j,
               (double)y[Y_AT(i, j)], (double)expected(w, x, i, j));
        return 1;
      }
  /* About 0.3 s of reads at 30 GB/s, at least 5 runs; best run counts. */
  double bytes = (double)wn * sizeof(w_elem);
  int reps = (int)(1e10 / bytes);
  reps = reps < 5 ? 5 : reps > 20000 ? 20000 : reps;
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    double t0 = bench_now();
    product(w, x, y);
    double t = bench_now() - t0;
    best = t < best ? t : best;
  }
  printf("%s gemv-%d-%s %d %d %d %.2f\n", NAME, ORIENT, TYPE_NAME, GD, GN, GS,
         bytes / best * 1e-9);
  free(w);
  free(x);
  free(y);
  return 0;
}
