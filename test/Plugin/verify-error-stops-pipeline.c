// A verification error stops the pipeline: the error is reported at the call
// with file:line:col, nothing is lowered, and the invalid op never reaches
// instruction selection (no crash), at -O0 and -O2.
// RUN: not %clang_tlx -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_tlx -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: verify-error-stops-pipeline.c:[[@LINE+11]]:10: error: llvm.tensor.matmul: inner dimensions differ: op1 is 3x4, op2 is 5x3
// CHECK-NOT: not lowered
// CHECK-NOT: PLEASE submit
// CHECK: 1 error generated.
#include <tlx.h>
typedef float v9 __attribute__((vector_size(36)));
TLX_DECLARE_TENSOR_OPS(v9)
float a[12], b[15], c[9];
int main(void) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1), TLX_PADDING(0, 0), TLX_STRIDES(0, 0));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(5, 3), TLX_LAYOUT(0, 1), TLX_PADDING(0, 0), TLX_STRIDES(0, 0));
  v9 r = tensor_matmul(ta, tb);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1), TLX_PADDING(0, 0));
  tensor_store(c, tr, TLX_STRIDES(0, 0));
  return 0;
}
