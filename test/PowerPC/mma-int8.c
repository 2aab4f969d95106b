// int8 GEMMs of every signedness on Power10's xvi8ger4pp (MMAKernels.cpp):
// s8 x u8 as the instruction multiplies (signed A bytes by unsigned B
// bytes); s8 x s8, u8 x u8 and u8 x s8 with sign bits flipped while the
// panels are packed (B + 128, A - 128) and the sums corrected after each
// micro-kernel's k loop by -128 x A's row sums, +128 x B's column sums and
// -16384 x K (GemmVector.cpp, "flipped sign bits"). Checked against plain
// C loops at -O0 and -O2, with run-time sizes on both sides of every step
// of the driver: tails in M, N and K (K not a multiple of the 4-byte k
// group), two K blocks (KC 1344 here: the column sums' K term per block),
// two A blocks in one K block (96 rows at K 1344: the row sums per block;
// with run-time sizes an A block takes more rows of a shorter K, 1896 at
// K 67), a B panel wider than NC (3120), a transposed B (packed element by
// element), a fused relu and a scalar accumulator; the extreme bytes
// (-128, 127, 0, 255) everywhere. M or N up to 16 streams the weights
// instead (GemmStreamed.cpp: 1x1x1, 3x5x7, 8x4x16). One constant-sized
// GEMM takes the compile-time path (201 rows: three A blocks). The widened
// xvi16ger2pp kernel (-tlx-mma-sign-bias=false) gives the same answers.
// REQUIRES: ppc64le-cross
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 -S %s -o - | FileCheck %s
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 -Rpass=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ppc_tlx_cc -mcpu=power10 -O0 %s -o %t0 && %ppc_qemu %t0 | FileCheck %s --check-prefix=OUT
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 %s -o %t2 && %ppc_qemu %t2 | FileCheck %s --check-prefix=OUT
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 -mllvm -tlx-mma-sign-bias=false -Rpass=tlx-tile %s -o %tw 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: %ppc_qemu %tw | FileCheck %s --check-prefix=OUT
//
// Row sums of A (signed bytes: vmsummbm), column sums of B (unsigned
// bytes: vmsumubm), the outer products; run-time sizes share one kernel
// function per operand types (the transposed B takes u8s8's).
// CHECK-LABEL: constant_s8s8:
// CHECK-NOT: vmsumubm
// CHECK: vmsummbm
// CHECK-NOT: vmsumubm
// CHECK: xvi8ger4pp
// CHECK-LABEL: main:
// CHECK-LABEL: tlx.gemm.rt.i8sr.i8sr.i32r.acc.initr:
// CHECK-NOT: vmsumubm
// CHECK: vmsummbm
// CHECK: xvi8ger4pp
// CHECK-LABEL: tlx.gemm.rt.i8ur.i8ur.i32r.acc.initr:
// CHECK-NOT: vmsummbm
// CHECK: vmsumubm
// CHECK-NOT: vmsummbm
// CHECK: xvi8ger4pp
// CHECK-LABEL: tlx.gemm.rt.i8ur.i8sr.i32r.acc.initr:
// CHECK-DAG: vmsummbm
// CHECK-DAG: vmsumubm
// CHECK: xvi8ger4pp
// CHECK-LABEL: tlx.gemm.rt.i8sr.i8ur.i32r.acc.initr:
// CHECK-NOT: vmsum
// CHECK: xvi8ger4pp
// CHECK-NOT: vmsum
// CHECK-LABEL: tlx.gemm.rt.i8sr.i8sr.i32r.acc.initr.relu:
// CHECK: vmsummbm
// CHECK: xvi8ger4pp
//
// REMARK: remark: smma: {{.*}} kernel vec128 s8s8s32 mma xvi8ger4pp(B+128) 8x16
// REMARK: remark: umma: {{.*}} kernel vec128 u8u8s32 mma xvi8ger4pp(A-128) 8x16
// REMARK: remark: usmma: {{.*}} kernel vec128 u8s8s32 mma xvi8ger4pp(A-128 B+128) 8x16
// REMARK: remark: summa: {{.*}} kernel vec128 s8u8s32 mma xvi8ger4pp 8x16
// REMARK: remark: smma: {{.*}} kernel vec128 s8s8s32 mma xvi8ger4pp(B+128) 8x16
// REMARK: remark: usmma: calls tlx.gemm.rt.i8ur.i8sr.i32r.acc.initr,
// REMARK: remark: smma: 201x1501x45 (MxKxN) {{.*}} kernel vec128 s8s8s32 mma xvi8ger4pp(B+128) 8x16
// WIDE-COUNT-3: kernel vec128 {{s8s8|u8u8|u8s8}}s32 mma xvi16ger2pp 8x16
// WIDE: kernel vec128 s8u8s32 mma xvi8ger4pp 8x16
//
// OUT: 1x1x1: ok
// OUT: 3x5x7: ok
// OUT: 8x4x16: ok
// OUT: 17x1501x17: ok
// OUT: 201x67x45: ok
// OUT: 100x1400x20: ok
// OUT: 17x9x3200: ok
// OUT: 37x301x45: ok
// OUT: constant 201x1501x45: ok
// OUT-NOT: FAILED
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

