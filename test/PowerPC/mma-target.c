// -fplugin-arg-tlx-target=mma: GEMMs on Power10's matrix-multiply assist
// whatever the -mcpu (lib/Target/PowerPC/MMAKernels.cpp,
// emitMMATargetGemm). Code built for POWER9 gets each GEMM in a kernel
// function with MMA's target features, called after tlxrt_mma_require(),
// which stops a CPU without MMA with a message (not SIGILL). A GEMM MMA
// has no outer product for (i64) falls back to the vector kernels with a
// missed remark. TLX built for LLVM 19 keeps every GEMM on vectors (its
// PowerPC backend miscompiles MMA kernels) and says so.
// REQUIRES: ppc64le-cross
// RUN: %ppc_tlx_cc -mcpu=power9 -O2 -fplugin-arg-tlx-target=mma -Rpass=tlx-tile -Rpass-missed=tlx-tile -S %s -o %t.s 2>&1 | FileCheck %s --check-prefix=REMARK-%llvm_major
// RUN: %ppc_tlx_cc -mcpu=power9 -O2 -fplugin-arg-tlx-target=mma %s -o %t
// RUN: %ppc_qemu %t | FileCheck %s --check-prefix=OUT
// RUN: %ppc_tlx_cc -mcpu=power9 -O0 -fplugin-arg-tlx-target=mma %s -o %t0
// RUN: %ppc_qemu %t0 | FileCheck %s --check-prefix=OUT
// RUN: %if llvm-22 %{ not %ppc9_qemu %t 2>&1 | FileCheck %s --check-prefix=NOMMA %}
// RUN: %if llvm-22 %{ FileCheck %s --check-prefix=ASM < %t.s %}
//
// REMARK-22: remark: matmul: 45x67x37 (MxKxN) f32 x f32 -> f32 GEMM on MMA, kernel vec128 f32 mma xvf32gerpp 8x16
// REMARK-22: remark: summa: 45x67x37 (MxKxN) i8 x i8 -> i32 GEMM on MMA, kernel vec128 s8u8s32 mma xvi8ger4pp 8x16
// REMARK-22: remark: matmul: MMA cannot do this GEMM (no outer-product instruction for these element types); using vector code
// REMARK-22: remark: matmul: 45x67x37 (MxKxN) i64 x i64 -> i64 GEMM on vectors
// REMARK-19: remark: matmul: MMA cannot do this GEMM (TLX is built for LLVM 19, whose PowerPC backend miscompiles MMA kernels; LLVM 22 is needed); using vector code
// REMARK-19: remark: matmul: 45x67x37 (MxKxN) f32 x f32 -> f32 GEMM on vectors
// ASM: bl tlxrt_mma_require
// ASM: xvf32gerpp
// ASM: xvi8ger4pp
// NOMMA: tlx: this program uses the Power10 matrix-multiply assist (MMA), but this CPU/kernel does not support it
// OUT: f32: ok
// OUT: s8u8: ok
// OUT: i64: ok
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>
#define RM TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), RM, TLX_ZEROS(2))
enum { M = 45, K = 67, N = 37 };
typedef float vf __attribute__((ext_vector_type(M * N)));
typedef int32_t vi __attribute__((ext_vector_type(M * N)));
typedef int64_t vl __attribute__((ext_vector_type(M * N)));
TLX_DECLARE_TENSOR_OPS_AS(vf, f)
TLX_DECLARE_TENSOR_OPS_AS(vi, i)
TLX_DECLARE_TENSOR_OPS_AS(vl, l)
static float fa[M * K], fb[K * N], fc[M * N];
static int8_t sa[M * K];
static uint8_t ub[K * N];
static int32_t ic0[M * N], ic[M * N];
static int64_t la[M * K], lb[K * N], lc[M * N];
__attribute__((noinline)) void f32(void) {
  vf r = tensor_matmul_f(LOAD2(fa, M, K), LOAD2(fb, K, N));
  tensor_store(fc, INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void s8u8(void) {
  vi r = tensor_summa_i(LOAD2(ic0, M, N), LOAD2(sa, M, K), LOAD2(ub, K, N));
  tensor_store(ic, INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void i64(void) {
  vl r = tensor_matmul_l(LOAD2(la, M, K), LOAD2(lb, K, N));
  tensor_store(lc, INFO2(r, M, N), TLX_ZEROS(2));
}
int main(void) {
  for (int i = 0; i < M * K; i++)
    fa[i] = (float)(i % 17 - 8) / 8, sa[i] = (int8_t)((i * 37) % 255 - 127),
    la[i] = i % 1001 - 500;
  for (int i = 0; i < K * N; i++)
    fb[i] = (float)(i % 13 - 6) / 8, ub[i] = (uint8_t)((i * 29) % 256),
    lb[i] = (int64_t)(i % 997) * 100003;
  for (int i = 0; i < M * N; i++)
    ic0[i] = 3 * i - 999;
  f32(); s8u8(); i64();
  int bf = 0, bi = 0, bl = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float f = 0;
      int32_t s = ic0[i * N + j];
      int64_t l = 0;
      for (int k = 0; k < K; k++) {
        f += fa[i * K + k] * fb[k * N + j];
        s += sa[i * K + k] * ub[k * N + j];
        l += la[i * K + k] * lb[k * N + j];
      }
      bf += f != fc[i * N + j];
      bi += s != ic[i * N + j];
      bl += l != lc[i * N + j];
    }
  printf("f32: %s\ns8u8: %s\ni64: %s\n", bf ? "bad" : "ok", bi ? "bad" : "ok",
         bl ? "bad" : "ok");
  return 0;
}
