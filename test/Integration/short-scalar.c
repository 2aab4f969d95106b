// TLX_SCALAR(T, token): a tensor of one element - a full reduction - read
// as a C value, in C arithmetic and control flow: an RMS norm's sum of
// squares over a run-time length, an integer sum, the max of a 2-D
// window, a dot product. At -O0 and -O2, in C and C++; against plain C.
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t0 && %t0 7 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 %s %tlx_rt -o %t2 && %t2 7 | FileCheck %s
// RUN: %t2 1 | FileCheck %s
// RUN: %t2 40 | FileCheck %s
// RUN: %clang_tlx -x c++ -O2 -c %s -o %t.o && %clang_tlx %t.o %tlx_rt -o %tx && %tx 7 | FileCheck %s
// RUN: not %t2 0 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: %t0 7 1 | FileCheck %s --check-prefix=ONE
// RUN: not %t0 7 3 2>&1 | FileCheck %s --check-prefix=MORE
// RUN: not %t2 7 3 2>&1 | FileCheck %s --check-prefix=MORE
// CHECK: ok
// EMPTY: error: 'tlx_reduce_add': window entry 0 of dimension 0 must be >= 1
// ONE: relu 0
// MORE: short-scalar.c:[[@LINE+20]]:10: error: 'TLX_SCALAR': the destination spans 3 elements (3 float) at run time starting at element 0 of 'tlx_scalar', which has 1 (float)
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

static float x[64], m[3][4];
static int32_t v[64];

/* 1 / sqrt(mean(x^2) + eps), the RMSNorm scale */
static float rms_scale(const float *p, int n) {
  float ss = TLX_SCALAR(float, tlx_reduce_add(tlx_mul(TLX_LOAD(p, n),
                                                      TLX_LOAD(p, n)),
                                              TLX_DIMS(n), TLX_DIMS(n)));
  return 1.0f / sqrtf(ss / (float)n + 1e-5f);
}

/* a tensor of k elements as a scalar: right for k = 1 only */
static float relu_of_first(const float *p, int k) {
  return TLX_SCALAR(float, tlx_relu(TLX_LOAD(p, k)));
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 7, bad = 0;
  for (int i = 0; i < 64; ++i) {
    x[i] = (float)(i % 9) * 0.25f - 1.0f;
    v[i] = i * 37 % 101 - 50;
  }
  for (int i = 0; i < 12; ++i)
    m[i / 4][i % 4] = (float)(i * 5 % 7) - 3.0f;

  float ss = 0;
  for (int i = 0; i < n; ++i)
    ss += x[i] * x[i];
  float want = 1.0f / sqrtf(ss / (float)n + 1e-5f);
  float got = rms_scale(x, n);
  if (fabsf(got - want) > 1e-5f * want) {
    printf("rms %g, want %g\n", got, want);
    bad = 1;
  }

  int32_t isum = 0;
  for (int i = 0; i < n; ++i)
    isum += v[i];
  int32_t itlx = TLX_SCALAR(int32_t, tlx_reduce_add(TLX_LOAD(v, n),
                                                    TLX_DIMS(n), TLX_DIMS(n)));
  if (itlx != isum) {
    printf("sum %d, want %d\n", (int)itlx, (int)isum);
    bad = 1;
  }

  float mmax = m[0][0];
  for (int i = 0; i < 12; ++i)
    mmax = m[i / 4][i % 4] > mmax ? m[i / 4][i % 4] : mmax;
  /* in a condition, constant extents */
  if (TLX_SCALAR(float, tlx_reduce_max(TLX_LOAD(m, 3, 4), TLX_DIMS(3, 4),
                                       TLX_DIMS(3, 4))) != mmax) {
    printf("max differs\n");
    bad = 1;
  }

  /* a dot product: a 1 x n row times an n x 1 column */
  float dtlx = TLX_SCALAR(float, tlx_matmul(TLX_LOAD(x, 1, n),
                                            TLX_LOAD(&x[64 - n], n, 1)));
  float rdot = 0;
  for (int i = 0; i < n; ++i)
    rdot += x[i] * x[64 - n + i];
  if (fabsf(dtlx - rdot) > 1e-4f * (1 + fabsf(rdot))) {
    printf("dot %g, want %g\n", dtlx, rdot);
    bad = 1;
  }
  if (argc > 2)
    printf("relu %g\n", relu_of_first(x, atoi(argv[2])));
  puts(bad ? "FAILED" : "ok");
  return bad;
}
