// Vector-length agnostic GEMMs on RISC-V V: the vector GEMM driver
// shared with every vector ISA (lib/Gemm/GemmVector.cpp; RVV's part is
// lib/Target/RISCV/RVVKernels.cpp). Register blocks of MR rows x 2 LMUL-1
// vectors (vscale x 64 bits each), read at run time, so one binary uses
// the whole register at every VLEN; column tails by a shorter vl. f32 and
// f64 GEMMs are vfmacc.vf (A's broadcast folded into the scalar form);
// int8 and s16 GEMMs pack their operands as i16 and accumulate with
// vwmacc.vx, exact for every signedness. Runs at VLEN 128, 256, 512 and
// 1024 at -O0 and -O2, from a non-zero C, with M, N and K tails; a fused
// relu and a run-time-sized GEMM go through the same kernels. bf16 and
// f16 operands are converted to f32 element by element while packed, also
// with Zvfhmin/Zvfbfmin (LLVM 19 cannot select their vector conversion);
// with Zvfh, f16 x f16 -> f32 packs f16 and accumulates with vfwmacc.vf,
// with Zvfbfwma bf16 x bf16 -> f32 with vfwmaccbf16.vf: 20 per k step of
// the 10 x 2-vector register block, no conversions.
// REQUIRES: riscv64-cross
// RUN: %rv_tlx_cc -march=rv64gcv -O2 -S %s -o - | FileCheck %s
// RUN: %rv_tlx_cc -march=rv64gcv -O2 -Rpass=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %rv_tlx_cc -march=rv64gcv -O0 %s -o %t0
// RUN: %rv_tlx_cc -march=rv64gcv -O2 %s -o %t2
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=128 %t0 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=256 %t2 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=512 %t0 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=1024 %t2 | FileCheck %s --check-prefix=OUT
// RUN: %rv_tlx_cc -march=rv64gcv_zvfhmin_zvfbfmin -O2 %s -o %th
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=256,zvfhmin=true,zvfbfmin=true %th | FileCheck %s --check-prefix=OUT
// RUN: %rv_tlx_cc -march=rv64gcv_zvfh_zvfbfwma -O2 -Rpass=tlx-tile -S %s -o %t.wide.s 2> %t.wide.remarks
// RUN: FileCheck %s --check-prefix=WIDE-REMARK < %t.wide.remarks
// RUN: FileCheck %s --check-prefix=WIDE < %t.wide.s
// RUN: %rv_tlx_cc -march=rv64gcv_zvfh_zvfbfwma -O0 %s -o %tw0
// RUN: %rv_tlx_cc -march=rv64gcv_zvfh_zvfbfwma -O2 %s -o %tw2
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=128,zvfh=true,zvfbfwma=true %tw0 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=512,zvfh=true,zvfbfwma=true %tw2 | FileCheck %s --check-prefix=OUT
//
// CHECK-LABEL: f32:
// CHECK: vfmacc.vf v{{[0-9]+}}, fa{{[0-9]+}}, v{{[0-9]+}}
// CHECK-LABEL: f64:
// CHECK: vfmacc.vf v{{[0-9]+}}, fa{{[0-9]+}}, v{{[0-9]+}}
// CHECK-LABEL: s8s8:
// CHECK: vwmacc.vx v{{[0-9]+}}, a{{[0-9]+}}, v{{[0-9]+}}
// CHECK-LABEL: u8s8:
// CHECK: vwmacc.vx
// CHECK-LABEL: s16s16:
// CHECK: vwmacc.vx
//
// REMARK: matmul: 37x29x45 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel rvv fma f32 10x2VL
// REMARK: matmul: {{.*}} f64 x f64 -> f64 GEMM on vectors, kernel rvv fma f64 10x2VL
// REMARK: smma: {{.*}} kernel rvv s8s8s32 vwmacc 10x2VL
// REMARK: usmma: {{.*}} kernel rvv u8s8s32 vwmacc 10x2VL
// REMARK: smma: {{.*}} kernel rvv s16s16s32 vwmacc 10x2VL
// REMARK: matmul: {{.*}} kernel rvv fma f32 10x2VL
// REMARK: matmul: fused epilogue (relu) applied to each C block as the scalable-vector kernel stores it
// REMARK: matmul: {{.*}} bf16 x f16 -> f32 GEMM on vectors, kernel rvv fma f32 10x2VL
// REMARK: matmul: {{.*}} f16 x f16 -> f32 GEMM on vectors, kernel rvv fma f32 10x2VL
// REMARK: matmul: {{.*}} bf16 x bf16 -> f32 GEMM on vectors, kernel rvv fma f32 10x2VL
// REMARK: matmul: {{.*}} kernel rvv fma f32 11x2VL
//
// WIDE-REMARK: matmul: {{.*}} bf16 x f16 -> f32 GEMM on vectors, kernel rvv fma f32 10x2VL
// WIDE-REMARK: matmul: {{.*}} f16 x f16 -> f32 GEMM on vectors, kernel rvv f16 vfwmacc 10x2VL
// WIDE-REMARK: matmul: {{.*}} bf16 x bf16 -> f32 GEMM on vectors, kernel rvv bf16 vfwmaccbf16 10x2VL
// WIDE-LABEL: f16f16:
// WIDE-COUNT-20: vfwmacc.vf v{{[0-9]+}}, fa{{[0-9]+}}, v{{[0-9]+}}
// WIDE-NOT: vfmacc
// WIDE-LABEL: bf16bf16:
// WIDE-COUNT-20: vfwmaccbf16.vf v{{[0-9]+}}, fa{{[0-9]+}}, v{{[0-9]+}}
// WIDE-NOT: vfmacc
// WIDE-LABEL: runtime:
//
// OUT: f32: ok
// OUT: f64: ok
// OUT: s8s8: ok
// OUT: u8s8: ok
// OUT: s16s16: ok
// OUT: relu: ok
// OUT: runtime: ok
// OUT: bf16 x f16: ok
// OUT: f16 x f16: ok
// OUT: bf16 x bf16: ok
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>
#define RM TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), RM, TLX_ZEROS(2))
enum { M = 37, K = 29, N = 45, KI = 301 };
typedef float vf __attribute__((ext_vector_type(M * N)));
typedef double vd __attribute__((ext_vector_type(M * N)));
typedef int32_t vi __attribute__((ext_vector_type(M * N)));
TLX_DECLARE_TENSOR_OPS_AS(vf, f)
TLX_DECLARE_TENSOR_OPS_AS(vd, d)
TLX_DECLARE_TENSOR_OPS_AS(vi, i)
TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, rt)
static float fa[M * K], fb[K * N], fy[M * N], fr[M * N];
static double da[M * K], db[K * N], dy[M * N];
static int8_t sa[M * KI], sb[KI * N];
static uint8_t ua[M * KI];
static int16_t wa[M * KI], wb[KI * N];
static int32_t c0[M * N], y[3][M * N];
static __bf16 ha[M * K], hbb[K * N];
static _Float16 haa[M * K], hb[K * N];
static float hy[M * N], hyy[2][M * N];
__attribute__((noinline)) void f32(void) {
  vf r = tensor_matmul_f(LOAD2(fa, M, K), LOAD2(fb, K, N));
  tensor_store(fy, INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void f64(void) {
  vd r = tensor_matmul_d(LOAD2(da, M, K), LOAD2(db, K, N));
  tensor_store(dy, INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void s8s8(void) {
  vi r = tensor_smma_i(LOAD2(c0, M, N), LOAD2(sa, M, KI), LOAD2(sb, KI, N));
  tensor_store(y[0], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void u8s8(void) {
  vi r = tensor_usmma_i(LOAD2(c0, M, N), LOAD2(ua, M, KI), LOAD2(sb, KI, N));
  tensor_store(y[1], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void s16s16(void) {
  vi r = tensor_smma_i(LOAD2(c0, M, N), LOAD2(wa, M, KI), LOAD2(wb, KI, N));
  tensor_store(y[2], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void relu(void) {
  vf r = tensor_relu_f(INFO2(tensor_matmul_f(LOAD2(fa, M, K), LOAD2(fb, K, N)), M, N));
  tensor_store(fr, INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void half(void) {
  vf r = tensor_matmul_f(LOAD2(ha, M, K), LOAD2(hb, K, N));
  tensor_store(hy, INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void f16f16(void) {
  vf r = tensor_matmul_f(LOAD2(haa, M, K), LOAD2(hb, K, N));
  tensor_store(hyy[0], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void bf16bf16(void) {
  vf r = tensor_matmul_f(LOAD2(ha, M, K), LOAD2(hbb, K, N));
  tensor_store(hyy[1], INFO2(r, M, N), TLX_ZEROS(2));
}
/* Extents from the caller: the same kernels with run-time M, N and K. */
__attribute__((noinline)) void runtime(int m, int k, int n, const float *a,
                                       const float *b, float *c) {
  tlx_float_result_t r = tensor_matmul_rt(LOAD2(a, m, k), LOAD2(b, k, n));
  tensor_store(c, INFO2(r, m, n), TLX_ZEROS(2));
}
static void report(const char *what, int bad) { printf("%s: %s\n", what, bad ? "bad" : "ok"); }
int main(void) {
  for (int i = 0; i < M * K; i++)
    fa[i] = (float)(i % 17 - 8) / 8, da[i] = (double)(i % 23 - 11) / 4;
  for (int i = 0; i < K * N; i++)
    fb[i] = (float)(i % 13 - 6) / 8, db[i] = (double)(i % 19 - 9) / 8;
  for (int i = 0; i < M * KI; i++)
    sa[i] = (int8_t)((i * 37) % 255 - 127), ua[i] = (uint8_t)((i * 91) % 256),
    wa[i] = (int16_t)((i * 7919) % 65536 - 32768);
  for (int i = 0; i < KI * N; i++)
    sb[i] = (int8_t)((i * 53) % 251 - 125),
    wb[i] = (int16_t)((i * 104729) % 65536 - 32768);
  for (int i = 0; i < M * N; i++)
    c0[i] = i * 1000 - 777777;
  f32(); f64(); s8s8(); u8s8(); s16s16(); relu();
  int bf = 0, bd = 0, brelu = 0, bi[3] = {0, 0, 0};
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float f = 0;
      double d = 0;
      for (int k = 0; k < K; k++)
        f += fa[i * K + k] * fb[k * N + j], d += da[i * K + k] * db[k * N + j];
      bf += f != fy[i * N + j];
      bd += d != dy[i * N + j];
      brelu += (f < 0 ? 0 : f) != fr[i * N + j];
      for (int t = 0; t < 3; t++) {
        uint32_t s = (uint32_t)c0[i * N + j]; /* wraps as the GEMM's i32 */
        for (int k = 0; k < KI; k++) {
          int32_t a = t == 2 ? wa[i * KI + k] : t == 0 ? sa[i * KI + k] : ua[i * KI + k];
          int32_t b = t == 2 ? wb[k * N + j] : sb[k * N + j];
          s += (uint32_t)(a * b);
        }
        bi[t] += (int32_t)s != y[t][i * N + j];
      }
    }
  report("f32", bf); report("f64", bd);
  report("s8s8", bi[0]); report("u8s8", bi[1]); report("s16s16", bi[2]);
  report("relu", brelu);
  /* run-time sizes on both sides of a register block and a vector */
  int bad = 0;
  static const int sizes[][3] = {{1, 1, 1}, {13, 7, 3}, {64, 33, 70}, {100, 130, 257}};
  for (int s = 0; s < 4; s++) {
    int m = sizes[s][0], k = sizes[s][1], n = sizes[s][2];
    float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n),
          *c = malloc(sizeof(float) * m * n);
    for (int i = 0; i < m * k; i++) a[i] = (float)(i % 11 - 5) / 4;
    for (int i = 0; i < k * n; i++) b[i] = (float)(i % 7 - 3) / 4;
    runtime(m, k, n, a, b, c);
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) {
        float f = 0;
        for (int q = 0; q < k; q++) f += a[i * k + q] * b[q * n + j];
        bad += f != c[i * n + j];
      }
    free(a); free(b); free(c);
  }
  report("runtime", bad);
  for (int i = 0; i < M * K; i++)
    ha[i] = (__bf16)fa[i], haa[i] = (_Float16)fa[i];
  for (int i = 0; i < K * N; i++)
    hb[i] = (_Float16)fb[i], hbb[i] = (__bf16)fb[i];
  half(); f16f16(); bf16bf16();
  /* fa and fb (multiples of 1/8 in [-1, 1]) are exact in bf16 and f16,
     so the f32 sums of their products are the expected values. (A loop
     mixing bf16 and f16 conversions crashes LLVM 19's RISC-V backend with
     Zvfh and Zvfbfwma - plain C, no TLX.) */
  int bh[3] = {0, 0, 0};
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float f = 0;
      for (int k = 0; k < K; k++)
        f += fa[i * K + k] * fb[k * N + j];
      bh[0] += f != hy[i * N + j];
      bh[1] += f != hyy[0][i * N + j];
      bh[2] += f != hyy[1][i * N + j];
    }
  report("bf16 x f16", bh[0]);
  report("f16 x f16", bh[1]);
  report("bf16 x bf16", bh[2]);
  return 0;
}
