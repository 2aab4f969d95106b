// An mma whose accumulator reads only zeros - a broadcast of, or a load
// from, a `static const` global whose initializer is all zeros: the
// u8s8s32 idiom (tensor_usmma over a broadcast zero, bench/tlx_matmul.c) -
// starts its sums from zero without reading the accumulator (AMX copied it
// into all of C first). A non-zero constant, or a zero global the program
// may write, is still read. Static and run-time sizes, on vector and AMX
// (emulated) code, at -O0 and -O2, checked against plain C.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te0 && %te0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te && %te | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// CHECK: usmma, zero: ok
// CHECK: smma, zero: ok
// CHECK: usmma, seven: ok
// CHECK: usmma, mutable zero: ok
// CHECK: usmma, run-time sizes, zero: ok
// CHECK: usmma, run-time sizes, seven: ok
// CHECK-NOT: bad
// REMARK-DAG: usmma: 19x45x33 (MxKxN) i8 x i8 -> i32 GEMM {{.*}}, initial sums zero (a constant zero accumulator, not read)
// REMARK-DAG: smma: 19x45x33 (MxKxN) i8 x i8 -> i32 GEMM {{.*}}, initial sums zero (a constant zero accumulator, not read)
// REMARK-DAG: usmma: 19x45x33 (MxKxN) i8 x i8 -> i32 GEMM {{.*}}, accumulator copied first
// REMARK-DAG: usmma: 19x45x33 (MxKxN) i8 x i8 -> i32 GEMM {{.*}}, accumulator copied first
// REMARK-DAG: usmma: {{.*}} in tlx.gemm.rt.i8ur.i8sr.i32r, shared by every call site of this kind
// REMARK-DAG: usmma: {{.*}} in tlx.gemm.rt.i8ur.i8sr.i32r.acc.initr, shared by every call site of this kind
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

#define M 19
#define K 45
#define N 33
#define RM TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), RM, TLX_ZEROS(2))
typedef int32_t vi_mn __attribute__((ext_vector_type(M * N)));
TLX_DECLARE_TENSOR_OPS_AS(vi_mn, mn)

static const int32_t zero[1] = {0};
static const int32_t seven[1] = {7};
static int32_t mutable_zero[1];
static const int32_t zeros[M * N];
static const int32_t sevens[M * N] = {[0 ... M * N - 1] = 7};

static int failures;

/* c = init + a x b in plain C (a unsigned or signed, b signed). */
static void expect(const uint8_t *a, const int8_t *b, int a_signed,
                   int32_t init, int32_t *c) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      int32_t s = init;
      for (int k = 0; k < K; k++)
        s += (a_signed ? (int8_t)a[i * K + k] : a[i * K + k]) * b[k * N + j];
      c[i * N + j] = s;
    }
}

static void check(const char *what, const int32_t *got, const int32_t *want) {
  for (int i = 0; i < M * N; i++)
    if (got[i] != want[i]) {
      printf("%s: bad at %d: got %d expected %d\n", what, i, got[i], want[i]);
      failures++;
      return;
    }
  printf("%s: ok\n", what);
}

/* The accumulator: the one-element global, broadcast to M x N. */
#define BROADCAST(g) INFO2(tensor_broadcast_mn(LOAD2(g, 1, 1)), M, N)

/* Each accumulator is a global named in the function itself. */
#define USMMA_FROM(name, g)                                                    \
  static void name(const uint8_t *a, const int8_t *b, int32_t *c) {           \
    tensor_store(c, INFO2(tensor_usmma_mn(BROADCAST(g), LOAD2(a, M, K),        \
                                          LOAD2(b, K, N)), M, N),              \
                 TLX_ZEROS(2));                                                \
  }
USMMA_FROM(usmma_zero, zero)
USMMA_FROM(usmma_seven, seven)
USMMA_FROM(usmma_mutable, mutable_zero)

static void smma_zero(const uint8_t *a, const int8_t *b, int32_t *c) {
  tensor_store(c, INFO2(tensor_smma_mn(BROADCAST(zero),
                                       LOAD2((const int8_t *)a, M, K),
                                       LOAD2(b, K, N)), M, N),
               TLX_ZEROS(2));
}

/* Run-time sizes: the accumulator loaded from an M x N constant array. */
#define USMMA_RT(name, g)                                                      \
  static void name(int m, int n, int k, const uint8_t *a, const int8_t *b,    \
                   int32_t *c) {                                               \
    TLX_STORE(c, tlx_usmma(TLX_LOAD(g, m, n), TLX_LOAD(a, m, k),               \
                           TLX_LOAD(b, k, n)));                                \
  }
USMMA_RT(usmma_rt_zero, zeros)
USMMA_RT(usmma_rt_seven, sevens)

int main(void) {
  static uint8_t a[M * K];
  static int8_t b[K * N];
  static int32_t c[M * N], want[M * N];
  for (int i = 0; i < M * K; i++)
    a[i] = (uint8_t)(i * 37 + 11);
  for (int i = 0; i < K * N; i++)
    b[i] = (int8_t)(i * 53 - 7);
  volatile int vm = M, vn = N, vk = K;

  usmma_zero(a, b, c);
  expect(a, b, 0, 0, want);
  check("usmma, zero", c, want);
  smma_zero(a, b, c);
  expect(a, b, 1, 0, want);
  check("smma, zero", c, want);
  usmma_seven(a, b, c);
  expect(a, b, 0, 7, want);
  check("usmma, seven", c, want);
  mutable_zero[0] = 5;
  usmma_mutable(a, b, c);
  expect(a, b, 0, 5, want);
  check("usmma, mutable zero", c, want);
  usmma_rt_zero(vm, vn, vk, a, b, c);
  expect(a, b, 0, 0, want);
  check("usmma, run-time sizes, zero", c, want);
  usmma_rt_seven(vm, vn, vk, a, b, c);
  expect(a, b, 0, 7, want);
  check("usmma, run-time sizes, seven", c, want);
  return failures != 0;
}
