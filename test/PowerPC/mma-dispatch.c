// Run-time dispatch on Power (lib/Gemm/GemmDispatch.cpp with the table in
// lib/Target/PowerPC/DispatchLevels.cpp): code built for POWER9 (or
// clang's default POWER8) gets each GEMM the matrix-multiply assist
// computes twice - the VSX kernel of the function's own target and a
// Power10 MMA version - and calls the MMA one where tlxrt_isa_level()
// says the kernel reports MMA (AT_HWCAP2). Both versions run under qemu:
// -cpu power10 (level 1), power9 (level 0), and power10 capped with
// TLX_ISA_LEVEL_MAX=0; -mcpu=power10 needs no dispatch. The results are
// exact (sums of products of k/8 values), so every version must agree.
// REQUIRES: ppc64le-cross, llvm-22
// RUN: %ppc_tlx_cc -mcpu=power9 -O2 -Rpass=tlx-tile -S %s -o %t.s 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 -Rpass=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=POWER10
// RUN: %ppc_tlx_cc -mcpu=power9 -O2 %s -o %t9
// RUN: %ppc_qemu %t9 | FileCheck %s --check-prefixes=OUT,LEVEL1
// RUN: %ppc9_qemu %t9 | FileCheck %s --check-prefixes=OUT,LEVEL0
// RUN: env TLX_ISA_LEVEL_MAX=0 %ppc_qemu %t9 | FileCheck %s --check-prefixes=OUT,LEVEL0
// RUN: %ppc_tlx_cc -O0 %s -o %t8 && %ppc_qemu %t8 | FileCheck %s --check-prefixes=OUT,LEVEL1
//
// REMARK: remark: matmul: one version per ISA level, chosen at run time by tlxrt_isa_level() (base: vec128 fma f32 {{[^;]*}}; power10-mma: vec128 f32 mma xvf32gerpp 8x16{{.*}})
// REMARK: remark: smma: one version per ISA level, chosen at run time by tlxrt_isa_level() (base: vec128 mul-add i32 {{[^;]*}}; power10-mma: vec128 s8s8s32 mma xvi16ger2pp 8x16{{.*}})
// REMARK-NOT: one version per ISA level
// ASM: bl tlxrt_isa_level
// ASM: xvf32gerpp
// ASM: xvi16ger2pp
// POWER10-NOT: one version per ISA level
// POWER10: kernel vec128 f32 mma xvf32gerpp 8x16
//
// LEVEL1: level 1
// LEVEL0: level 0
// OUT: f32: ok
// OUT: s8s8: ok
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
int32_t tlxrt_isa_level(void);
static float fa[M * K], fb[K * N], fc[M * N];
static int8_t sa[M * K], sb[K * N];
static int32_t ic0[M * N], ic[M * N];
static int64_t la[M * K], lb[K * N], lc[M * N];
__attribute__((noinline)) void f32(void) {
  vf r = tensor_matmul_f(LOAD2(fa, M, K), LOAD2(fb, K, N));
  tensor_store(fc, INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void s8s8(void) {
  vi r = tensor_smma_i(LOAD2(ic0, M, N), LOAD2(sa, M, K), LOAD2(sb, K, N));
  tensor_store(ic, INFO2(r, M, N), TLX_ZEROS(2));
}
/* No outer product for i64: one version, no dispatch. */
__attribute__((noinline)) void i64(void) {
  vl r = tensor_matmul_l(LOAD2(la, M, K), LOAD2(lb, K, N));
  tensor_store(lc, INFO2(r, M, N), TLX_ZEROS(2));
}
int main(void) {
  printf("level %d\n", (int)tlxrt_isa_level());
  for (int i = 0; i < M * K; i++)
    fa[i] = (float)(i % 17 - 8) / 8, sa[i] = (int8_t)((i * 37) % 255 - 127),
    la[i] = i % 1001 - 500;
  for (int i = 0; i < K * N; i++)
    fb[i] = (float)(i % 13 - 6) / 8, sb[i] = (int8_t)((i * 53) % 251 - 125),
    lb[i] = (int64_t)(i % 997) * 100003;
  for (int i = 0; i < M * N; i++)
    ic0[i] = i - 999;
  f32(); s8s8(); i64();
  int bf = 0, bi = 0, bl = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float f = 0;
      int32_t s = ic0[i * N + j];
      int64_t l = 0;
      for (int k = 0; k < K; k++) {
        f += fa[i * K + k] * fb[k * N + j];
        s += sa[i * K + k] * sb[k * N + j];
        l += la[i * K + k] * lb[k * N + j];
      }
      bf += f != fc[i * N + j];
      bi += s != ic[i * N + j];
      bl += l != lc[i * N + j];
    }
  printf("f32: %s\ns8s8: %s\ni64: %s\n", bf ? "bad" : "ok", bi ? "bad" : "ok",
         bl ? "bad" : "ok");
  return 0;
}
