// The other element types of Power10's matrix-multiply assist
// (GemmVector.cpp, chooseMMA): f64 outer products xvf64gerpp (4 rows of A
// in a 32-byte register pair by 2 columns of B: an 8 x 8 block in the
// eight accumulators), int8 -> i32 xvi8ger4pp (it multiplies signed
// bytes of A by unsigned bytes of B, 4 k per lane: the other signednesses
// flip sign bits and correct the sums, mma-int8.c), and s16 x s16 as
// xvi16ger2pp (2 k per lane; exact, the wrapping form, not xvi16ger2s).
// Accumulators start from a non-zero C; M, N and K have tails. Every
// result is exact; runs under qemu at -O0 and -O2. Power9 keeps the VSX
// kernels (dispatch off; mma-dispatch.c has both).
// REQUIRES: ppc64le-cross
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 -S %s -o - | FileCheck %s
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 -Rpass=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ppc_tlx_cc -mcpu=power9 -fplugin-arg-tlx-dispatch=off -O2 -Rpass=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=POWER9
// RUN: %ppc_tlx_cc -mcpu=power10 -O0 %s -o %t0 && %ppc_qemu %t0 | FileCheck %s --check-prefix=OUT
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 %s -o %t2 && %ppc_qemu %t2 | FileCheck %s --check-prefix=OUT
//
// CHECK-LABEL: f64:
// CHECK: xvf64gerpp
// CHECK: xxmfacc
// CHECK-LABEL: s8s8:
// CHECK: xvi8ger4pp
// CHECK-LABEL: u8u8:
// CHECK: xvi8ger4pp
// CHECK-LABEL: u8s8:
// CHECK: xvi8ger4pp
// CHECK-LABEL: s8u8:
// CHECK: xvi8ger4pp
// CHECK-LABEL: s16s16:
// CHECK: xvi16ger2pp
//
// REMARK: matmul: 37x29x45 (MxKxN) f64 x f64 -> f64 GEMM on vectors, kernel vec128 f64 mma xvf64gerpp 8x8
// REMARK: smma: 37x301x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec128 s8s8s32 mma xvi8ger4pp(B+128) 8x16
// REMARK: umma: {{.*}} kernel vec128 u8u8s32 mma xvi8ger4pp(A-128) 8x16
// REMARK: usmma: {{.*}} kernel vec128 u8s8s32 mma xvi8ger4pp(A-128 B+128) 8x16
// REMARK: summa: {{.*}} kernel vec128 s8u8s32 mma xvi8ger4pp 8x16
// REMARK: smma: {{.*}} i16 x i16 -> i32 GEMM on vectors, kernel vec128 s16s16s32 mma xvi16ger2pp 8x16
// POWER9: kernel vec128 fma f64
// POWER9-COUNT-5: kernel vec128 mul-add i32
// POWER9-NOT: xv{{.*}}ger
//
// OUT: f64: ok
// OUT: s8s8: ok
// OUT: u8u8: ok
// OUT: u8s8: ok
// OUT: s8u8: ok
// OUT: s16s16: ok
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>
#define RM TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), RM, TLX_ZEROS(2))
enum { M = 37, K = 301, N = 45, KD = 29 };
typedef int32_t vi __attribute__((ext_vector_type(M * N)));
typedef double vd __attribute__((ext_vector_type(M * N)));
TLX_DECLARE_TENSOR_OPS_AS(vi, i)
TLX_DECLARE_TENSOR_OPS_AS(vd, d)
static int8_t sa[M * K], sb[K * N];
static uint8_t ua[M * K], ub[K * N];
static int16_t wa[M * K], wb[K * N];
static int32_t c0[M * N], y[5][M * N];
static double da[M * KD], db[KD * N], yd[M * N];
__attribute__((noinline)) void f64(void) {
  vd r = tensor_matmul_d(LOAD2(da, M, KD), LOAD2(db, KD, N));
  tensor_store(yd, INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void s8s8(void) {
  vi r = tensor_smma_i(LOAD2(c0, M, N), LOAD2(sa, M, K), LOAD2(sb, K, N));
  tensor_store(y[0], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void u8u8(void) {
  vi r = tensor_umma_i(LOAD2(c0, M, N), LOAD2(ua, M, K), LOAD2(ub, K, N));
  tensor_store(y[1], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void u8s8(void) {
  vi r = tensor_usmma_i(LOAD2(c0, M, N), LOAD2(ua, M, K), LOAD2(sb, K, N));
  tensor_store(y[2], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void s8u8(void) {
  vi r = tensor_summa_i(LOAD2(c0, M, N), LOAD2(sa, M, K), LOAD2(ub, K, N));
  tensor_store(y[3], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void s16s16(void) {
  vi r = tensor_smma_i(LOAD2(c0, M, N), LOAD2(wa, M, K), LOAD2(wb, K, N));
  tensor_store(y[4], INFO2(r, M, N), TLX_ZEROS(2));
}
int main(void) {
  for (int i = 0; i < M * K; i++)
    sa[i] = (int8_t)((i * 37) % 255 - 127), ua[i] = (uint8_t)((i * 91) % 256),
    wa[i] = (int16_t)((i * 7919) % 65536 - 32768);
  for (int i = 0; i < K * N; i++)
    sb[i] = (int8_t)((i * 53) % 251 - 125), ub[i] = (uint8_t)((i * 29) % 256),
    wb[i] = (int16_t)((i * 104729) % 65536 - 32768);
  for (int i = 0; i < M * N; i++)
    c0[i] = i * 1000 - 777777;
  for (int i = 0; i < M * KD; i++)
    da[i] = (double)(i % 23 - 11) / 4;
  for (int i = 0; i < KD * N; i++)
    db[i] = (double)(i % 19 - 9) / 8;
  f64(); s8s8(); u8u8(); u8s8(); s8u8(); s16s16();
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < KD; k++)
        s += da[i * KD + k] * db[k * N + j];
      bad += s != yd[i * N + j];
    }
  printf("f64: %s\n", bad ? "bad" : "ok");
  const char *names[] = {"s8s8", "u8u8", "u8s8", "s8u8", "s16s16"};
  for (int t = 0; t < 5; t++) {
    bad = 0;
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        uint32_t s = (uint32_t)c0[i * N + j]; /* wraps as the GEMM's i32 */
        for (int k = 0; k < K; k++) {
          int32_t a = t == 4 ? wa[i * K + k]
                      : (t == 0 || t == 3) ? sa[i * K + k] : ua[i * K + k];
          int32_t b = t == 4 ? wb[k * N + j]
                      : (t == 0 || t == 2) ? sb[k * N + j] : ub[k * N + j];
          s += (uint32_t)(a * b);
        }
        bad += (int32_t)s != y[t][i * N + j];
      }
    printf("%s: %s\n", names[t], bad ? "bad" : "ok");
  }
  return 0;
}
