/* check.h - tiny assertion helpers for the reference-oracle unit tests.
 *
 * Each check prints "FAIL <what>: ..." naming the first differing element by
 * logical index, and bumps Failures; a test's main returns Failures != 0 and
 * prints "<what>: ok" lines for FileCheck.
 */
#ifndef TLX_TEST_CHECK_H
#define TLX_TEST_CHECK_H

#include "tlxrt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int Failures;

static inline void printIndex(int rank, const int64_t *idx) {
  printf("[");
  for (int i = 0; i < rank; ++i)
    printf(i ? ",%lld" : "%lld", (long long)idx[i]);
  printf("]");
}

static inline int nextIndex(int rank, const int64_t *ext, int64_t *idx) {
  for (int i = rank - 1; i >= 0; --i) {
    if (++idx[i] < ext[i])
      return 1;
    idx[i] = 0;
  }
  return 0;
}

/* t's elements in logical row-major order equal want[] (as int64). */
static inline void expectInts(const char *what, const tlx_tensor *t,
                       const int64_t *want) {
  int64_t ext[TLX_MAX_RANK], idx[TLX_MAX_RANK] = {0}, k = 0;
  tlx_tensor_logical_shape(t, ext);
  do {
    int64_t got = tlx_get_i64(t, idx);
    if (got != want[k]) {
      printf("FAIL %s: element ", what);
      printIndex(t->rank, idx);
      printf(" is %lld, expected %lld\n", (long long)got, (long long)want[k]);
      ++Failures;
      return;
    }
    ++k;
  } while (nextIndex(t->rank, ext, idx));
  printf("%s: ok\n", what);
}

/* Floats: |got - want| <= tol (tol 0: exact, NaN equals NaN, signed zeros
 * must match). */
static inline void expectFloats(const char *what, const tlx_tensor *t,
                         const double *want, double tol) {
  int64_t ext[TLX_MAX_RANK], idx[TLX_MAX_RANK] = {0}, k = 0;
  tlx_tensor_logical_shape(t, ext);
  do {
    double got = tlx_get_f64(t, idx), w = want[k];
    int same = tol == 0 ? (got == w && signbit(got) == signbit(w)) ||
                              (isnan(got) && isnan(w))
                        : fabs(got - w) <= tol || (isnan(got) && isnan(w));
    if (!same) {
      printf("FAIL %s: element ", what);
      printIndex(t->rank, idx);
      printf(" is %.17g, expected %.17g\n", got, w);
      ++Failures;
      return;
    }
    ++k;
  } while (nextIndex(t->rank, ext, idx));
  printf("%s: ok\n", what);
}

/* A call returned -1 with a message containing needle. */
static inline void expectError(const char *what, int rc, const char *needle) {
  const char *msg = tlxrt_last_error();
  if (rc != -1 || !strstr(msg, needle)) {
    printf("FAIL %s: rc %d, message \"%s\", expected -1 and \"%s\"\n", what,
           rc, msg, needle);
    ++Failures;
    return;
  }
  printf("%s: error: %s\n", what, msg);
}

static inline void expectOk(const char *what, int rc) {
  if (rc != 0) {
    printf("FAIL %s: rc %d: %s\n", what, rc, tlxrt_last_error());
    ++Failures;
  }
}

static inline void expectTrue(const char *what, int cond) {
  if (!cond) {
    printf("FAIL %s\n", what);
    ++Failures;
    return;
  }
  printf("%s: ok\n", what);
}

/* Packed row-major descriptor shorthand. */
static inline tlx_tensor makeTensor(void *data, tlx_dtype dtype, int rank,
                             const int64_t *shape) {
  tlx_tensor t;
  if (tlx_tensor_init(&t, data, dtype, rank, shape, NULL, NULL, NULL))
    printf("FAIL makeTensor: %s\n", tlxrt_last_error()), ++Failures;
  return t;
}

static inline tlx_tensor makeLayout(void *data, tlx_dtype dtype, int rank,
                             const int64_t *shape, const int64_t *layout,
                             const int64_t *strides) {
  tlx_tensor t;
  if (tlx_tensor_init(&t, data, dtype, rank, shape, layout, NULL, strides))
    printf("FAIL makeLayout: %s\n", tlxrt_last_error()), ++Failures;
  return t;
}

#endif /* TLX_TEST_CHECK_H */
