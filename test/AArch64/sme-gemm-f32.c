// f32 GEMMs on Arm SME (-march=armv9-a+sme, target auto): FMOPA on 2x2
// ZA tiles in a locally streaming kernel with a new ZA. The k loop holds
// the four outer products; the kernel commits a caller's lazy ZA save
// (__arm_tpidr2_save, libtlxrt) before taking ZA. Run under qemu at -O0
// and -O2, and at -O2 with the smallest (128-bit) and largest (2048-bit)
// streaming vector lengths: tails in M, N and K (1, 17, 33, 100), a
// transposed A and a C with padded rows, and fused epilogues (a scale;
// bias + relu), against plain C loops. (f32 has no mma: the
// accumulating kernels are tested in sme-gemm-int8.c.)
// REQUIRES: aarch64-cross
// RUN: %a64_tlx_cc -O2 -march=armv9-a+sme -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: %a64_tlx_cc -O2 -march=armv9-a+sme -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %a64_tlx_cc -w -O0 -march=armv9-a+sme %s -o %t0 && %a64_qemu %t0 | FileCheck %s
// RUN: %a64_tlx_cc -w -O2 -march=armv9-a+sme %s -o %t2 && %a64_qemu %t2 | FileCheck %s
// RUN: qemu-aarch64 -cpu max,sme-default-vector-length=16 %t2 | FileCheck %s
// RUN: qemu-aarch64 -cpu max,sme-default-vector-length=256 %t2 | FileCheck %s
// A CPU without SME: the runtime says so before the first kernel (no
// SIGILL).
// RUN: not qemu-aarch64 -cpu max,sme=off %t2 2>&1 | FileCheck %s --check-prefix=NOSME
// NOSME: tlx: this program uses Arm SME, but this CPU/kernel does not support it (HWCAP2_SME is not set); rebuild with -fplugin-arg-tlx-target=vector and an -march without +sme
// NOSME-NOT: ok
// -fplugin-arg-tlx-target=sme without +sme (nor SVE) in -march: only the
// kernel gets +sme (LLVM 19 then reads VG through __arm_get_current_vg,
// libtlxrt's).
// RUN: %a64_tlx_cc -w -O2 -fplugin-arg-tlx-target=sme -S %s -o - | FileCheck %s --check-prefix=FORCED
// RUN: %a64_tlx_cc -w -O2 -fplugin-arg-tlx-target=sme %s -o %tf && %a64_qemu %tf | FileCheck %s
// FORCED-LABEL: tlx.sme.gemm:
// FORCED: fmopa za0.s

// REMARK: remark: matmul: 17x33x100 (MxKxN) f32 x f32 -> f32 GEMM on SME, kernel sme f32 fmopa 2x2 tiles
// REMARK: remark: matmul: 1x1x1 (MxKxN) f32 x f32 -> f32 GEMM on SME, kernel sme f32 fmopa 2x2 tiles
// REMARK: remark: matmul: 37x29x45 (MxKxN) f32 x f32 -> f32 GEMM on SME, kernel sme f32 fmopa 2x2 tiles
// REMARK: remark: matmul: fused epilogue (fmul) applied to C after the SME kernel stores it
// REMARK: remark: matmul: 100x17x33 (MxKxN) f32 x f32 -> f32 GEMM on SME, kernel sme f32 fmopa 2x2 tiles
// REMARK: remark: matmul: 33x100x17 (MxKxN) f32 x f32 -> f32 GEMM on SME, kernel sme f32 fmopa 2x2 tiles
// REMARK: remark: matmul: fused epilogue (fadd, relu) applied to C after the SME kernel stores it

