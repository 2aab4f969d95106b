/* tlx_reduce.c - reductions of an R x C f32 matrix, written with tlx.h's
 * short form and built by tlx-cc, or (-DPLAIN_C) as the loop a C user
 * writes, built with clang -O3 -march=native -ffast-math - the anchor the
 * TLX row is a ratio of. -D: KIND (0: row max, window 1 x C; 1: column
 * sums, window R x 1; 2: full max), R, C, NAME. Prints
 * "NAME reduce-<kind> R C 0 GB/s" (bytes of the matrix read per second,
 * best of many passes; the matrix, 16 MiB at 2048 x 2048, stays in the
 * last-level cache of the CPUs measured so far). */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifndef PLAIN_C
#include <tlx.h>
#endif

#ifndef KIND
#define KIND 0
#endif
#ifndef R
#define R 2048
#endif
#ifndef C
#define C 2048
#endif
#ifndef NAME
#define NAME "tlx"
#endif
#define OUT_R (KIND == 1 || KIND == 2 ? 1 : R)
#define OUT_C (KIND == 0 || KIND == 2 ? 1 : C)

static float in[R][C], out[OUT_R][OUT_C];

static __attribute__((noinline)) void reduce(void) {
#ifdef PLAIN_C
  if (KIND == 0) {
    for (int i = 0; i < R; i++) {
      float m = -FLT_MAX;
      for (int j = 0; j < C; j++)
        m = in[i][j] > m ? in[i][j] : m;
      out[i][0] = m;
    }
  } else if (KIND == 1) {
    for (int j = 0; j < C; j++)
      out[0][j] = 0;
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++)
        out[0][j] += in[i][j];
  } else {
    float m = -FLT_MAX;
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++)
        m = in[i][j] > m ? in[i][j] : m;
    out[0][0] = m;
  }
#else
  tlx_token_t t = TLX_LOAD(in, R, C);
#if KIND == 0
  TLX_STORE(out, tlx_reduce_max(t, TLX_DIMS(1, C), TLX_DIMS(1, 1)));
#elif KIND == 1
  TLX_STORE(out, tlx_reduce_add(t, TLX_DIMS(R, 1), TLX_DIMS(1, 1)));
#else
  TLX_STORE(out, tlx_reduce_max(t, TLX_DIMS(R, C), TLX_DIMS(1, 1)));
#endif
#endif
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The expected results, computed in double (column sums) or exactly. */
static int check(void) {
  for (int i = 0; i < OUT_R; i++)
    for (int j = 0; j < OUT_C; j++) {
      double want = KIND == 1 ? 0 : -DBL_MAX;
      for (int a = 0; a < (KIND == 1 || KIND == 2 ? R : 1); a++)
        for (int b = 0; b < (KIND == 0 || KIND == 2 ? C : 1); b++) {
          double x = in[KIND == 0 ? i + a : a][KIND == 1 ? j + b : b];
          want = KIND == 1 ? want + x : (x > want ? x : want);
        }
      if (fabs(out[i][j] - want) > 1e-3 * (1 + fabs(want)))
        return 1;
    }
  return 0;
}

int main(void) {
  static const char *const kinds[] = {"rowmax", "colsum", "max"};
  srand(1);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      in[i][j] = (float)(rand() % 2001 - 1000) / 64;
  reduce();
  if (check()) {
    printf("%s reduce-%s %d %d 0 FAILED\n", NAME, kinds[KIND], R, C);
    return 1;
  }
  double best = 1e30;
  for (int rep = 0; rep < 60; rep++) {
    double t0 = now();
    reduce();
    double t = now() - t0;
    best = t < best ? t : best;
  }
  printf("%s reduce-%s %d %d 0 %.1f\n", NAME, kinds[KIND], R, C,
         (double)R * C * sizeof(float) / best * 1e-9);
  return 0;
}
