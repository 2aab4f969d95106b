// Run-time sizes (docs/ops.md, "Run-time sizes"): what the compiler can
// still decide from the constant extents is an error at the call, at
// -fsyntax-only too (the AST models the run-time extents; CONSTANTS); what
// this version cannot lower with run-time extents is an error that says
// so, at every -O level.
// RUN: not %clang_tlx -DCONSTANTS -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=CONST --implicit-check-not=error:
// RUN: not %clang_tlx -DCONSTANTS -O0 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=CONST --implicit-check-not=error:
// RUN: not %clang_tlx -O0 -c -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -c -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <tlx.h>

TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)

#ifdef CONSTANTS
// Constant extents of a run-time shape are still compared.
void inner_mismatch(const float *a, const float *b, float *c, int m, int n) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, m, 64), TLX_LOAD(b, 32, n)));
}
// CONST: diag-runtime-sizes.c:[[@LINE-2]]:16: error: 'tlx_matmul': inner dimensions differ: op1 is ?x64 (M=?, K=64), op2 is 32x? (K=32, N=?)

void batch_mismatch(const float *a, const float *b, float *c, int m, int n,
                    int k) {
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, 2, m, k), TLX_LOAD(b, 3, k, n)));
}
// CONST: diag-runtime-sizes.c:[[@LINE-2]]:16: error: 'tlx_matmul': batch dimensions differ: op1 is 2x?x?, op2 is 3x?x?

// The index-map ops compare their constant extents too.
void concat_mismatch(const float *a, const float *b, float *c, int m) {
  TLX_STORE(c, tlx_concat(TLX_LOAD(a, m, 4), TLX_LOAD(b, m, 5), 0));
}
// CONST: diag-runtime-sizes.c:[[@LINE-2]]:16: error: 'tlx_concat': dimension 1 differs: op1 is ?x4, op2 is ?x5 (only axis 0 may differ)

void window_too_big(const float *a, float *c, int m) {
  TLX_STORE(c, tlx_reduce_max(TLX_LOAD(a, m, 4), TLX_SHAPE(1, 5), TLX_SHAPE(1, 1)));
}
// CONST: diag-runtime-sizes.c:[[@LINE-2]]:50: error: 'tlx_reduce_max': window 5 exceeds extent 4 of dimension 1

#else
// Run-time-sized tensors merged across control flow may differ in their
// extents, not in their layouts.
void merged(int flag, int m, int n, const float *a, const float *b, float *c) {
  tlx_token_t t = flag ? TLX_LOAD(a, m, n)
                       : tensor_load(b, TLX_SHAPE(n, m), TLX_LAYOUT(1, 0),
                                     TLX_ZEROS(2), TLX_ZEROS(2));
  TLX_STORE(c, tlx_relu(t));
}
// CHECK: diag-runtime-sizes.c:[[@LINE-2]]:16: error: tokens merged at this point (operand of 'tlx_relu') have different layouts (<0, 1> and <1, 0>); give the tensor one type on every path

// A result with run-time extents is not C data.
float read_element(const float *a, const float *b, int m, int n, int k) {
  tlx_float_result_t r = tensor_matmul_f32(TLX_LOAD(a, m, k), TLX_LOAD(b, k, n));
  return r[0];
}
// CHECK: diag-runtime-sizes.c:[[@LINE-3]]:26: error: 'tensor_matmul_f32': a result whose extents are computed at run time is read by TLX ops, C operators and tensor_store only, not as C data (element reads, C stores, by value to a function)

// A result with run-time extents may not reach C through another op.
float through_relu(const float *a, int m, int n) {
  tlx_float_result_t r = tensor_relu_f32(TLX_LOAD(a, m, n));
  return r[1];
}
// CHECK: diag-runtime-sizes.c:[[@LINE-3]]:26: error: 'tensor_relu_f32': a result whose extents are computed at run time is read by TLX ops, C operators and tensor_store only, not as C data (element reads, C stores, by value to a function)
#endif
