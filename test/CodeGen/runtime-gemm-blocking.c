// The register block of a GEMM whose sizes are known only at run time
// (docs/pipeline.md, "tile."): AVX-512's 13 x 32, which pads M <= 64 less
// than 14 x 32 and costs larger M nothing, for every M, f32 and bf16
// alike; AVX2 keeps 6 x 16 (5 x 16 would pad M = 64 by one row less, with
// the run-time tail, and lost 5-8% at larger M). Execution at every M:
// Integration/runtime-sizes.c, shared-kernels.c and the differential
// sweeps.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 -march=x86-64-v4 -mavx512bf16 -Rpass=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=V4
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 -march=x86-64-v3 -Rpass=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=V3
// V4: remark: matmul: {{.*}} f32 x f32 -> f32 GEMM on vectors, kernel avx512 fma f32 13x32 {{.*}} in tlx.gemm.rt.f32sr.f32sr.f32r,
// V4: remark: matmul: {{.*}} bf16 x bf16 -> f32 GEMM on vectors, kernel avx512 bf16 vdpbf16ps 13x32 {{.*}} in tlx.gemm.rt.bf16sr.bf16sr.f32r,
// V3: remark: matmul: {{.*}} f32 x f32 -> f32 GEMM on vectors, kernel vec256 fma f32 6x16 {{.*}} in tlx.gemm.rt.f32sr.f32sr.f32r,
#include <tlx.h>

typedef float rt_t __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS_AS(rt_t, rt)

#define ROW_MAJOR TLX_LAYOUT(0, 1)

/* C = A x B, m x k by k x n, row-major \p Elem operands, f32 result. */
#define RUNTIME_GEMM(Name, Elem)                                               \
  void Name(const Elem *a, const Elem *b, float *c, int m, int n, int k) {     \
    tlx_token_t ta = tensor_load(a, TLX_SHAPE(m, k), ROW_MAJOR, TLX_ZEROS(2), \
                                 TLX_ZEROS(2));                                \
    tlx_token_t tb = tensor_load(b, TLX_SHAPE(k, n), ROW_MAJOR, TLX_ZEROS(2), \
                                 TLX_ZEROS(2));                                \
    rt_t r = tensor_matmul_rt(ta, tb);                                         \
    tensor_store(                                                              \
        c, tensor_typeinfo(r, TLX_SHAPE(m, n), ROW_MAJOR, TLX_ZEROS(2)),       \
        TLX_ZEROS(2));                                                         \
  }

RUNTIME_GEMM(gemm_f32, float)
RUNTIME_GEMM(gemm_bf16, __bf16)
