/* bench_common.h - operands, checking and timing shared by the TLX and
 * anchor benchmark programs (header-only, C11).
 *
 * Types (BT): 0 f32 x f32 -> f32, 1 s8 x s8 -> s32, 2 u8 x s8 -> s32,
 * 3 bf16 x bf16 -> f32. A is M x K, B is K x N, C is M x N, all row-major
 * and packed. Values are small integers (exact in every type) so results
 * can be compared exactly for ints and tightly for floats.
 */
#ifndef TLX_BENCH_COMMON_H
#define TLX_BENCH_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct bench_matrices {
  void *a, *b, *c;
} bench_matrices;

static inline const char *bench_type_name(int bt) {
  static const char *const names[] = {"f32", "s8s8s32", "u8s8s32", "bf16"};
  return names[bt];
}

static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* At least `reps` runs and at least ~0.3 s of work, so small sizes are
 * timed over many runs (best single run reported). */
static inline int bench_reps(int m, int n, int k, int reps) {
  double flops = 2.0 * m * n * (double)k;
  int want = (int)(0.3e9 * 100 / flops); /* ~0.3 s at 100 GFLOP/s */
  return want > reps ? (want < 2000 ? want : 2000) : reps;
}

static inline uint16_t bench_f32_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return (uint16_t)(u >> 16);
}

static inline float bench_bf16_to_f32(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static inline int bench_value(int64_t idx, int bt, int is_a) {
  uint64_t x = (uint64_t)idx * 0x9e3779b97f4a7c15ull + (is_a ? 17 : 91);
  x ^= x >> 29;
  int v = (int)(x % 15) - 7; /* -7..7 */
  if (bt == 2 && is_a)
    v += 130; /* u8 A: 123..137, crosses 128 */
  if (bt == 1 && is_a)
    v *= 18; /* s8 A: -126..126 */
  return v;
}

static inline void bench_alloc(bench_matrices *m, int bt, int M, int N,
                               int K) {
  size_t es = bt == 0 ? 4 : bt == 3 ? 2 : 1;
  size_t cs = 4;
  m->a = aligned_alloc(64, ((size_t)M * K * es + 63) / 64 * 64);
  m->b = aligned_alloc(64, ((size_t)K * N * es + 63) / 64 * 64);
  m->c = aligned_alloc(64, ((size_t)M * N * cs + 63) / 64 * 64);
  for (int64_t i = 0; i < (int64_t)M * K; ++i) {
    int v = bench_value(i, bt, 1);
    if (bt == 0)
      ((float *)m->a)[i] = (float)v;
    else if (bt == 3)
      ((uint16_t *)m->a)[i] = bench_f32_to_bf16((float)v);
    else
      ((uint8_t *)m->a)[i] = (uint8_t)v;
  }
  for (int64_t i = 0; i < (int64_t)K * N; ++i) {
    int v = bench_value(i, bt, 0);
    if (bt == 0)
      ((float *)m->b)[i] = (float)v;
    else if (bt == 3)
      ((uint16_t *)m->b)[i] = bench_f32_to_bf16((float)v);
    else
      ((int8_t *)m->b)[i] = (int8_t)v;
  }
  memset(m->c, 0, (size_t)M * N * cs);
}

static inline void bench_free(bench_matrices *m) {
  free(m->a);
  free(m->b);
  free(m->c);
}

/* The reference: a direct dot product per checked element (every element
 * when C is small, 4096 sampled ones otherwise). Values are exact
 * integers, so float results must match exactly too. Returns 0 if OK. */
static inline int bench_check(const bench_matrices *m, int bt, int M, int N,
                              int K) {
  int64_t total = (int64_t)M * N;
  int64_t samples = total <= 65536 ? total : 4096;
  int bad = 0;
  for (int64_t s = 0; s < samples; ++s) {
    int64_t e = samples == total ? s : (int64_t)((s * 2654435761u) % total);
    int i = (int)(e / N), j = (int)(e % N);
    int64_t want = 0;
    for (int k = 0; k < K; ++k) {
      int64_t av, bv;
      if (bt == 0) {
        av = (int64_t)((float *)m->a)[(int64_t)i * K + k];
        bv = (int64_t)((float *)m->b)[(int64_t)k * N + j];
      } else if (bt == 3) {
        av = (int64_t)bench_bf16_to_f32(((uint16_t *)m->a)[(int64_t)i * K + k]);
        bv = (int64_t)bench_bf16_to_f32(((uint16_t *)m->b)[(int64_t)k * N + j]);
      } else {
        uint8_t raw = ((uint8_t *)m->a)[(int64_t)i * K + k];
        av = bt == 2 ? (int64_t)raw : (int64_t)(int8_t)raw;
        bv = ((int8_t *)m->b)[(int64_t)k * N + j];
      }
      want += av * bv;
    }
    double got = bt == 0 || bt == 3 ? (double)((float *)m->c)[e]
                                    : (double)((int32_t *)m->c)[e];
    if (got != (double)want && bad++ < 5)
      fprintf(stderr, "C[%d][%d] = %.1f, want %lld\n", i, j, got,
              (long long)want);
  }
  return bad != 0;
}

/* The dense layer y = relu(alpha * (x W) + b) (bench/tlx_dense.c and the
 * onednn-dense anchor): x = A, W = B, y = C, b[j] = j % 7 - 3. f32 (bt 0)
 * with alpha 0.5, s8s8s32 (bt 1) with alpha 1 (the bias starts the s32
 * accumulator). Exact, as bench_check. Returns 0 if OK. */
static inline int bench_dense_bias(int j) { return j % 7 - 3; }

static inline int bench_check_dense(const bench_matrices *m, int bt, int M,
                                    int N, int K) {
  int64_t total = (int64_t)M * N;
  int bad = 0;
  for (int64_t s = 0; s < 4096 && s < total; ++s) {
    int64_t e = (int64_t)((s * 2654435761u) % total);
    int i = (int)(e / N), j = (int)(e % N);
    double acc = 0;
    for (int k = 0; k < K; ++k)
      acc += bt == 0 ? (double)((float *)m->a)[(int64_t)i * K + k] *
                           ((float *)m->b)[(int64_t)k * N + j]
                     : (double)((int8_t *)m->a)[(int64_t)i * K + k] *
                           ((int8_t *)m->b)[(int64_t)k * N + j];
    double z = (bt == 0 ? 0.5 : 1.0) * acc + bench_dense_bias(j);
    double want = z > 0 ? z : 0;
    double got = bt == 0 ? (double)((float *)m->c)[e]
                         : (double)((int32_t *)m->c)[e];
    if (got != want && bad++ < 5)
      fprintf(stderr, "y[%d][%d] = %.1f, want %.1f\n", i, j, got, want);
  }
  return bad != 0;
}

#endif /* TLX_BENCH_COMMON_H */
