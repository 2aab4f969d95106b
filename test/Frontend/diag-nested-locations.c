// Errors and remarks that come from the IR point at the call they are
// about, also when it is written inside an argument of tensor_load or
// tensor_store (tlx.h macros: clang would otherwise give every call inside
// them the outer macro's location), and after a control-flow merge (at the
// call that uses the merged token). The tokens merged by ?: and if/else
// hide these shapes from the AST checks.
// RUN: not %clang_tlx -O0 -c -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -g -c -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang_tlx -O0 -DVALID -Rpass-analysis=tlx -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=REMARK

#include <tlx.h>

typedef float v9f __attribute__((__vector_size__(9 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v9f)

#ifndef VALID
void inner_matmul(const float *a, const float *b, float *c, int k) {
  tlx_token_t t1 = tensor_load(b, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t t2 = tensor_load(b, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tensor_store(c, tensor_typeinfo(tensor_matmul(tensor_load(a, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2)), k ? t1 : t2),
                                  TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)),
               TLX_ZEROS(2));
}
// CHECK-DAG: diag-nested-locations.c:[[@LINE-4]]:35: error: 'tensor_matmul': inner dimensions differ: op1 is 3x4 (M=3, K=4), op2 is 3x3 (K=3, N=3)

void merged(v9f x, float *c, int k) {
  tlx_token_t t;
  if (k)
    t = tensor_typeinfo(x, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  else
    t = tensor_typeinfo(x, TLX_SHAPE(9, 1), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));

  tensor_store(c,
               tensor_typeinfo(tensor_relu(t), TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)),
               TLX_ZEROS(2));
}
// CHECK-DAG: diag-nested-locations.c:[[@LINE-3]]:32: error: tokens merged at this point (operand of 'tensor_relu') have different shapes (<3, 3> and <9, 1>)
#else
void valid(const float *a, float *c) {
  tensor_store(c, tensor_typeinfo(tensor_relu(tensor_load(a, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2))),
                                  TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)),
               TLX_ZEROS(2));
}
// REMARK: diag-nested-locations.c:[[@LINE-4]]:35: remark: llvm.tensor.relu: f32 3x3
#endif
