// A verification error stops the pipeline: the error is reported at the call
// with file:line:col, naming the C function, nothing is lowered, and the
// invalid op never reaches instruction selection (no crash), at -O0 and
// -O2. (The token merged by ?: hides the shapes from the plugin's AST
// checks, so tlx-verify finds this one; the call inside tensor_store's
// macro argument keeps its own column.)
// RUN: not %clang_tlx -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_tlx -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_tlx -fsyntax-only %s
// CHECK: verify-error-stops-pipeline.c:[[@LINE+13]]:35: error: 'tensor_matmul': inner dimensions differ: op1 is 3x4 (M=3, K=4), op2 is 5x3 (K=5, N=3)
// CHECK-NOT: not lowered
// CHECK-NOT: PLEASE submit
// CHECK: 1 error generated.
#include <tlx.h>
typedef float v9 __attribute__((vector_size(36)));
TLX_DECLARE_TENSOR_OPS(v9)
float a[12], b[15], c[9];
int main(int argc, char **argv) {
  (void)argv;
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1), TLX_PADDING(0, 0), TLX_STRIDES(0, 0));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(5, 3), TLX_LAYOUT(0, 1), TLX_PADDING(0, 0), TLX_STRIDES(0, 0));
  tlx_token_t tb2 = tensor_load(b, TLX_SHAPE(5, 3), TLX_LAYOUT(0, 1), TLX_PADDING(0, 0), TLX_STRIDES(0, 0));
  tensor_store(c, tensor_typeinfo(tensor_matmul(ta, argc > 1 ? tb : tb2), TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1), TLX_PADDING(0, 0)), TLX_STRIDES(0, 0));
  return 0;
}
