// At -O0 (every function optnone) the GEMMs and the large loop nests TLX
// emits go into internal kernel functions of their own, optimized as at -O2
// (KernelOutliner.h, tlx-optimize-kernels), while the user's functions stay
// optnone. Results checked against the reference at -O0, -O0 -g (the
// outlined kernels get debug info of their own; the module must verify)
// and -O2, for: a matmul with tails, an smma accumulating in place, an mma
// whose accumulator is copied first, a fused epilogue (scale, bias, relu),
// a convolution (one GEMM per kernel tap, its copy out of the wide buffer
// a kernel too; with im2col forced, the im2col copy), a large elementwise chain
// and a reduce-window.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O0 -g %s %tlx_rt -o %tg && %tg | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -w -O0 -fplugin-arg-tlx-optimize-kernels=off %s %tlx_rt -o %toff && %toff | FileCheck %s
// RUN: %clang_tlx -w -O0 -g -S -emit-llvm %s -o %t.ll
// RUN: opt -passes=verify -disable-output %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: %clang_tlx -w -O0 -mllvm -tlx-conv-shifted-min-channels=100000 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IM2COL
// IM2COL-LABEL: define {{.*}}void @conv(
// IM2COL: call void @tlx.im2col.conv.0(
// IM2COL: call void @tlx.gemm.conv.0(
// RUN: not grep -q tlx-kernel %t.ll
// RUN: %clang_tlx -w -O0 -g -c %s -o %t.o && llvm-dwarfdump --verify %t.o | FileCheck %s --check-prefix=DWARF
// DWARF: No errors.
// RUN: %clang_tlx -w -O0 -fplugin-arg-tlx-optimize-kernels=off -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// RUN: %clang_tlx -w -O0 -Rpass=tlx-optimize-kernels -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: o0-kernels.c:[[#@LINE+74]]:3: remark: kernel 'tlx.gemm.mm.0' optimized at -O2 [-Rpass=tlx-optimize-kernels]
// The backend generates code at -O2 then (the user's functions stay optnone:
// FastISel, no machine optimizations): the microkernel's accumulators stay
// in registers; the -O0 backend would spill them around every block.
// RUN: %clang_tlx -w -O0 -march=x86-64-v3 -fplugin-arg-tlx-dispatch=off -S %s -o - | FileCheck %s --check-prefix=ASM
// ASM-LABEL: mm:
// ASM: callq tlx.gemm.mm.0
// ASM-LABEL: tlx.gemm.mm.0:
// ASM-NOT: {{(32|64)}}-byte {{Spill|Reload}}
// ASM: vfmadd231ps {{.*}}%ymm
// ASM-NOT: {{(32|64)}}-byte {{Spill|Reload}}
// ASM: .cfi_endproc
// CHECK-NOT: FAIL
// CHECK: matmul 67x45x53: ok
// CHECK: mma accumulator copied: ok
// CHECK: smma in place: ok
// CHECK: fused epilogue: ok
// CHECK: convolution: ok
// CHECK: elementwise: ok
// CHECK: reduce max: ok
// CHECK: PASSED

// The user's functions stay optnone and call their kernels, which are
// neither optnone nor noinline and have debug info of their own.
// IR-LABEL: define {{.*}}void @mm(
// IR-SAME: #[[USER:[0-9]+]]
// IR: call void @tlx.gemm.mm.0(
// IR-LABEL: define {{.*}}void @mma_in_place(
// IR: call void @tlx.gemm.mma_in_place.0(
// IR-LABEL: define {{.*}}void @mma_copied(
// IR: call void @tlx.gemm.mma_copied.0(
// IR-LABEL: define {{.*}}void @dense(
// IR: call void @tlx.gemm.dense.0(
// IR-LABEL: define {{.*}}void @conv(
// IR: call void @tlx.gemm.conv.0(
// IR: call void @tlx.gemm.conv.1(
// IR: call void @tlx.conv.out.conv.0(
// IR-LABEL: define {{.*}}void @elementwise(
// IR: call void @tlx.loop.elementwise.0(
// IR-LABEL: define {{.*}}void @reduce(
// IR: call void @tlx.loop.reduce.0(
// IR-LABEL: define internal void @tlx.gemm.mm.0(
// IR-SAME: #[[KERNEL:[0-9]+]] !dbg ![[MMSP:[0-9]+]]
// IR-LABEL: define internal void @tlx.loop.reduce.0(
// IR-DAG: attributes #[[USER]] = { noinline nounwind optnone uwtable
// IR-DAG: attributes #[[KERNEL]] = { nounwind uwtable
// IR-DAG: ![[MMSP]] = distinct !DISubprogram(name: "tlx.gemm.mm.0"

// With optimize-kernels=off nothing is outlined.
// OFF-NOT: @tlx.gemm.
// OFF-NOT: @tlx.loop.

#include "Inputs/oracle.h"
#include <tlx.h>

#define LOAD2(p, m, n)                                                         \
  tensor_load(p, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2))

