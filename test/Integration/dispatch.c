// Run-time dispatch (GemmDispatch.cpp): built without -march, each GEMM is
// emitted for baseline x86-64, AVX2, AVX-512 and AVX-512 VNNI/BF16 (int8:
// level 3; bf16: level 4, not on the CPUs where vdpbf16ps is half rate),
// and tlxrt_isa_level() picks the version. Every version must give the
// same, exact results: the program runs with the level capped at 0, 1, 2,
// 3 and 4 (TLX_ISA_LEVEL_MAX; the CPU's own level caps it further,
// so this runs anywhere). -march=native (or dispatch=off) emits one
// version; -march=x86-64-v3 drops the levels it has.
// RUN: %clang_tlx -std=c11 -w -O2 -march=x86-64 %s %tlx_rt -o %t
// RUN: env TLX_ISA_LEVEL_MAX=0 %t | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=1 %t | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=2 %t | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=3 %t | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=4 %t | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 -march=x86-64 %s %tlx_rt -o %t0
// RUN: env TLX_ISA_LEVEL_MAX=1 %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -march=x86-64 -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang_tlx -std=c11 -w -O2 -march=x86-64-v3 -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=V3
// RUN: %clang_tlx -std=c11 -w -O2 -march=x86-64 -fplugin-arg-tlx-dispatch=off -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %clang_tlx -std=c11 -w -O2 -march=x86-64 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// CHECK: f32 67x129x45: ok
// CHECK: s8 33x200x70: ok
// CHECK: bf16 40x64x50: ok
// CHECK: small 8x8x8: ok
// REMARK: matmul: one version per ISA level, chosen at run time by tlxrt_isa_level() (base: vec128 fma f32 {{.*}}; avx2: vec256 fma f32 {{.*}}; avx512: avx512 fma f32 {{[^;]*}})
// REMARK: matmul: one version per ISA level, chosen at run time by tlxrt_isa_level() (base: {{.*}}; avx2: {{.*}}; avx512: {{.*}}; avx512-vnni: avx512 s8s8s32 vpdpbusd(+128 bias) {{.*}})
// REMARK: matmul: one version per ISA level, chosen at run time by tlxrt_isa_level() (base: {{.*}}; avx2: {{.*}}; avx512: {{.*}}; avx512-bf16: avx512 bf16 vdpbf16ps {{.*}})
// REMARK-NOT: one version per ISA level
// V3: matmul: one version per ISA level, chosen at run time by tlxrt_isa_level() (base: vec256 fma f32 {{.*}}; avx512: avx512 fma f32 {{[^;]*}})
// OFF-NOT: one version per ISA level
// IR-LABEL: define {{.*}}void @f32_gemm(
// IR: call i32 @tlxrt_isa_level()
// IR: call {{.*}}@tlx.dispatch.gemm.avx512(
// IR: call {{.*}}@tlx.dispatch.gemm.avx2(
// IR: call {{.*}}@tlx.dispatch.gemm.base(
// IR: define internal {{.*}}@tlx.dispatch.gemm.avx2({{.*}}) {{.*}}[[AVX2:#[0-9]+]]
// IR: define internal {{.*}}@tlx.dispatch.gemm.avx512({{.*}}) {{.*}}[[AVX512:#[0-9]+]]
// IR-DAG: attributes [[AVX2]] = { {{.*}}"target-features"="{{[^"]*}}+avx2{{[^"]*}}+fma
// IR-DAG: attributes [[AVX512]] = { {{.*}}"target-features"="{{[^"]*}}+avx512f
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

#define RM TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), RM, TLX_ZEROS(2))

typedef float vf __attribute__((ext_vector_type(67 * 45)));
typedef int32_t vi __attribute__((ext_vector_type(33 * 70)));
typedef float vb __attribute__((ext_vector_type(40 * 50)));
typedef float vs __attribute__((ext_vector_type(8 * 8)));
TLX_DECLARE_TENSOR_OPS_AS(vf, f)
TLX_DECLARE_TENSOR_OPS_AS(vi, i)
TLX_DECLARE_TENSOR_OPS_AS(vb, b)
TLX_DECLARE_TENSOR_OPS_AS(vs, s)

static float xf[67 * 129], wf[129 * 45], yf[67 * 45];
static int8_t x8[33 * 200], w8[200 * 70];
static int32_t y8[33 * 70];
static __bf16 xb[40 * 64], wb[64 * 50];
static float yb[40 * 50], xs[64], ws[64], ys[64];

__attribute__((noinline)) void f32_gemm(void) {
  vf r = tensor_matmul_f(LOAD2(xf, 67, 129), LOAD2(wf, 129, 45));
  tensor_store(yf, INFO2(r, 67, 45), TLX_ZEROS(2));
}
__attribute__((noinline)) void s8_gemm(void) {
  vi r = tensor_matmul_i(LOAD2(x8, 33, 200), LOAD2(w8, 200, 70));
  tensor_store(y8, INFO2(r, 33, 70), TLX_ZEROS(2));
}
__attribute__((noinline)) void bf16_gemm(void) {
  vb r = tensor_matmul_b(LOAD2(xb, 40, 64), LOAD2(wb, 64, 50));
  tensor_store(yb, INFO2(r, 40, 50), TLX_ZEROS(2));
}
__attribute__((noinline)) void small_gemm(void) {
  vs r = tensor_matmul_s(LOAD2(xs, 8, 8), LOAD2(ws, 8, 8));
  tensor_store(ys, INFO2(r, 8, 8), TLX_ZEROS(2));
}

#define CHECK(NAME, M, K, N, X, W, Y, T)                                       \
  do {                                                                         \
    int bad = 0;                                                               \
    for (int i = 0; i < M; i++)                                                \
      for (int j = 0; j < N; j++) {                                            \
        T s = 0;                                                               \
        for (int k = 0; k < K; k++)                                            \
          s += (T)X[i * K + k] * (T)W[k * N + j];                              \
        if ((T)Y[i * N + j] != s)                                              \
          bad++;                                                               \
      }                                                                        \
    printf("%s: %s\n", NAME, bad ? "bad" : "ok");                              \
  } while (0)

int main(void) {
  for (int i = 0; i < 67 * 129; i++)
    xf[i] = (float)(i % 9 - 4);
  for (int i = 0; i < 129 * 45; i++)
    wf[i] = (float)(i % 7 - 3);
  for (int i = 0; i < 33 * 200; i++)
    x8[i] = (int8_t)((i * 37) % 255 - 127);
  for (int i = 0; i < 200 * 70; i++)
    w8[i] = (int8_t)((i * 53) % 251 - 125);
  for (int i = 0; i < 40 * 64; i++)
    xb[i] = (__bf16)(float)(i % 5 - 2);
  for (int i = 0; i < 64 * 50; i++)
    wb[i] = (__bf16)(float)(i % 3 - 1);
  for (int i = 0; i < 64; i++)
    xs[i] = (float)(i % 4), ws[i] = (float)(i % 3 - 1);
  f32_gemm();
  s8_gemm();
  bf16_gemm();
  small_gemm();
  CHECK("f32 67x129x45", 67, 129, 45, xf, wf, yf, float);
  CHECK("s8 33x200x70", 33, 200, 70, x8, w8, y8, int32_t);
  CHECK("bf16 40x64x50", 40, 64, 50, xb, wb, yb, float);
  CHECK("small 8x8x8", 8, 8, 8, xs, ws, ys, float);
  return 0;
}
