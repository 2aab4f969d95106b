/* sample_check.h - small helpers the samples share: deterministic data and
 * a comparison against the reference oracle's result (libtlxrt). */
#ifndef TLX_SAMPLE_CHECK_H
#define TLX_SAMPLE_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Dyadic values k/8 in [-2, 2]: sums of their products are exact in float,
 * so a compiled result must equal the oracle's whatever the order. */
static inline void sample_fill_f32(float *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    p[i] = (float)((int)((seed >> 16) % 33) - 16) / 8.0f;
  }
}

static inline void sample_fill_i8(int8_t *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    p[i] = (int8_t)(seed >> 20);
  }
}

static inline void sample_fill_i32(int32_t *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    p[i] = (int32_t)((seed >> 12) % 201) - 100;
  }
}

/* Number of elements of got/exp differing by more than atol + rtol*|exp|;
 * prints the first few. */
static inline int sample_compare_f32(const char *what, const float *got,
                                     const float *exp, size_t n, float rtol,
                                     float atol) {
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (fabsf(got[i] - exp[i]) <= atol + rtol * fabsf(exp[i]))
      continue;
    if (bad++ < 5)
      printf("%s: element %zu: got %g, expected %g\n", what, i, got[i],
             exp[i]);
  }
  return bad;
}

static inline int sample_compare_i32(const char *what, const int32_t *got,
                                     const int32_t *exp, size_t n) {
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (got[i] == exp[i])
      continue;
    if (bad++ < 5)
      printf("%s: element %zu: got %d, expected %d\n", what, i, got[i],
             exp[i]);
  }
  return bad;
}

static inline void sample_print_f32(const char *name, const float *p,
                                    int rows, int cols, int ld) {
  printf("%s (%dx%d):\n", name, rows, cols);
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++)
      printf(" %8.4f", p[r * ld + c]);
    printf("\n");
  }
}

/* Exits the sample: 0 when everything matched. */
static inline int sample_result(const char *name, int bad) {
  if (bad) {
    printf("%s: FAILED (%d mismatches against the reference)\n", name, bad);
    return 1;
  }
  printf("%s: OK (matches the reference)\n", name);
  return 0;
}

#define SAMPLE_CHECK_REF(call)                                                 \
  do {                                                                         \
    if ((call) != 0) {                                                         \
      printf("reference error: %s\n", tlxrt_last_error());                     \
      return 2;                                                                \
    }                                                                          \
  } while (0)

#endif
