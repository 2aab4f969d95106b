// int8 umma/smma/usmma/summa on Arm SME (-march=armv9-a+sme): UMOPA,
// SMOPA, USMOPA and SUMOPA (the first letter A's signedness, the second
// B's) on 2x2 ZA tiles, 4 k values per 32-bit lane. Odd sizes (tails in M,
// N and K, K not a multiple of 4), full-range operands (-128 and 255),
// initial sums read from another matrix, a column-major B, K = 1001, and
// accumulation in place; exact, against plain C loops, at -O0 and -O2 and
// at the smallest and largest streaming vector lengths.
// The programs run only where qemu computes the integer outer products
// correctly (lit feature qemu-sme-imopa): QEMU 7.2, Debian 12's, takes
// A's row 2i + (j & 1) for ZA0.S[i][j] (test/AArch64/Inputs/
// sme-imopa-probe.c), so there the code and the remarks are checked and
// the programs are only built; .ci/setup installs qemu 10, which runs them.
// REQUIRES: aarch64-cross
// RUN: %a64_tlx_cc -O2 -march=armv9-a+sme -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: %a64_tlx_cc -O2 -march=armv9-a+sme -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %a64_tlx_cc -w -O0 -march=armv9-a+sme %s -o %t0
// RUN: %a64_tlx_cc -w -O2 -march=armv9-a+sme %s -o %t2
// RUN: %if qemu-sme-imopa %{ %a64_qemu %t0 | FileCheck %s %}
// RUN: %if qemu-sme-imopa %{ %a64_qemu %t2 | FileCheck %s %}
// RUN: %if qemu-sme-imopa %{ qemu-aarch64 -cpu max,sme-default-vector-length=16 %t2 | FileCheck %s %}
// RUN: %if qemu-sme-imopa %{ qemu-aarch64 -cpu max,sme-default-vector-length=256 %t2 | FileCheck %s %}
// REMARK: remark: umma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on SME, kernel sme u8u8s32 umopa 2x2 tiles{{.*}}, initial sums read through the accumulator's strides
// REMARK: remark: smma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on SME, kernel sme s8s8s32 smopa 2x2 tiles
// REMARK: remark: usmma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on SME, kernel sme u8s8s32 usmopa 2x2 tiles
// REMARK: remark: summa: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on SME, kernel sme s8u8s32 sumopa 2x2 tiles
// REMARK: remark: smma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on SME, kernel sme s8s8s32 smopa 2x2 tiles
// REMARK: remark: umma: 7x1001x9 (MxKxN) i8 x i8 -> i32 GEMM on SME, kernel sme u8u8s32 umopa 2x2 tiles
// REMARK: remark: smma: 17x33x100 (MxKxN) i8 x i8 -> i32 GEMM on SME, kernel sme s8s8s32 smopa 2x2 tiles{{.*}}, accumulating in place
// ASM-LABEL: test_umma:
// ASM: tlx.sme.gemm
// ASM-LABEL: test_smma:
// ASM: tlx.sme.gemm
// ASM-LABEL: test_usmma:
// ASM: tlx.sme.gemm
// ASM-LABEL: test_summa:
// ASM: tlx.sme.gemm
// The kernels, in the same order: the four outer products of the k loop
// and its back branch.
// ASM-LABEL: tlx.sme.gemm:
// ASM: umopa za0.s, p{{[0-9]+}}/m, p{{[0-9]+}}/m, z{{[0-9]+}}.b, z{{[0-9]+}}.b
// ASM-NOT: {{^\.LBB}}
// ASM: umopa za1.s
// ASM-NOT: {{^\.LBB}}
// ASM: umopa za2.s
// ASM-NOT: {{^\.LBB}}
// ASM: umopa za3.s
// ASM-NOT: {{^\.LBB}}
// ASM: b.{{[a-z]+}} .LBB
// ASM-LABEL: tlx.sme.gemm.{{[0-9]+}}:
// ASM: smopa za0.s, p{{[0-9]+}}/m, p{{[0-9]+}}/m, z{{[0-9]+}}.b, z{{[0-9]+}}.b
// ASM-NOT: {{^\.LBB}}
// ASM: smopa za1.s
// ASM-NOT: {{^\.LBB}}
// ASM: smopa za2.s
// ASM-NOT: {{^\.LBB}}
// ASM: smopa za3.s
// ASM-NOT: {{^\.LBB}}
// ASM: b.{{[a-z]+}} .LBB
// ASM-LABEL: tlx.sme.gemm.{{[0-9]+}}:
// ASM: usmopa za0.s, p{{[0-9]+}}/m, p{{[0-9]+}}/m, z{{[0-9]+}}.b, z{{[0-9]+}}.b
// ASM-NOT: {{^\.LBB}}
// ASM: usmopa za1.s
// ASM-NOT: {{^\.LBB}}
// ASM: usmopa za2.s
// ASM-NOT: {{^\.LBB}}
// ASM: usmopa za3.s
// ASM-NOT: {{^\.LBB}}
// ASM: b.{{[a-z]+}} .LBB
// ASM-LABEL: tlx.sme.gemm.{{[0-9]+}}:
// ASM: sumopa za0.s, p{{[0-9]+}}/m, p{{[0-9]+}}/m, z{{[0-9]+}}.b, z{{[0-9]+}}.b
// ASM-NOT: {{^\.LBB}}
// ASM: sumopa za1.s
// ASM-NOT: {{^\.LBB}}
// ASM: sumopa za2.s
// ASM-NOT: {{^\.LBB}}
// ASM: sumopa za3.s
// ASM-NOT: {{^\.LBB}}
// ASM: b.{{[a-z]+}} .LBB
// CHECK: umma: ok
// CHECK: smma: ok
// CHECK: usmma: ok
// CHECK: summa: ok
// CHECK: smma column-major B: ok
// CHECK: umma long K: ok
// CHECK: smma in place: ok
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
  __attribute__((noinline)) void test_##OP(void) {                                                \
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

// 17 x 33 x 100, C += A B with C the accumulator itself.
#define IM 17
#define IK 33
#define IN 100
typedef int32_t vin __attribute__((__vector_size__(IM * IN * 4)));
TLX_DECLARE_TENSOR_OPS_AS(vin, in)
static int8_t IA[IM * IK], IB[IK * IN];
static int32_t IAcc[IM * IN], IC[IM * IN];

__attribute__((noinline)) static void inPlace(void) {
  for (int i = 0; i < IM * IN; ++i)
    IC[i] = IAcc[i];
  tlx_token_t xc =
      tensor_load(IC, TLX_SHAPE(IM, IN), ROW, TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xa =
      tensor_load(IA, TLX_SHAPE(IM, IK), ROW, TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xb =
      tensor_load(IB, TLX_SHAPE(IK, IN), ROW, TLX_ZEROS(2), TLX_ZEROS(2));
  vin r = tensor_smma_in(xc, xa, xb);
  tensor_store(IC, tensor_typeinfo(r, TLX_SHAPE(IM, IN), ROW, TLX_ZEROS(2)),
               TLX_ZEROS(2));
  check("smma in place", IC, IAcc, IA, 0, IB, 0, 0, IM, IN, IK);
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
  fill(IA, IM * IK);
  fill(IB, IK * IN);
  for (int i = 0; i < IM * IN; ++i)
    IAcc[i] = (int32_t)(next() * 77);
  inPlace();
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
