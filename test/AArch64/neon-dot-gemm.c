// AArch64 dot-product GEMM kernels (GemmVector.cpp, chooseNeonDot): int8
// -> i32 through SDOT / UDOT (+dotprod) and USDOT (+i8mm, the unsigned
// operand first - B for s8 x u8), bf16 -> f32 through BFDOT (+bf16), 4 (2)
// k values per i32 (f32) lane, like x86's VNNI kernels. Without the
// feature, the i32 mul-add and f32 FMA kernels remain. Every result is
// exact (integer-valued bf16 products); runs under qemu at -O0 and -O2.
// REQUIRES: aarch64-cross
// RUN: %a64_tlx_cc -O2 -march=armv8.6-a %s -o %t && %a64_qemu %t | FileCheck %s --check-prefix=EXEC
// RUN: %a64_tlx_cc -O0 -march=armv8.6-a %s -o %t0 && %a64_qemu %t0 | FileCheck %s --check-prefix=EXEC
// RUN: %a64_tlx_cc -O2 -march=armv8.2-a+dotprod %s -o %t1 && %a64_qemu %t1 | FileCheck %s --check-prefix=EXEC
// RUN: %a64_tlx_cc -O2 -march=armv8.6-a -S %s -o - | FileCheck %s
// RUN: %a64_tlx_cc -O2 -march=armv8.6-a -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %a64_tlx_cc -O2 -march=armv8.2-a+dotprod -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOTPROD
// RUN: %a64_tlx_cc -O2 -march=armv8-a -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BASE
//
// EXEC: s8s8: ok
// EXEC: u8u8: ok
// EXEC: u8s8: ok
// EXEC: s8u8: ok
// EXEC: bf16: ok
//
// CHECK-LABEL: s8s8:
// CHECK: sdot v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
// CHECK-LABEL: u8u8:
// CHECK: udot v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
// CHECK-LABEL: u8s8:
// CHECK: usdot v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
// CHECK-LABEL: s8u8:
// CHECK: usdot v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
// CHECK-LABEL: bf16:
// CHECK: bfdot v{{[0-9]+}}.4s, v{{[0-9]+}}.8h, v{{[0-9]+}}.8h
//
// REMARK: smma: 37x301x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec128 s8s8s32 sdot
// REMARK: umma: {{.*}} kernel vec128 u8u8s32 udot
// REMARK: usmma: {{.*}} kernel vec128 u8s8s32 usdot
// REMARK: summa: {{.*}} kernel vec128 s8u8s32 usdot
// REMARK: matmul: {{.*}} bf16 x bf16 -> f32 GEMM on vectors, kernel vec128 bf16 bfdot
// DOTPROD: kernel vec128 s8s8s32 sdot
// DOTPROD: kernel vec128 u8u8s32 udot
// DOTPROD: kernel vec128 mul-add i32
// DOTPROD: kernel vec128 mul-add i32
// DOTPROD: kernel vec128 fma f32
// BASE-NOT: {{ (s|u|us|bf)dot}}
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>
#define RM TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), RM, TLX_ZEROS(2))
enum { M = 37, K = 301, N = 45 };
typedef int32_t vi __attribute__((ext_vector_type(M * N)));
typedef float vb __attribute__((ext_vector_type(M * N)));
TLX_DECLARE_TENSOR_OPS_AS(vi, i)
TLX_DECLARE_TENSOR_OPS_AS(vb, b)
static int8_t sa[M * K], sb[K * N];
static uint8_t ua[M * K], ub[K * N];
static int32_t zero[M * N], y[4][M * N];
static __bf16 ba[M * K], bb[K * N];
static float yb[M * N];
__attribute__((noinline)) void s8s8(void) {
  vi r = tensor_smma_i(LOAD2(zero, M, N), LOAD2(sa, M, K), LOAD2(sb, K, N));
  tensor_store(y[0], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void u8u8(void) {
  vi r = tensor_umma_i(LOAD2(zero, M, N), LOAD2(ua, M, K), LOAD2(ub, K, N));
  tensor_store(y[1], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void u8s8(void) {
  vi r = tensor_usmma_i(LOAD2(zero, M, N), LOAD2(ua, M, K), LOAD2(sb, K, N));
  tensor_store(y[2], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void s8u8(void) {
  vi r = tensor_summa_i(LOAD2(zero, M, N), LOAD2(sa, M, K), LOAD2(ub, K, N));
  tensor_store(y[3], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void bf16(void) {
  vb r = tensor_matmul_b(LOAD2(ba, M, K), LOAD2(bb, K, N));
  tensor_store(yb, INFO2(r, M, N), TLX_ZEROS(2));
}
int main(void) {
  for (int i = 0; i < M * K; i++) sa[i] = (int8_t)((i * 37) % 255 - 127), ua[i] = (uint8_t)((i * 91) % 256), ba[i] = (__bf16)(float)(i % 7 - 3);
  for (int i = 0; i < K * N; i++) sb[i] = (int8_t)((i * 53) % 251 - 125), ub[i] = (uint8_t)((i * 29) % 256), bb[i] = (__bf16)(float)(i % 5 - 2);
  s8s8(); u8u8(); u8s8(); s8u8(); bf16();
  const char *names[] = {"s8s8", "u8u8", "u8s8", "s8u8"};
  for (int t = 0; t < 4; t++) {
    int bad = 0;
    for (int i = 0; i < M; i++) for (int j = 0; j < N; j++) {
      int32_t s = 0;
      for (int k = 0; k < K; k++) {
        int32_t a = (t == 0 || t == 3) ? sa[i * K + k] : ua[i * K + k];
        int32_t b = (t == 0 || t == 2) ? sb[k * N + j] : ub[k * N + j];
        s += a * b;
      }
      bad += s != y[t][i * N + j];
    }
    printf("%s: %s\n", names[t], bad ? "bad" : "ok");
  }
  int bad = 0;
  for (int i = 0; i < M; i++) for (int j = 0; j < N; j++) {
    float s = 0; for (int k = 0; k < K; k++) s += (float)ba[i * K + k] * (float)bb[k * N + j];
    bad += s != yb[i * N + j];
  }
  printf("bf16: %s\n", bad ? "bad" : "ok");
}
