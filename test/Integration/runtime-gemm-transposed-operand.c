// A run-time-sized GEMM whose other operand is a transpose of constant
// extents (docs/ops.md's `tlx_matmul(a, tlx_transpose(b))` with only `a`
// run-time): the transpose gets no buffer, and the run-time GEMM reads its
// memory through swapped strides, as the constant-extent GEMM does. Both
// transpose forms (the permuting one keeps the logical tensor, stored
// column-major), on either side, an smma of int8 - every element against
// plain C, at M = 0, 1, a tail and beyond.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 %t0 | FileCheck %s %}
// CHECK: a x b^T: ok
// CHECK: a x b, b permuted: ok
// CHECK: b^T x a: ok
// CHECK: smma int8: ok
// CHECK: PASSED
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

#define K 5
#define N 3

static int failures;

static void expect(const char *what, int m, int i, double got, double want) {
  if (got != want && failures++ < 10)
    printf("%s, m = %d: [%d] = %g, want %g\n", what, m, i, got, want);
}

static float a[17 * K], b[N * K], c[17 * N];
static int8_t ai[17 * 8], bi[N * 8];
static int32_t acc[17 * N], ci[17 * N];

/* c (m x N) = a (m x K) x b^T, b stored N x K. */
static void abt(int m) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, m, K), tlx_transpose(TLX_LOAD(b, N, K))));
}
/* The permuting form keeps the logical tensor: c = a x b, b stored K x N
 * and read column-major. */
static void abPermuting(int m) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, m, K),
                          tlx_transpose(TLX_LOAD(b, K, N), TLX_LAYOUT(1, 0))));
}
/* c (N x m) = b^T (b stored K x N) x a (stored K x m). */
static void btA(int m) {
  TLX_STORE(c, tlx_matmul(tlx_transpose(TLX_LOAD(b, K, N)), TLX_LOAD(a, K, m)));
}
/* ci (m x N) = acc + ai (m x 8) x bi^T, bi stored N x 8. */
static void smmaBt(int m) {
  TLX_STORE(ci, tlx_smma(TLX_LOAD(acc, m, N), TLX_LOAD(ai, m, 8),
                         tlx_transpose(TLX_LOAD(bi, N, 8))));
}

int main(void) {
  static const int Ms[] = {0, 1, 4, 17};
  int ok[4] = {1, 1, 1, 1};
  for (int i = 0; i < 17 * K; ++i)
    a[i] = (float)(i % 11 - 5) * 0.5f;
  for (int i = 0; i < N * K; ++i)
    b[i] = (float)(i % 7 - 3);
  for (int i = 0; i < 17 * 8; ++i)
    ai[i] = (int8_t)(i * 37 - 100);
  for (int i = 0; i < N * 8; ++i)
    bi[i] = (int8_t)(90 - i * 13);
  for (int i = 0; i < 17 * N; ++i)
    acc[i] = i * 1000 - 7;
  for (int s = 0; s < 4; ++s) {
    int m = Ms[s], before = failures;
    for (int form = 0; form < 2; ++form) {
      before = failures;
      if (form)
        abPermuting(m);
      else
        abt(m);
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < N; ++j) {
          float sum = 0;
          for (int k = 0; k < K; ++k)
            sum += a[i * K + k] * (form ? b[k * N + j] : b[j * K + k]);
          expect(form ? "a x b (permuting transpose)" : "a x b^T", m,
                 i * N + j, c[i * N + j], sum);
        }
      ok[form] &= failures == before;
    }
    before = failures;
    btA(m);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < m; ++j) {
        float sum = 0;
        for (int k = 0; k < K; ++k)
          sum += b[k * N + i] * a[k * m + j];
        expect("b^T x a", m, i * m + j, c[i * m + j], sum);
      }
    ok[2] &= failures == before;
    before = failures;
    smmaBt(m);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < N; ++j) {
        int32_t sum = acc[i * N + j];
        for (int k = 0; k < 8; ++k)
          sum += ai[i * 8 + k] * bi[j * 8 + k];
        expect("smma", m, i * N + j, ci[i * N + j], sum);
      }
    ok[3] &= failures == before;
  }
  printf("a x b^T: %s\n", ok[0] ? "ok" : "FAILED");
  printf("a x b, b permuted: %s\n", ok[1] ? "ok" : "FAILED");
  printf("b^T x a: %s\n", ok[2] ? "ok" : "FAILED");
  printf("smma int8: %s\n", ok[3] ? "ok" : "FAILED");
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
