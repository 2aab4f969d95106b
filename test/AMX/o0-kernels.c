// At -O0 an AMX GEMM is outlined into a kernel that is not optnone, so the
// AMX emitter uses its optimized form there (tile values in registers, no
// 1 KiB accumulator stack slots - the -O0 form; K = 1024 keeps a k loop
// whose accumulators are x86_amx phis), and the kernel and its tile
// function are optimized. Run through the emulator at -O0 and -O0 -g;
// the native code must also get through the backend at -O0 (which then
// generates code at -O2 for the module: tlx-optimize-kernels).
// RUN: %clang_tlx -w -O0 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O0 -g -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %tg && %tg | FileCheck %s
// RUN: %clang_tlx -w -O0 -fplugin-arg-tlx-target=amx -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %clang_tlx -w -O0 -fplugin-arg-tlx-target=amx -fplugin-arg-tlx-optimize-kernels=off -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// RUN: %clang_tlx -w -O0 -march=sapphirerapids -S %s -o - | FileCheck %s --check-prefix=ASM
// AMX code of the user's own (clang's __tile1024i API, in an optnone
// function) needs the backend at -O0, where optimized AMX kernels do not
// compile: then nothing is outlined (a missed remark says why) and the
// module compiles as before.
// RUN: %clang_tlx -w -O0 -march=sapphirerapids -DUSER_TILES -Rpass=tlx-optimize-kernels -Rpass-missed=tlx-optimize-kernels -S %s -o %t.user.s 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: FileCheck %s --check-prefix=MIXED-ASM < %t.user.s
// MIXED: remark: gemm kernel not outlined: AMX code outside TLX's kernels (in '{{.*}}') needs the backend at -O0
// MIXED-NOT: optimized at -O2
// MIXED-ASM-NOT: tlx.gemm.
// MIXED-ASM: tdpbssd
// MIXED-ASM-NOT: tlx.gemm.
// CHECK: smma: ok
// CHECK: bf16 matmul: ok
// CHECK: PASSED

// IR-LABEL: define {{.*}}void @mma_i8(
// IR-SAME: #[[USER:[0-9]+]]
// IR: call void @tlx.gemm.mma_i8.0(
// IR-LABEL: define {{.*}}void @mm_bf16(
// IR: call void @tlx.gemm.mm_bf16.0(
// IR-LABEL: define internal void @tlx.amx.gemm(
// IR-SAME: #[[TILES:[0-9]+]]
// IR-NOT: alloca [4096 x i8]
// IR: phi x86_amx
// IR-NOT: alloca [4096 x i8]
// IR: @llvm.x86.tdpbssd.internal
// IR-NOT: alloca [4096 x i8]
// IR-LABEL: define internal void @tlx.gemm.mma_i8.0(
// IR: call void @tlx.amx.gemm(
// IR-LABEL: define internal void @tlx.gemm.mm_bf16.0(
// IR: call void @tlx.amx.gemm.{{[0-9]+}}(
// IR-DAG: attributes #[[USER]] = { noinline nounwind optnone
// IR-DAG: attributes #[[TILES]] = { noinline nounwind "

// Without outlining the user's function keeps the -O0 tile form.
// OFF-LABEL: define internal void @tlx.amx.gemm{{[.0-9]*}}(
// OFF: alloca [4096 x i8]

// ASM-LABEL: mma_i8:
// ASM: callq tlx.gemm.mma_i8.0
// ASM-LABEL: tlx.amx.gemm:
// ASM: ldtilecfg
// ASM: tdpbssd

#include "../Integration/Inputs/oracle.h"
#include <tlx.h>

#define LOAD2(p, m, n)                                                         \
  tensor_load(p, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2))

typedef int32_t vi __attribute__((__vector_size__(35 * 40 * 4)));
typedef float vf __attribute__((__vector_size__(33 * 48 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(vi, i)
TLX_DECLARE_TENSOR_OPS_AS(vf, f)

__attribute__((noinline)) void mma_i8(int32_t *c, const int8_t *a,
                                      const int8_t *b) {
  vi r = tensor_smma_i(LOAD2(c, 35, 40), LOAD2(a, 35, 1024), LOAD2(b, 1024, 40));
  tensor_store(c, INFO2(r, 35, 40), TLX_ZEROS(2));
}

__attribute__((noinline)) void mm_bf16(const __bf16 *a, const __bf16 *b,
                                       float *c) {
  vf r = tensor_matmul_f(LOAD2(a, 33, 30), LOAD2(b, 30, 48));
  tensor_store(c, INFO2(r, 33, 48), TLX_ZEROS(2));
}

#ifdef USER_TILES
#include <immintrin.h>
void user_tiles(const int8_t *a, const int8_t *b, int32_t *c) {
  __tile1024i ta = {16, 64}, tb = {16, 64}, tc = {16, 64};
  __tile_loadd(&ta, a, 64);
  __tile_loadd(&tb, b, 64);
  __tile_zero(&tc);
  __tile_dpbssd(&tc, ta, tb);
  __tile_stored(c, 64, tc);
}
#endif

static int8_t A[35 * 1024], B[1024 * 40];
static int32_t C[35 * 40], Want[35 * 40];
static __bf16 X[33 * 30], W[30 * 48];
static float Y[33 * 48], YWant[33 * 48];

int main(void) {
  {
    const int64_t sa[] = {35, 1024}, sb[] = {1024, 40}, sc[] = {35, 40};
    tlx_tensor ta = desc(A, TLX_I8, 2, sa, NULL, NULL);
    tlx_tensor tb = desc(B, TLX_I8, 2, sb, NULL, NULL);
    tlx_tensor tc = desc(C, TLX_I32, 2, sc, NULL, NULL);
    tlx_tensor tw = desc(Want, TLX_I32, 2, sc, NULL, NULL);
    fillRandom(&ta, 127);
    fillRandom(&tb, 127);
    fillRandom(&tc, 1000);
    refOk("smma", tlx_ref_mma(TLX_SMMA, &tc, &ta, &tb, &tw));
    mma_i8(C, A, B);
    compare("smma", &tc, &tw, 0);
  }
  {
    const int64_t sx[] = {33, 30}, sw[] = {30, 48}, sy[] = {33, 48};
    tlx_tensor tx = desc(X, TLX_BF16, 2, sx, NULL, NULL);
    tlx_tensor tw = desc(W, TLX_BF16, 2, sw, NULL, NULL);
    tlx_tensor ty = desc(Y, TLX_F32, 2, sy, NULL, NULL);
    tlx_tensor twant = desc(YWant, TLX_F32, 2, sy, NULL, NULL);
    fillRandom(&tx, 4);
    fillRandom(&tw, 4);
    refOk("matmul", tlx_ref_matmul(&tx, &tw, &twant));
    mm_bf16(X, W, Y);
    compare("bf16 matmul", &ty, &twant, 1e-5);
  }
  return finish();
}
