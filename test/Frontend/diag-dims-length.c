// The shape, layout, padding and strides of one call (and the dimension
// vectors of other ops) must have one length: the rank.
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -fsyntax-only %s 2>&1 | FileCheck %s

#include <tlx.h>

typedef float v8f __attribute__((__vector_size__(32)));
typedef int _shape_t __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS(v8f)

void lengths(v8f x, const float *p) {
  _shape_t shape = {1, 2, 2, 2};
  int a = tensor_typeinfo(x, shape, TLX_LAYOUT(0, 1, 2), TLX_ZEROS(4)); // expected-error {{the dimension vectors of 'tensor_typeinfo' have different lengths (argument 2: 4, argument 3: 3, argument 4: 4)}}
  int b = tensor_load(p, TLX_SHAPE(2, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(3)); // expected-error {{the dimension vectors of 'tensor_load' have different lengths (argument 2: 2, argument 3: 2, argument 4: 2, argument 5: 3)}}
  int t = tensor_typeinfo(x, TLX_SHAPE(2, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  v8f r = tensor_reduce_max(t, TLX_DIMS(1, 2), TLX_DIMS(1)); // expected-error {{the dimension vectors of 'tensor_reduce_max' have different lengths (argument 2: 2, argument 3: 1)}}
}
// CHECK: diag-dims-length.c:14:37: error: the dimension vectors of 'tensor_typeinfo' have different lengths
