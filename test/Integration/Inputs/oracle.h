/* oracle.h - helpers for the TLX execution tests: descriptors, random
 * data, and comparison of compiled TLX results with the reference
 * implementation (tlxrt.h), element by element over logical indices. */
#ifndef TLX_TEST_ORACLE_H
#define TLX_TEST_ORACLE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlxrt.h>

static int tlxtestFailures;
static uint32_t tlxtestState = 12345u;

static uint32_t tlxtestNext(void) {
  tlxtestState = tlxtestState * 1664525u + 1013904223u;
  return tlxtestState >> 8;
}

/* A descriptor; layout/strides may be NULL (identity / packed). Strides
 * are element strides per storage dim (tlxrt convention). */
static tlx_tensor desc(void *data, tlx_dtype dt, int rank,
                       const int64_t *shape, const int64_t *layout,
                       const int64_t *strides) {
  tlx_tensor t;
  if (tlx_tensor_init(&t, data, dt, rank, shape, layout, NULL, strides)) {
    printf("bad descriptor: %s\n", tlxrt_last_error());
    exit(2);
  }
  return t;
}

static int nextIndex(int rank, const int64_t *ext, int64_t *idx) {
  for (int d = rank - 1; d >= 0; --d) {
    if (++idx[d] < ext[d])
      return 1;
    idx[d] = 0;
  }
  return 0;
}

static int isIntType(tlx_dtype dt) { return dt <= TLX_I64; }

/* Random values: integers in [-Range, Range], floats k/8 in [-Range, Range]
 * (exact in every float type). */
static void fillRandom(tlx_tensor *t, int Range) {
  int64_t ext[TLX_MAX_RANK], idx[TLX_MAX_RANK] = {0};
  tlx_tensor_logical_shape(t, ext);
  do {
    int64_t v = (int64_t)(tlxtestNext() % (2 * Range * 8 + 1)) - Range * 8;
    if (isIntType(t->dtype))
      tlx_set_i64(t, idx, v / 8);
    else
      tlx_set_f64(t, idx, v / 8.0);
  } while (nextIndex(t->rank, ext, idx));
}

/* Compares got with want over want's logical shape; floats within Tol
 * relative to max(1, |want|). Prints "Name: ok" or the first mismatches. */
static void compare(const char *Name, const tlx_tensor *got,
                    const tlx_tensor *want, double Tol) {
  int64_t ext[TLX_MAX_RANK], gext[TLX_MAX_RANK], idx[TLX_MAX_RANK] = {0};
  tlx_tensor_logical_shape(want, ext);
  tlx_tensor_logical_shape(got, gext);
  if (got->rank != want->rank ||
      memcmp(ext, gext, sizeof(int64_t) * (size_t)want->rank)) {
    printf("%s: FAIL shape mismatch\n", Name);
    ++tlxtestFailures;
    return;
  }
  int64_t bad = 0, n = 0;
  do {
    ++n;
    if (isIntType(want->dtype)) {
      int64_t g = tlx_get_i64(got, idx), w = tlx_get_i64(want, idx);
      if (g != w && bad++ < 5)
        printf("%s: element %lld: got %lld want %lld\n", Name, (long long)n - 1,
               (long long)g, (long long)w);
    } else {
      double g = tlx_get_f64(got, idx), w = tlx_get_f64(want, idx);
      int same = (isnan(g) && isnan(w)) || g == w ||
                 fabs(g - w) <= Tol * fmax(1.0, fabs(w));
      if (!same && bad++ < 5)
        printf("%s: element %lld: got %.9g want %.9g\n", Name, (long long)n - 1,
               g, w);
    }
  } while (nextIndex(want->rank, ext, idx));
  if (bad) {
    printf("%s: FAIL %lld of %lld elements differ\n", Name, (long long)bad,
           (long long)n);
    ++tlxtestFailures;
  } else {
    printf("%s: ok\n", Name);
  }
}

static void refOk(const char *Name, int rc) {
  if (rc) {
    printf("%s: reference failed: %s\n", Name, tlxrt_last_error());
    exit(2);
  }
}

static int finish(void) {
  printf("%s\n", tlxtestFailures ? "FAILED" : "PASSED");
  return tlxtestFailures != 0;
}

#endif
