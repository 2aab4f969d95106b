/* The body of sme-gemm-bf16.c and sme-gemm-f16.c: 16-bit float GEMMs on
 * SME (widening outer products into f32 ZA tiles, 2 k values per lane),
 * with HALF the element type, TO_HALF / FROM_HALF its conversions (done
 * on the bits for bf16: no 16-bit float arithmetic in the checking code)
 * and HALF_REL the tolerance of a rounded 16-bit result.
 * Tails in M, N and K (K odd: the last k pair is half zero), a 1x1x1, a
 * 16-bit result (f32 sums rounded once into it), a transposed B, and a
 * fused relu; against plain C loops in double with a tolerance. */
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
typedef HALF h37x45 __attribute__((__vector_size__(37 * 45 * 2)));
typedef float v33x17 __attribute__((__vector_size__(33 * 17 * 4)));
typedef HALF h1x5 __attribute__((__vector_size__(5 * 2)));
typedef float v14x66 __attribute__((__vector_size__(14 * 66 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(v17x100, a)
TLX_DECLARE_TENSOR_OPS_AS(v1x1, b)
TLX_DECLARE_TENSOR_OPS_AS(h37x45, c)
TLX_DECLARE_TENSOR_OPS_AS(v33x17, d)
TLX_DECLARE_TENSOR_OPS_AS(h1x5, e)
TLX_DECLARE_TENSOR_OPS_AS(v14x66, f)

static int failures;
static unsigned state = 11;

static float bitsToFloat(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Small integers / 8: exact in bf16 and f16, so only the sums round. */
static void fill(HALF *p, int n) {
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    p[i] = TO_HALF((float)((int)(state >> 26) - 32) / 8.0f);
  }
}

/* got(i, j) (f32 or, when half, 16-bit) against sum_k A(i,k) B(k,j);
 * A(i,k) = a[i*ar + k*ac], B(k,j) = b[k*br + j*bc]. */
static void check(const char *name, const void *got, int half, int relu,
                  const HALF *a, int ar, int ac, const HALF *b, int br,
                  int bc, int m, int k, int n) {
  int bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0, mag = 0;
      for (int p = 0; p < k; ++p) {
        double x = (double)FROM_HALF(a[i * ar + p * ac]) *
                   FROM_HALF(b[p * br + j * bc]);
        want += x;
        mag += fabs(x);
      }
      if (relu && want < 0)
        want = 0;
      double g = half ? FROM_HALF(((const HALF *)got)[i * n + j])
                      : ((const float *)got)[i * n + j];
      /* f32 sums; a 16-bit result also rounds once: HALF_REL, twice its
       * relative rounding error or a little more (bf16 2^-9, f16 2^-11: an f16 result
       * rounded as bf16 fails). */
      double tol = half ? fabs(want) * HALF_REL + 1e-5 * (mag + 1)
                        : 1e-5 * (mag + 1);
      if (fabs(g - want) > tol && bad++ < 5)
        printf("%s: [%d][%d] = %g, want %g\n", name, i, j, g, want);
    }
  printf("%s: %s\n", name, bad ? "FAILED" : "ok");
  failures += bad != 0;
}

__attribute__((noinline)) void mm_17x33x100(const HALF *a, const HALF *b,
                                            float *c) {
  v17x100 r = tensor_matmul_a(LOAD(a, 17, 33), LOAD(b, 33, 100));
  tensor_store(c, INFO(r, 17, 100), TLX_ZEROS(2));
}

__attribute__((noinline)) void mm_1x1x1(const HALF *a, const HALF *b,
                                        float *c) {
  v1x1 r = tensor_matmul_b(LOAD(a, 1, 1), LOAD(b, 1, 1));
  tensor_store(c, INFO(r, 1, 1), TLX_ZEROS(2));
}

/* A 16-bit result, B stored transposed (45 x 29, layout <1,0>). */
__attribute__((noinline)) void mm_half_out(const HALF *a, const HALF *bt,
                                           HALF *c) {
  tlx_token_t tb = tensor_load(bt, TLX_SHAPE(45, 29), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  h37x45 r = tensor_matmul_c(LOAD(a, 37, 29), tb);
  tensor_store(c, INFO(r, 37, 45), TLX_ZEROS(2));
}

__attribute__((noinline)) void mm_relu(const HALF *restrict a,
                                       const HALF *restrict b,
                                       float *restrict c) {
  v33x17 r = tensor_matmul_d(LOAD(a, 33, 100), LOAD(b, 100, 17));
  v33x17 z = tensor_relu_d(INFO(r, 33, 17));
  tensor_store(c, INFO(z, 33, 17), TLX_ZEROS(2));
}

/* A small 16-bit result: the rounding code is simple enough for LLVM 19's
 * -O0 instruction selector (GlobalISel) to take it, which rounds f32
 * vectors to f16 as bf16 (Compat.h); A stored transposed. */
__attribute__((noinline)) void mm_small_half(const HALF *at, const HALF *b,
                                             HALF *c) {
  tlx_token_t ta = tensor_load(at, TLX_SHAPE(4, 1), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  h1x5 r = tensor_matmul_e(ta, LOAD(b, 4, 5));
  tensor_store(c, INFO(r, 1, 5), TLX_ZEROS(2));
}

/* A stored transposed with rows 18 apart (3 x 14, layout <1,0>): the loop
 * packing it stores k pairs, which LLVM's loop vectorizer turned into
 * scalable bf16 interleaves that LLVM 19 cannot select (a crash at -O2
 * the differential run found): the packing copies integers. */
__attribute__((noinline)) void mm_14x3x66(const HALF *at, const HALF *b,
                                          float *c) {
  tlx_token_t ta = tensor_load(at, TLX_SHAPE(3, 14), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_STRIDES(0, 18));
  v14x66 r = tensor_matmul_f(ta, LOAD(b, 3, 66));
  tensor_store(c, INFO(r, 14, 66), TLX_ZEROS(2));
}

int main(void) {
  static HALF a[100 * 100], b[100 * 100], hc[37 * 45];
  static float c[100 * 100];
  fill(a, 100 * 100);
  fill(b, 100 * 100);
  mm_17x33x100(a, b, c);
  check("17x33x100", c, 0, 0, a, 33, 1, b, 100, 1, 17, 33, 100);
  mm_1x1x1(a, b, c);
  check("1x1x1", c, 0, 0, a, 1, 1, b, 1, 1, 1, 1, 1);
  mm_half_out(a, b, hc);
  check("16-bit result, transposed B", hc, 1, 0, a, 29, 1, b, 1, 29, 37, 29,
        45);
  mm_small_half(a, b, hc);
  check("small 16-bit result", hc, 1, 0, a, 1, 1, b, 5, 1, 1, 4, 5);
  mm_relu(a, b, c);
  check("relu", c, 0, 1, a, 100, 1, b, 17, 1, 33, 100, 17);
  mm_14x3x66(a, b, c);
  check("14x3x66", c, 0, 0, a, 1, 18, b, 66, 1, 14, 3, 66);
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