enum { MaxM = 201, MaxK = 1501, MaxN = 3200 };
enum { S8S8, U8U8, U8S8, S8U8, Kinds };
static const char *const Names[Kinds] = {"s8s8", "u8u8", "u8s8", "s8u8"};

static int8_t SA[MaxM * MaxK], SB[MaxK * MaxN];
static uint8_t UA[MaxM * MaxK], UB[MaxK * MaxN];
static int32_t Acc[MaxM * MaxN], C[MaxM * MaxN];

__attribute__((noinline)) void gemm_s8s8(int m, int k, int n) {
  TLX_STORE(C, tlx_smma(TLX_LOAD(Acc, m, n), TLX_LOAD(SA, m, k),
                        TLX_LOAD(SB, k, n)));
}
__attribute__((noinline)) void gemm_u8u8(int m, int k, int n) {
  TLX_STORE(C, tlx_umma(TLX_LOAD(Acc, m, n), TLX_LOAD(UA, m, k),
                        TLX_LOAD(UB, k, n)));
}
__attribute__((noinline)) void gemm_u8s8(int m, int k, int n) {
  TLX_STORE(C, tlx_usmma(TLX_LOAD(Acc, m, n), TLX_LOAD(UA, m, k),
                         TLX_LOAD(SB, k, n)));
}
__attribute__((noinline)) void gemm_s8u8(int m, int k, int n) {
  TLX_STORE(C, tlx_summa(TLX_LOAD(Acc, m, n), TLX_LOAD(SA, m, k),
                         TLX_LOAD(UB, k, n)));
}
/* Fused epilogue and a scalar accumulator. */
__attribute__((noinline)) void relu_s8s8(int m, int k, int n) {
  TLX_STORE(C, tlx_relu(tlx_smma(-1000, TLX_LOAD(SA, m, k),
                                 TLX_LOAD(SB, k, n))));
}
/* B stored n x k (its transpose): packed element by element. */
__attribute__((noinline)) void transposed_u8s8(int m, int k, int n) {
  TLX_STORE(C, tlx_usmma(TLX_LOAD(Acc, m, n), TLX_LOAD(UA, m, k),
                         tlx_transpose(TLX_LOAD(SB, n, k))));
}

typedef int32_t vconst __attribute__((ext_vector_type(201 * 45)));
TLX_DECLARE_TENSOR_OPS_AS(vconst, c)
#define RM TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n)                                                         \
  tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))
