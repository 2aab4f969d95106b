// The short form's mma family with a C scalar accumulator: tlx_smma(0, a,
// b) sums int8 (or int16) products in int32 without an accumulator in
// memory - the int8 GEMM of the short form - for all four signednesses,
// a zero, a literal and a variable, constant and run-time extents
// (a skinny product and a blocked one), a fused relu; against plain C.
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t0 && %t0 5 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 %s %tlx_rt -o %t2 && %t2 5 | FileCheck %s
// RUN: %t2 1 | FileCheck %s
// RUN: %t2 70 | FileCheck %s
// RUN: %clang_tlx -x c++ -O2 -c %s -o %t.o && %clang_tlx %t.o %tlx_rt -o %tx && %tx 9 | FileCheck %s
// RUN: not %clang_tlx -fsyntax-only -DBAD %s 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: ok
// BAD: short-mma-scalar.c:[[@LINE+5]]:16: error: 'tlx_smma': a floating-point scalar with a tensor of int32_t elements
// BAD: short-mma-scalar.c:[[@LINE+5]]:16: error: 'tlx_umma': the mma ops multiply integers, not float
#ifdef BAD
#include <tlx.h>
void bad(int *c, const signed char *a, const signed char *b, const float *f) {
  TLX_STORE(c, tlx_smma(0.5f, TLX_LOAD(a, 2, 3), TLX_LOAD(b, 3, 2)));
  TLX_STORE(c, tlx_umma(0, TLX_LOAD(f, 2, 3), TLX_LOAD(f, 3, 2)));
}
#else
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

enum { K = 37, N = 23 };
static int8_t a8[80 * K], b8[K * N];
static int16_t a16[80 * K];
static int32_t c[80 * N];

static int32_t ref(int kind, int32_t acc, int i, int j, int wide) {
  uint32_t s = (uint32_t)acc;
  for (int p = 0; p < K; ++p) {
    int32_t x = wide ? a16[i * K + p] : a8[i * K + p], y = b8[p * N + j];
    if (!wide && (kind == 0 || kind == 2)) /* umma, usmma: a unsigned */
      x = (uint8_t)x;
    if (kind == 0 || kind == 3) /* umma, summa: b unsigned */
      y = (uint8_t)y;
    s += (uint32_t)x * (uint32_t)y;
  }
  return (int32_t)s;
}

static int check(const char *what, int kind, int32_t acc, int m, int wide,
                 int relu) {
  int bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < N; ++j) {
      int32_t want = ref(kind, acc, i, j, wide);
      if (relu && want < 0)
        want = 0;
      if (c[i * N + j] != want && bad++ == 0)
        printf("%s: [%d][%d] = %d, want %d\n", what, i, j, (int)c[i * N + j],
               (int)want);
    }
  return bad;
}

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 5, bad = 0;
  volatile int32_t bias = -1000;
  for (int i = 0; i < 80 * K; ++i) {
    a8[i] = (int8_t)(i * 37 + 11);
    a16[i] = (int16_t)(i * 1237 - 5000);
  }
  for (int i = 0; i < K * N; ++i)
    b8[i] = (int8_t)(i * 53 - 7);

  TLX_STORE(c, tlx_smma(0, TLX_LOAD(a8, m, K), TLX_LOAD(b8, K, N)));
  bad += check("smma 0", 1, 0, m, 0, 0);
  TLX_STORE(c, tlx_umma(0, TLX_LOAD(a8, m, K), TLX_LOAD(b8, K, N)));
  bad += check("umma 0", 0, 0, m, 0, 0);
  TLX_STORE(c, tlx_usmma(3, TLX_LOAD(a8, m, K), TLX_LOAD(b8, K, N)));
  bad += check("usmma 3", 2, 3, m, 0, 0);
  TLX_STORE(c, tlx_summa(bias, TLX_LOAD(a8, m, K), TLX_LOAD(b8, K, N)));
  bad += check("summa bias", 3, bias, m, 0, 0);
  TLX_STORE(c, tlx_relu(tlx_smma(bias, TLX_LOAD(a8, m, K),
                                 TLX_LOAD(b8, K, N))));
  bad += check("relu(smma bias)", 1, bias, m, 0, 1);
  TLX_STORE(c, tlx_smma(0, TLX_LOAD(a16, m, K), TLX_LOAD(b8, K, N)));
  bad += check("smma int16 x int8", 1, 0, m, 1, 0);
  /* constant extents: 64 rows */
  TLX_STORE(c, tlx_smma(0, TLX_LOAD(a8, 64, K), TLX_LOAD(b8, K, N)));
  bad += check("smma 64 rows", 1, 0, 64, 0, 0);
  puts(bad ? "FAILED" : "ok");
  return bad != 0;
}
#endif
