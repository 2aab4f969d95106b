// The portable vector GEMM kernel on AArch64: TargetTransformInfo's 128-bit
// NEON registers give a 14 x 8 f32 register block (28 accumulators of the
// 32 vector registers), and the k loop is NEON fmla - with the A broadcast
// folded into the by-element form.
// REQUIRES: aarch64-cross
// RUN: %a64_tlx_cc -O2 -S %s -o - | FileCheck %s
// RUN: %a64_tlx_cc -O2 -Rpass=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: matmul: 64x64x64 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel vec128 fma f32 14x8
// CHECK-LABEL: mm:
// CHECK: fmla v{{[0-9]+}}.4s, v{{[0-9]+}}.4s, v{{[0-9]+}}.s[0]
// CHECK: ret
#include <tlx.h>

typedef float m_t __attribute__((ext_vector_type(64 * 64)));
TLX_DECLARE_TENSOR_OPS(m_t)

void mm(const float *a, const float *b, float *c) {
  m_t r = tensor_matmul(tensor_load(a, TLX_SHAPE(64, 64), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2), TLX_ZEROS(2)),
                        tensor_load(b, TLX_SHAPE(64, 64), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2), TLX_ZEROS(2)));
  tensor_store(c,
               tensor_typeinfo(r, TLX_SHAPE(64, 64), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
}