// ASM-LABEL: mm_17x33x100:
// ASM: bl tlxrt_sme_require
// ASM: {{bl?}} tlx.sme.gemm
// ASM-LABEL: mm_1x1x1:
// ASM: {{bl?}} tlx.sme.gemm
// ASM-LABEL: mm_scaled:
// ASM: {{bl?}} tlx.sme.gemm
// ASM-LABEL: mm_transposed_a:
// ASM: {{bl?}} tlx.sme.gemm
// ASM-LABEL: bias_relu:
// ASM: {{bl?}} tlx.sme.gemm
// The kernel: streaming mode and ZA, the lazy-save commit, and the k
// loop: two A and two B vectors, four outer products, the back branch.
// (LLVM 19 turns streaming mode on first, 22 ZA.)
// ASM-LABEL: tlx.sme.gemm:
// ASM-DAG: smstart sm
// ASM-DAG: bl __arm_tpidr2_save
// ASM-DAG: smstart za
// ASM: fmopa za0.s, p{{[0-9]+}}/m, p{{[0-9]+}}/m, z{{[0-9]+}}.s, z{{[0-9]+}}.s
// ASM-NOT: {{^\.LBB}}
// ASM: fmopa za1.s
// ASM-NOT: {{^\.LBB}}
// ASM: fmopa za2.s
// ASM-NOT: {{^\.LBB}}
// ASM: fmopa za3.s
// ASM-NOT: {{^\.LBB}}
// ASM: b.{{[a-z]+}} .LBB
// ASM: st1w {za0h.s[w{{[0-9]+}}, 0]}
// ASM-DAG: smstop sm
// ASM-DAG: smstop za
// ASM-LABEL: tlx.sme.gemm.{{[0-9]+}}:

// CHECK: 17x33x100: ok
// CHECK: 1x1x1: ok
// CHECK: a b * 0.5: ok
// CHECK: transposed A, padded C: ok
// CHECK: bias + relu: ok
// CHECK: PASSED
#include <math.h>
#include <stdio.h>
#include <tlx.h>

#define ROW TLX_LAYOUT(0, 1)
#define LOAD(p, m, n) tensor_load(p, TLX_SHAPE(m, n), ROW, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), ROW, TLX_ZEROS(2))