__attribute__((noinline)) void constant_s8s8(void) {
  vconst r = tensor_smma_c(LOAD2(Acc, 201, 45), LOAD2(SA, 201, 1501),
                           LOAD2(SB, 1501, 45));
  tensor_store(C, tensor_typeinfo(r, TLX_SHAPE(201, 45), RM, TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

static unsigned Seed = 2026;
static unsigned next(void) {
  Seed = Seed * 1103515245u + 12345u;
  return Seed >> 16;
}
/* Mostly random bytes, an eighth of them the extremes. */
static unsigned byte(void) {
  static const unsigned Extremes[] = {0x80, 0x7f, 0x00, 0xff};
  unsigned R = next();
  return R % 8 == 0 ? Extremes[(R >> 3) % 4] : (R >> 3) & 0xff;
}

static int32_t expected(int Kind, int I, int J, int m, int k, int n,
                        int Transposed) {
  uint32_t Sum = (uint32_t)Acc[I * n + J]; /* wraps as the GEMM's i32 */
  int SignedA = Kind == S8S8 || Kind == S8U8;
  int SignedB = Kind == S8S8 || Kind == U8S8;
  const int8_t *SRow = SA + I * k;
  const uint8_t *URow = UA + I * k;
  int BAt = Transposed ? J * k : J, BStep = Transposed ? 1 : n;
  for (int P = 0; P < k; ++P, BAt += BStep) {
    int32_t A = SignedA ? SRow[P] : URow[P];
    int32_t B = SignedB ? SB[BAt] : UB[BAt];
    Sum += (uint32_t)(A * B);
  }
  return (int32_t)Sum;
}

static int wrong(int Kind, int m, int k, int n, int Transposed, int Relu) {
  int Bad = 0;
  for (int I = 0; I < m; ++I)
    for (int J = 0; J < n; ++J) {
      int32_t Want = expected(Kind, I, J, m, k, n, Transposed);
      if (Relu && Want < 0)
        Want = 0;
      Bad += C[I * n + J] != Want;
    }
  return Bad;
}

static void check(int m, int k, int n) {
  int Bad = 0;
  for (int Kind = 0; Kind < Kinds; ++Kind) {
    for (int I = 0; I < m * n; ++I)
      Acc[I] = (int32_t)(next() * 40503u) - 1000000;
    void (*const Gemms[Kinds])(int, int, int) = {gemm_s8s8, gemm_u8u8,
                                                 gemm_u8s8, gemm_s8u8};
    Gemms[Kind](m, k, n);
    int Wrong = wrong(Kind, m, k, n, 0, 0);
    if (Wrong)
      printf("  %s: %d wrong\n", Names[Kind], Wrong);
    Bad += Wrong;
  }
  /* relu(-1000 + a b): the accumulator a scalar. */
  for (int I = 0; I < m * n; ++I)
    Acc[I] = -1000;
  relu_s8s8(m, k, n);
  int Wrong = wrong(S8S8, m, k, n, 0, 1);
  if (Wrong)
    printf("  relu s8s8: %d wrong\n", Wrong);
  Bad += Wrong;
  transposed_u8s8(m, k, n);
  Wrong = wrong(U8S8, m, k, n, 1, 0);
  if (Wrong)
    printf("  transposed u8s8: %d wrong\n", Wrong);
  Bad += Wrong;
  printf("%dx%dx%d: %s\n", m, k, n, Bad ? "FAILED" : "ok");
}

int main(void) {
  for (int I = 0; I < MaxM * MaxK; ++I)
    SA[I] = (int8_t)byte(), UA[I] = (uint8_t)byte();
  for (int I = 0; I < MaxK * MaxN; ++I)
    SB[I] = (int8_t)byte(), UB[I] = (uint8_t)byte();
  static const int Sizes[][3] = {
      {1, 1, 1},     {3, 5, 7},       {8, 4, 16},    {17, 1501, 17},
      {201, 67, 45}, {100, 1400, 20}, {17, 9, 3200}, {37, 301, 45}};
  for (unsigned S = 0; S < sizeof Sizes / sizeof Sizes[0]; ++S)
    check(Sizes[S][0], Sizes[S][1], Sizes[S][2]);
  for (int I = 0; I < 201 * 45; ++I)
    Acc[I] = (int32_t)(next() * 40503u);
  constant_s8s8();
  int Bad = wrong(S8S8, 201, 1501, 45, 0, 0);
  printf("constant 201x1501x45: %s\n", Bad ? "FAILED" : "ok");
  return 0;
}
