// C vector code on a tensor-sized value that tlx-vector-ops cannot make a
// TLX op (here a shuffle) is a located error naming the instruction, at
// every -O level - not minutes in instruction selection.
// RUN: not %clang_tlx -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_tlx -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: diag-wide-vector.c:[[@LINE+8]]:10: error: C vector code on a tensor-sized <1024 x float> value that TLX cannot lower ('shufflevector'): write it with TLX ops or through memory
// CHECK-NOT: error:

#include <tlx.h>
typedef float v __attribute__((__vector_size__(1024 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v)
v swap_pairs(const float *a) {
  v r = tensor_relu(tensor_load(a, TLX_SHAPE(32, 32), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2)));
  return __builtin_shufflevector(r, r, 1, 0, 3, 2)[0] + r;
}