typedef float v17x100 __attribute__((__vector_size__(17 * 100 * 4)));
typedef float v1x1 __attribute__((__vector_size__(4)));
typedef float v37x45 __attribute__((__vector_size__(37 * 45 * 4)));
typedef float v100x33 __attribute__((__vector_size__(100 * 33 * 4)));
typedef float v33x17 __attribute__((__vector_size__(33 * 17 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(v17x100, a)
TLX_DECLARE_TENSOR_OPS_AS(v1x1, b)
TLX_DECLARE_TENSOR_OPS_AS(v37x45, c)
TLX_DECLARE_TENSOR_OPS_AS(v100x33, d)
TLX_DECLARE_TENSOR_OPS_AS(v33x17, e)

static int failures;
static unsigned state = 7;

static float next(void) {
  state = state * 1664525u + 1013904223u;
  return (float)((int)(state >> 24) - 128) / 64.0f;
}

static void fill(float *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] = next();
}

// got[i*ldg + j] against scale * sum_k A(i,k) B(k,j) (+ bias[j]), A(i,k) =
// a[i*ar + k*ac], B row-major; then relu when asked.
static void check(const char *name, const float *got, int ldg, float scale,
                  const float *bias, int relu,
                  const float *a, int ar, int ac, const float *b, int m,
                  int k, int n) {
  int bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0, mag = 0;
      for (int p = 0; p < k; ++p) {
        double x = (double)a[i * ar + p * ac] * b[p * n + j];
        want += x;
        mag += fabs(x);
      }
      want *= scale;
      if (bias)
        want += bias[j];
      if (relu && want < 0)
        want = 0;
      double err = fabs(got[i * ldg + j] - want);
      if (err > 1e-5 * (mag + 1) && bad++ < 5)
        printf("%s: [%d][%d] = %g, want %g\n", name, i, j,
               got[i * ldg + j], want);
    }
  printf("%s: %s\n", name, bad ? "FAILED" : "ok");
  failures += bad != 0;
}

__attribute__((noinline)) void mm_17x33x100(const float *a, const float *b,
                                            float *c) {
  v17x100 r = tensor_matmul_a(LOAD(a, 17, 33), LOAD(b, 33, 100));
  tensor_store(c, INFO(r, 17, 100), TLX_ZEROS(2));
}

__attribute__((noinline)) void mm_1x1x1(const float *a, const float *b,
                                        float *c) {
  v1x1 r = tensor_matmul_b(LOAD(a, 1, 1), LOAD(b, 1, 1));
  tensor_store(c, INFO(r, 1, 1), TLX_ZEROS(2));
}

// c = (a b) * 0.5: a fused scale.
__attribute__((noinline)) void mm_scaled(const float *restrict a,
                                         const float *restrict b,
                                         float *restrict c) {
  v37x45 ab = tensor_matmul_c(LOAD(a, 37, 29), LOAD(b, 29, 45));
  tensor_typeinfo(ab, TLX_SHAPE(37, 45), ROW, TLX_ZEROS(2));
  v37x45 r = ab * 0.5f;
  tensor_store(c, INFO(r, 37, 45), TLX_ZEROS(2));
}

// A stored transposed (17 x 100, layout <1,0>: the logical 100 x 17), C
// written with rows 40 elements apart (33 used).
__attribute__((noinline)) void mm_transposed_a(const float *at, const float *b,
                                               float *c) {
  tlx_token_t ta = tensor_load(at, TLX_SHAPE(17, 100), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v100x33 r = tensor_matmul_d(ta, LOAD(b, 17, 33));
  tensor_store(c, INFO(r, 100, 33), TLX_STRIDES(0, 40));
}

// y = relu(x w + bias), bias broadcast over the rows: fused.
__attribute__((noinline)) void bias_relu(const float *restrict x,
                                         const float *restrict w,
                                         const float *restrict bias,
                                         float *restrict y) {
  v33x17 xw = tensor_matmul_e(LOAD(x, 33, 100), LOAD(w, 100, 17));
  tensor_typeinfo(xw, TLX_SHAPE(33, 17), ROW, TLX_ZEROS(2));
  v33x17 bb = tensor_broadcast_e(
      tensor_load(bias, TLX_SHAPE(17), TLX_LAYOUT(0), TLX_ZEROS(1),
                  TLX_ZEROS(1)));
  tensor_typeinfo(bb, TLX_SHAPE(33, 17), ROW, TLX_ZEROS(2));
  v33x17 z = xw + bb;
  v33x17 r = tensor_relu_e(INFO(z, 33, 17));
  tensor_store(y, INFO(r, 33, 17), TLX_ZEROS(2));
}

int main(void) {
  static float a[100 * 100], b[100 * 100], c[100 * 100], bias[17];
  fill(a, 100 * 100);
  fill(b, 100 * 100);
  fill(bias, 17);

  mm_17x33x100(a, b, c);
  check("17x33x100", c, 100, 1, 0, 0, a, 33, 1, b, 17, 33, 100);
  mm_1x1x1(a, b, c);
  check("1x1x1", c, 1, 1, 0, 0, a, 1, 1, b, 1, 1, 1);

  mm_scaled(a, b, c);
  check("a b * 0.5", c, 45, 0.5f, 0, 0, a, 29, 1, b, 37, 29, 45);

  for (int i = 0; i < 100 * 40; ++i)
    c[i] = -1;
  mm_transposed_a(a, b, c);
  check("transposed A, padded C", c, 40, 1, 0, 0, a, 1, 100, b, 100, 17, 33);
  int padding = 0;
  for (int i = 0; i < 100; ++i)
    for (int j = 33; j < 40; ++j)
      padding += c[i * 40 + j] != -1;
  if (padding)
    printf("padding between C's rows written: %d\n", failures += padding);

  bias_relu(a, b, bias, c);
  check("bias + relu", c, 17, 1, bias, 1, a, 100, 1, b, 33, 100, 17);

  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
