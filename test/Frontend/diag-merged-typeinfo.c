// A result merged across control flow without a typeinfo of its own takes
// the typeinfo that names the merged variable (docs/pipeline.md, "Merged
// values"); when that typeinfo does not describe the op's result, the error
// is at the op and says which typeinfo named it.
// RUN: not %clang_tlx -O0 -c -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -c -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:

#include <tlx.h>

typedef float v6 __attribute__((__vector_size__(6 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v6)

void shape_differs(int flag, float *a, float *out) {
  v6 v;
  if (flag)
    v = tensor_fabs(TLX_LOAD(a, 2, 3));
  else
    v = (v6){0};
  TLX_STORE(out, tlx_relu(tensor_typeinfo(v, TLX_SHAPE(3, 2),
                                          TLX_LAYOUT(0, 1), TLX_ZEROS(2))));
}
// CHECK: diag-merged-typeinfo.c:16:9: error: 'tensor_fabs': result typeinfo shape 3x2 differs from the inferred result shape 2x3 (the typeinfo at line 19, column 27 names the variable it is merged into)

void permutation_differs(int flag, float *a, float *out) {
  v6 v = flag ? tensor_transpose(TLX_LOAD(a, 2, 3), TLX_LAYOUT(1, 0))
              : (v6){0};
  TLX_STORE(out, tlx_relu(tensor_typeinfo(v, TLX_SHAPE(2, 3),
                                          TLX_LAYOUT(0, 1), TLX_ZEROS(2))));
}
// CHECK: diag-merged-typeinfo.c:25:17: error: 'tensor_transpose': result typeinfo layout <0, 1> differs from the permutation <1, 0> (the typeinfo at line 27, column 27 names the variable it is merged into)
