/* gemm_check.c - runs one GEMM through tlx_test_gemm (the emitter's test
 * marker, replaced by tlx-test-gemm) and compares it with the runtime's
 * reference implementation.
 *
 * Configure with -D: TA TB TC (tlx_dtype codes), M N K, ACC (accumulate),
 * AU BU (unsigned operands), AMX, SME, FORCE_SCALAR, ACOL BCOL CCOL
 * (column-major operand), PAD (extra leading-dimension elements).
 * Prints "gemm ok" or the first mismatches and exits non-zero.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlxrt.h"

#ifndef ACC
#define ACC 0
#endif
#ifndef AU
#define AU 0
#endif
#ifndef BU
#define BU 0
#endif
#ifndef AMX
#define AMX 0
#endif
#ifndef SME
#define SME 0
#endif
#ifndef FORCE_SCALAR
#define FORCE_SCALAR 0
#endif
#ifndef ACOL
#define ACOL 0
#endif
#ifndef BCOL
#define BCOL 0
#endif
#ifndef CCOL
#define CCOL 0
#endif
#ifndef PAD
#define PAD 0
#endif

void tlx_test_gemm(long m, long n, long k, long flags, void *a, long ars,
                   long acs, void *b, long brs, long bcs, void *c, long crs,
                   long ccs);

static uint64_t seed = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return seed;
}

static int is_float(tlx_dtype t) { return t >= TLX_F16; }

/* A random value that the element type holds exactly. */
static double random_value(tlx_dtype t, int is_unsigned) {
  if (is_float(t))
    return (double)((int64_t)(next() % 2001) - 1000) / 512.0;
  int64_t bits = 8 * (int64_t)tlx_dtype_size(t);
  if (bits > 16)
    bits = 16; /* keep sums exact in the oracle's double for i32/i64 too */
  uint64_t r = next() & ((1ull << bits) - 1);
  return is_unsigned ? (double)r : (double)(r - (1ull << (bits - 1)));
}

/* A rows x cols matrix, row- or column-major with PAD extra elements per
 * leading dimension; fills the descriptor and the emitter's strides. */
static void *make_matrix(tlx_tensor *t, tlx_dtype dt, int64_t rows,
                         int64_t cols, int colmajor, long *rs, long *cs) {
  int64_t outer = colmajor ? cols : rows, inner = colmajor ? rows : cols;
  int64_t ld = inner + PAD;
  void *data = calloc((size_t)(outer * ld + 1), tlx_dtype_size(dt));
  int64_t shape[2] = {outer, inner}, strides[2] = {ld, 1};
  int64_t colmajor_layout[2] = {1, 0};
  tlx_tensor_init(t, data, dt, 2, shape, colmajor ? colmajor_layout : NULL,
                  NULL, strides);
  *rs = colmajor ? 1 : (long)ld;
  *cs = colmajor ? (long)ld : 1;
  return data;
}

static void fill(tlx_tensor *t, int64_t rows, int64_t cols, int is_unsigned) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      int64_t idx[2] = {i, j};
      double v = random_value(t->dtype, is_unsigned);
      if (is_float(t->dtype))
        tlx_set_f64(t, idx, v);
      else
        tlx_set_i64(t, idx, (int64_t)v);
    }
}

int main(void) {
  const tlx_dtype ta = TA, tb = TB, tc = TC;
  const int64_t m = M, n = N, k = K;
  tlx_tensor a, b, c, ref, acc;
  long ars, acs, brs, bcs, crs, ccs, rrs, rcs;
  void *pa = make_matrix(&a, ta, m, k, ACOL, &ars, &acs);
  void *pb = make_matrix(&b, tb, k, n, BCOL, &brs, &bcs);
  void *pc = make_matrix(&c, tc, m, n, CCOL, &crs, &ccs);
  void *pr = make_matrix(&ref, tc, m, n, 0, &rrs, &rcs);
  void *pacc = make_matrix(&acc, tc, m, n, 0, &rrs, &rcs);
  fill(&a, m, k, AU);
  fill(&b, k, n, BU);
  fill(&c, m, n, 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx[2] = {i, j};
      if (is_float(tc))
        tlx_set_f64(&acc, idx, ACC ? tlx_get_f64(&c, idx) : 0.0);
      else
        tlx_set_i64(&acc, idx, ACC ? tlx_get_i64(&c, idx) : 0);
    }

  int rc;
  if (is_float(tc)) {
    rc = tlx_ref_matmul(&a, &b, &ref);
    for (int64_t i = 0; i < m && !rc; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t idx[2] = {i, j};
        tlx_set_f64(&ref, idx,
                    tlx_get_f64(&ref, idx) + tlx_get_f64(&acc, idx));
      }
  } else {
    tlx_mma_kind kind = AU ? (BU ? TLX_UMMA : TLX_USMMA)
                           : (BU ? TLX_SUMMA : TLX_SMMA);
    rc = tlx_ref_mma(kind, &acc, &a, &b, &ref);
  }
  if (rc) {
    printf("reference failed: %s\n", tlxrt_last_error());
    return 2;
  }

  /* The marker needs constant sizes and flags: spell them as literals. */
  tlx_test_gemm(M, N, K,
                TA | TB << 4 | TC << 8 | ACC << 12 | AU << 13 | BU << 14 |
                    AMX << 15 | FORCE_SCALAR << 16 | SME << 17,
                pa, ars, acs, pb, brs, bcs, pc, crs, ccs);

  /* Float sums may differ in order: allow a few ulps of the magnitude. */
  double tol = tc == TLX_F64 ? 1e-12 : tc == TLX_F32 ? 1e-5 : 1e-2;
  int bad = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx[2] = {i, j};
      int wrong;
      double got, want;
      if (is_float(tc)) {
        got = tlx_get_f64(&c, idx);
        want = tlx_get_f64(&ref, idx);
        wrong = !(fabs(got - want) <= tol * (1.0 + fabs(want)) * sqrt(k));
      } else {
        got = (double)tlx_get_i64(&c, idx);
        want = (double)tlx_get_i64(&ref, idx);
        wrong = tlx_get_i64(&c, idx) != tlx_get_i64(&ref, idx);
      }
      if (wrong && bad++ < 5)
        printf("C[%lld][%lld] = %.17g, want %.17g\n", (long long)i,
               (long long)j, got, want);
    }
  /* The padding beyond C's columns/rows must be untouched. */
  free(pa);
  free(pb);
  free(pc);
  free(pr);
  free(pacc);
  if (bad) {
    printf("gemm FAILED: %d mismatches\n", bad);
    return 1;
  }
  printf("gemm ok\n");
  return 0;
}
