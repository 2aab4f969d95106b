// Layout, padding and the dimension operands of ops must be compile-time
// constants. Locals initialised with constants (the RFC's `_shape_t shape =
// {...};`) are accepted; parameters and function results are certainly not
// constant and are rejected on the AST; the rest is checked on the IR by
// tlx-recognize. The shape and strides of typeinfo, load and store may be
// computed at run time (docs/ops.md, "Run-time sizes"): the AST accepts
// them, and the IR verifier rejects a run-time shape of C vector data,
// whose length fixes its shape.
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: not %clang_tlx -S -emit-llvm -o /dev/null -DVECTOR_DATA %s 2>&1 | FileCheck %s --check-prefix=IR

#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS(v4f)
tlx_dims2_t make_shape(void);

#ifndef VECTOR_DATA
void nonconstant(v4f x, tlx_dims2_t layout, int n) {
  tlx_dims2_t local = {2, 2};
  int ok = tensor_typeinfo(x, local, TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  int a = tensor_typeinfo(x, local, layout, TLX_ZEROS(2)); // expected-error {{argument 3 of 'tensor_typeinfo' must be a constant integer vector (only the shape and strides of tensor_load, tensor_typeinfo and tensor_store may be computed at run time)}}
  int b = tensor_typeinfo(x, local, TLX_LAYOUT(0, 1), make_shape()); // expected-error {{argument 4 of 'tensor_typeinfo' must be a constant integer vector}}
  int c = tensor_typeinfo(x, local, TLX_LAYOUT(0, 1), TLX_DIMS(0, n)); // expected-error {{argument 4 of 'tensor_typeinfo' must be a constant integer vector}}
  v4f d = tensor_concat(ok, ok, n); // expected-error {{argument 3 of 'tensor_concat' must be an integer constant}}
}
// CHECK: diag-nonconstant-dims.c:23:37: error: argument 3 of 'tensor_typeinfo' must be a constant integer vector

void runtime_sizes(const float *p, float *q, int m, int n, int ld) {
  int t = tensor_load(p, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                      TLX_STRIDES(0, ld));
  tensor_store(q, tensor_typeinfo_mem(q, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1),
                                      TLX_ZEROS(2)),
               TLX_STRIDES(0, ld));
  (void)t;
}
#else
v4f vector_data(v4f x, int n) {
  return tensor_relu(tensor_typeinfo(x, TLX_SHAPE(2, n), TLX_LAYOUT(0, 1),
                                     TLX_ZEROS(2)));
}
// IR: diag-nonconstant-dims.c:[[@LINE-3]]:22: error: 'tensor_typeinfo': shape 2x? is computed at run time, but the data is a C vector value, whose shape is constant
#endif
