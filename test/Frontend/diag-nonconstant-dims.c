// Dimension operands must be compile-time constants. Locals initialised with
// constants (the RFC's `_shape_t shape = {...};`) are accepted; parameters
// and function results are certainly not constant and are rejected on the
// AST; the rest is checked on the IR by tlx-recognize.
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -fsyntax-only %s 2>&1 | FileCheck %s

#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS(v4f)
tlx_dims2_t make_shape(void);

void nonconstant(v4f x, tlx_dims2_t shape, int n) {
  tlx_dims2_t local = {2, 2};
  int ok = tensor_typeinfo(x, local, TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  int a = tensor_typeinfo(x, shape, TLX_LAYOUT(0, 1), TLX_ZEROS(2)); // expected-error {{argument 2 of 'tensor_typeinfo' must be a constant integer vector (shape, layout, padding, strides and other dimension operands are compile-time constants)}}
  int b = tensor_typeinfo(x, make_shape(), TLX_LAYOUT(0, 1), TLX_ZEROS(2)); // expected-error {{argument 2 of 'tensor_typeinfo' must be a constant integer vector}}
  int c = tensor_typeinfo(x, TLX_SHAPE(2, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2)); // expected-error {{argument 2 of 'tensor_typeinfo' must be a constant integer vector}}
  v4f d = tensor_concat(ok, ok, n); // expected-error {{argument 3 of 'tensor_concat' must be an integer constant}}
}
// CHECK: diag-nonconstant-dims.c:17:30: error: argument 2 of 'tensor_typeinfo' must be a constant integer vector