typedef float vmm __attribute__((__vector_size__(67 * 53 * 4)));
typedef int32_t vmma __attribute__((__vector_size__(33 * 40 * 4)));
typedef float vdense __attribute__((__vector_size__(37 * 53 * 4)));
typedef float vconv __attribute__((__vector_size__(8 * 32 * 32 * 4)));
typedef float vew __attribute__((__vector_size__(100 * 100 * 4)));
typedef float vred __attribute__((__vector_size__(64 * 64 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(vmm, mm)
TLX_DECLARE_TENSOR_OPS_AS(vmma, mma)
TLX_DECLARE_TENSOR_OPS_AS(vdense, dense)
TLX_DECLARE_TENSOR_OPS_AS(vconv, conv)
TLX_DECLARE_TENSOR_OPS_AS(vew, ew)
TLX_DECLARE_TENSOR_OPS_AS(vred, red)

__attribute__((noinline)) void mm(const float *a, const float *b, float *c) {
  vmm r = tensor_matmul_mm(LOAD2(a, 67, 45), LOAD2(b, 45, 53));
  tensor_store(c, INFO2(r, 67, 53), TLX_ZEROS(2));
}

__attribute__((noinline)) void mma_in_place(int32_t *c, const int8_t *a,
                                            const int8_t *b) {
  vmma r = tensor_smma_mma(LOAD2(c, 33, 40), LOAD2(a, 33, 24), LOAD2(b, 24, 40));
  tensor_store(c, INFO2(r, 33, 40), TLX_ZEROS(2));
}

__attribute__((noinline)) void mma_copied(const int32_t *acc, const int8_t *a,
                                          const int8_t *b, int32_t *c) {
  vmma r = tensor_smma_mma(LOAD2(acc, 33, 40), LOAD2(a, 33, 24),
                           LOAD2(b, 24, 40));
  tensor_store(c, INFO2(r, 33, 40), TLX_ZEROS(2));
}

// relu(x w * alpha + bias): the chain is applied as the GEMM writes y.
__attribute__((noinline)) void dense(const float *restrict x,
                                     const float *restrict w,
                                     const float *restrict bias, float alpha,
                                     float *restrict y) {
  tlx_token_t tb = tensor_load(bias, TLX_SHAPE(53), TLX_LAYOUT(0), TLX_ZEROS(1),
                               TLX_ZEROS(1));
  vdense xw = tensor_matmul_dense(LOAD2(x, 37, 29), LOAD2(w, 29, 53));
  INFO2(xw, 37, 53);
  vdense bb = tensor_broadcast_dense(tb);
  INFO2(bb, 37, 53);
  vdense z = xw * alpha + bb;
  vdense r = tensor_relu_dense(INFO2(z, 37, 53));
  tensor_store(y, INFO2(r, 37, 53), TLX_ZEROS(2));
}

__attribute__((noinline)) void conv(const float *in, const float *k, float *o) {
  tlx_token_t xi = tensor_load(in, TLX_SHAPE(1, 16, 34, 34), TLX_LAYOUT(0, 1, 2, 3),
                               TLX_ZEROS(4), TLX_ZEROS(4));
  tlx_token_t xk = tensor_load(k, TLX_SHAPE(8, 16, 3, 3), TLX_LAYOUT(0, 1, 2, 3),
                               TLX_ZEROS(4), TLX_ZEROS(4));
  vconv r = tensor_convolution_conv(xi, xk);
  tensor_store(o, tensor_typeinfo(r, TLX_SHAPE(1, 8, 32, 32),
                                  TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4)),
               TLX_ZEROS(4));
}

__attribute__((noinline)) void elementwise(const float *a, const float *b,
                                           float *o) {
  vew x = tensor_tovector_ew(LOAD2(a, 100, 100));
  vew y = tensor_tovector_ew(LOAD2(b, 100, 100));
  vew s = x * 2.0f + y;
  vew r = tensor_relu_ew(INFO2(s, 100, 100));
  tensor_store(o, INFO2(r, 100, 100), TLX_ZEROS(2));
}

__attribute__((noinline)) void reduce(const float *a, float *o) {
  vred r = tensor_reduce_max_red(LOAD2(a, 128, 128), TLX_DIMS(2, 2),
                                 TLX_DIMS(2, 2));
  tensor_store(o, INFO2(r, 64, 64), TLX_ZEROS(2));
}

static float fa[128 * 128], fb[100 * 100], fc[100 * 100], fw[100 * 100];
static int8_t ia[33 * 24], ib[24 * 40];
static int32_t ic[33 * 40], iacc[33 * 40], iw[33 * 40];

int main(void) {
  {
    const int64_t sa[] = {67, 45}, sb[] = {45, 53}, sc[] = {67, 53};
    tlx_tensor ta = desc(fa, TLX_F32, 2, sa, NULL, NULL);
    tlx_tensor tb = desc(fb, TLX_F32, 2, sb, NULL, NULL);
    tlx_tensor tc = desc(fc, TLX_F32, 2, sc, NULL, NULL);
    tlx_tensor tw = desc(fw, TLX_F32, 2, sc, NULL, NULL);
    fillRandom(&ta, 4);
    fillRandom(&tb, 4);
    refOk("matmul", tlx_ref_matmul(&ta, &tb, &tw));
    mm(fa, fb, fc);
    compare("matmul 67x45x53", &tc, &tw, 1e-5);
  }
  {
    const int64_t sa[] = {33, 24}, sb[] = {24, 40}, sc[] = {33, 40};
    tlx_tensor ta = desc(ia, TLX_I8, 2, sa, NULL, NULL);
    tlx_tensor tb = desc(ib, TLX_I8, 2, sb, NULL, NULL);
    tlx_tensor tc = desc(ic, TLX_I32, 2, sc, NULL, NULL);
    tlx_tensor tacc = desc(iacc, TLX_I32, 2, sc, NULL, NULL);
    tlx_tensor tw = desc(iw, TLX_I32, 2, sc, NULL, NULL);
    fillRandom(&ta, 100);
    fillRandom(&tb, 100);
    fillRandom(&tacc, 1000);
    refOk("smma", tlx_ref_mma(TLX_SMMA, &tacc, &ta, &tb, &tw));
    mma_copied(iacc, ia, ib, ic);
    compare("mma accumulator copied", &tc, &tw, 0);
    memcpy(ic, iacc, sizeof(ic));
    mma_in_place(ic, ia, ib);
    compare("smma in place", &tc, &tw, 0);
  }
  {
    static float x[37 * 29], w[29 * 53], bias[53], y[37 * 53], want[37 * 53];
    const int64_t sx[] = {37, 29}, sw[] = {29, 53}, sy[] = {37, 53};
    tlx_tensor tx = desc(x, TLX_F32, 2, sx, NULL, NULL);
    tlx_tensor tw = desc(w, TLX_F32, 2, sw, NULL, NULL);
    tlx_tensor ty = desc(y, TLX_F32, 2, sy, NULL, NULL);
    tlx_tensor twant = desc(want, TLX_F32, 2, sy, NULL, NULL);
    fillRandom(&tx, 4);
    fillRandom(&tw, 4);
    for (int j = 0; j < 53; ++j)
      bias[j] = (float)(j % 7) - 3.0f;
    refOk("dense", tlx_ref_matmul(&tx, &tw, &twant));
    for (int i = 0; i < 37 * 53; ++i) {
      float z = want[i] * 0.5f + bias[i % 53];
      want[i] = z > 0 ? z : 0;
    }
    dense(x, w, bias, 0.5f, y);
    compare("fused epilogue", &ty, &twant, 1e-5);
  }
  {
    static float in[16 * 34 * 34], k[8 * 16 * 3 * 3], o[8 * 32 * 32],
        want[8 * 32 * 32];
    const int64_t si[] = {1, 16, 34, 34}, sk[] = {8, 16, 3, 3},
                  so[] = {1, 8, 32, 32};
    tlx_tensor ti = desc(in, TLX_F32, 4, si, NULL, NULL);
    tlx_tensor tk = desc(k, TLX_F32, 4, sk, NULL, NULL);
    tlx_tensor to = desc(o, TLX_F32, 4, so, NULL, NULL);
    tlx_tensor tw = desc(want, TLX_F32, 4, so, NULL, NULL);
    fillRandom(&ti, 3);
    fillRandom(&tk, 3);
    refOk("conv", tlx_ref_convolution(&ti, &tk, NULL, NULL, NULL, &tw));
    conv(in, k, o);
    compare("convolution", &to, &tw, 1e-5);
  }
  {
    const int64_t s[] = {100, 100};
    tlx_tensor ta = desc(fa, TLX_F32, 2, s, NULL, NULL);
    tlx_tensor tb = desc(fb, TLX_F32, 2, s, NULL, NULL);
    tlx_tensor tc = desc(fc, TLX_F32, 2, s, NULL, NULL);
    tlx_tensor tw = desc(fw, TLX_F32, 2, s, NULL, NULL);
    fillRandom(&ta, 4);
    fillRandom(&tb, 4);
    for (int i = 0; i < 100 * 100; ++i) {
      float z = fa[i] * 2.0f + fb[i];
      fw[i] = z > 0 ? z : 0;
    }
    elementwise(fa, fb, fc);
    compare("elementwise", &tc, &tw, 0);
  }
  {
    const int64_t si[] = {128, 128}, so[] = {64, 64}, win[] = {2, 2};
    tlx_tensor ta = desc(fa, TLX_F32, 2, si, NULL, NULL);
    tlx_tensor tc = desc(fc, TLX_F32, 2, so, NULL, NULL);
    tlx_tensor tw = desc(fw, TLX_F32, 2, so, NULL, NULL);
    fillRandom(&ta, 50);
    refOk("reduce", tlx_ref_reduce(TLX_REDUCE_MAX, &ta, win, win, &tw));
    reduce(fa, fc);
    compare("reduce max", &tc, &tw, 0);
  }
  return finish();
}
