// int8 umma/smma/usmma/summa on AVX2 without VNNI (-march=x86-64-v3): the
// exact vpmaddwd kernel (operands widened to i16 in packing), odd sizes
// (tails in M, N and K, K odd), full-range operands (-128 and 255
// included, where vpmaddubsw's i16 pair sums would saturate), a
// column-major B (element-copy packing) and a second K block; compared
// with plain C loops at -O0 and -O2.
// REQUIRES: cpu-avx2
// RUN: %clang_tlx -w -O0 -march=x86-64-v3 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 -march=x86-64-v3 -Rpass=tlx-tile %s %tlx_rt -o %t2 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %t2 | FileCheck %s
// The 7x1001x9 umma through the blocked vpmaddwd kernel too:
// RUN: %clang_tlx -w -O2 -march=x86-64-v3 -mllvm -tlx-stream-max-rows=0 %s %tlx_rt -o %tb && %tb | FileCheck %s
// REMARK: remark: umma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec256 u8u8s32 vpmaddwd {{[0-9]+}}x16
// REMARK: remark: smma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec256 s8s8s32 vpmaddwd {{[0-9]+}}x16
// REMARK: remark: usmma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec256 u8s8s32 vpmaddwd {{[0-9]+}}x16
// REMARK: remark: summa: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec256 s8u8s32 vpmaddwd {{[0-9]+}}x16
// REMARK: remark: smma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec256 s8s8s32 vpmaddwd {{[0-9]+}}x16
// REMARK: remark: umma: 7x1001x9 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel streamed axpy i8->i32
// CHECK: umma: ok
// CHECK: smma: ok
// CHECK: usmma: ok
// CHECK: summa: ok
// CHECK: smma column-major B: ok
// CHECK: umma long K: ok
// CHECK: PASSED
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>

#define M 37
#define K 29
#define N 45
typedef int32_t vmn __attribute__((__vector_size__(M * N * 4)));
TLX_DECLARE_TENSOR_OPS_AS(vmn, mn)
#define LK 1001
typedef int32_t vlong __attribute__((__vector_size__(7 * 9 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(vlong, long)

static int8_t A[M * K], B[K * N], BT[N * K];
// The same bits, for the operands read as unsigned.
static uint8_t UA[M * K], UB[K * N], LA[7 * LK], LB[LK * 9];
static int32_t Acc[M * N], C[M * N], LAcc[7 * 9], LC[7 * 9];
static int failures;
static uint32_t state = 2024u;

static int8_t next(void) {
  state = state * 1664525u + 1013904223u;
  return (int8_t)(state >> 24);
}

static void fill(void *dst, int n) {
  int8_t *p = dst;
  for (int i = 0; i < n; ++i)
    p[i] = next();
  // A run of -128 (255 unsigned) and 127: the largest products and sums.
  for (int i = 0; i < n / 3; ++i)
    p[i] = (int8_t)(i % 2 ? 127 : -128);
}

static int32_t elem(const void *p, int i, int isUnsigned) {
  return isUnsigned ? (int32_t)((const uint8_t *)p)[i]
                    : (int32_t)((const int8_t *)p)[i];
}

// want[m][n] = acc[m][n] + sum_k a[m][k] * b[k][n], in wrapping i32.
static void check(const char *name, const int32_t *got, const int32_t *acc,
                  const void *a, int au, const void *b, int bu, int bcol,
                  int m, int n, int k) {
  int bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      uint32_t want = (uint32_t)acc[i * n + j];
      for (int p = 0; p < k; ++p)
        want += (uint32_t)(elem(a, i * k + p, au) *
                           elem(b, bcol ? j * k + p : p * n + j, bu));
      if ((uint32_t)got[i * n + j] != want && bad++ < 5)
        printf("%s: [%d][%d] = %d, want %d\n", name, i, j, got[i * n + j],
               (int32_t)want);
    }
  printf("%s: %s\n", name, bad ? "FAILED" : "ok");
  failures += bad != 0;
}

#define ROW TLX_LAYOUT(0, 1)
#define MMA_CASE(OP, XA, AU, XB, BU)                                           \
  static void test_##OP(void) {                                                \
    tlx_token_t xacc =                                                         \
        tensor_load(Acc, TLX_SHAPE(M, N), ROW, TLX_ZEROS(2), TLX_ZEROS(2));    \
    tlx_token_t xa =                                                           \
        tensor_load(XA, TLX_SHAPE(M, K), ROW, TLX_ZEROS(2), TLX_ZEROS(2));     \
    tlx_token_t xb =                                                           \
        tensor_load(XB, TLX_SHAPE(K, N), ROW, TLX_ZEROS(2), TLX_ZEROS(2));     \
    vmn r = tensor_##OP##_mn(xacc, xa, xb);                                    \
    tensor_store(C, tensor_typeinfo(r, TLX_SHAPE(M, N), ROW, TLX_ZEROS(2)),    \
                 TLX_ZEROS(2));                                                \
    check(#OP, C, Acc, XA, AU, XB, BU, 0, M, N, K);                            \
  }
MMA_CASE(umma, UA, 1, UB, 1)
MMA_CASE(smma, A, 0, B, 0)
MMA_CASE(usmma, UA, 1, B, 0)
MMA_CASE(summa, A, 0, UB, 1)

// B stored transposed (N x K, layout <1,0>): packed element by element.
static void columnMajorB(void) {
  tlx_token_t xacc =
      tensor_load(Acc, TLX_SHAPE(M, N), ROW, TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xa =
      tensor_load(A, TLX_SHAPE(M, K), ROW, TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xb = tensor_load(BT, TLX_SHAPE(N, K), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  vmn r = tensor_smma_mn(xacc, xa, xb);
  tensor_store(C, tensor_typeinfo(r, TLX_SHAPE(M, N), ROW, TLX_ZEROS(2)),
               TLX_ZEROS(2));
  check("smma column-major B", C, Acc, A, 0, BT, 0, 1, M, N, K);
}

// K = 1001: odd, and more than one K block.
static void longK(void) {
  tlx_token_t xacc =
      tensor_load(LAcc, TLX_SHAPE(7, 9), ROW, TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xa =
      tensor_load(LA, TLX_SHAPE(7, LK), ROW, TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xb =
      tensor_load(LB, TLX_SHAPE(LK, 9), ROW, TLX_ZEROS(2), TLX_ZEROS(2));
  vlong r = tensor_umma_long(xacc, xa, xb);
  tensor_store(LC, tensor_typeinfo(r, TLX_SHAPE(7, 9), ROW, TLX_ZEROS(2)),
               TLX_ZEROS(2));
  check("umma long K", LC, LAcc, LA, 1, LB, 1, 0, 7, 9, LK);
}

int main(void) {
  fill(A, M * K);
  fill(B, K * N);
  fill(LA, 7 * LK);
  fill(LB, LK * 9);
  memcpy(UA, A, sizeof A);
  memcpy(UB, B, sizeof B);
  for (int i = 0; i < N * K; ++i)
    BT[i] = B[(i % K) * N + i / K]; // BT[n][k] = B[k][n]
  for (int i = 0; i < M * N; ++i)
    Acc[i] = (int32_t)(next() * 1000);
  for (int i = 0; i < 7 * 9; ++i)
    LAcc[i] = 1 << 30;
  test_umma();
  test_smma();
  test_usmma();
  test_summa();
  columnMajorB();
  longK();
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
