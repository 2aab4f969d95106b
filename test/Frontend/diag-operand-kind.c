// Operands of the wrong kind are errors at the argument: a token that is not
// an integer, tensor data that is neither a vector nor a pointer, a pointer
// whose element type is unknown, a dimension operand that is not an integer
// vector, a scalar that is not arithmetic, and results of the wrong type.
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -fsyntax-only %s 2>&1 | FileCheck %s

#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(16)));
typedef float v4f_x2 __attribute__((__vector_size__(32)));
TLX_DECLARE_TENSOR_OPS(v4f)
struct S { int x; };
int tensor_relu_int();

void kinds(v4f x, float *p, struct S s) {
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  v4f a = tensor_relu(x); // expected-error {{argument 1 of 'tensor_relu' must be a TLX token (an int returned by tensor_typeinfo, tensor_load or vector_totensor), not 'v4f' (vector of 4 'float' values)}}
  v4f b = tensor_relu(1.5f); // expected-error {{argument 1 of 'tensor_relu' must be a TLX token (an int returned by tensor_typeinfo, tensor_load or vector_totensor), not 'float'}}
  int c = tensor_typeinfo(s, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2)); // expected-error {{argument 1 of 'tensor_typeinfo' must be tensor data (a vector value or a pointer), not 'struct S'}}
  int d = tensor_typeinfo(p, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2)); // expected-error {{the element type of pointer argument 1 of 'tensor_typeinfo' is unknown; use tensor_typeinfo_mem(ptr, ...) from tlx.h}}
  int e = tensor_typeinfo(x, 4, TLX_LAYOUT(0, 1), TLX_ZEROS(2)); // expected-error {{argument 2 of 'tensor_typeinfo' must be an integer vector (for example TLX_SHAPE(...)), not 'int'}}
  int f = tensor_typeinfo(x, TLX_SHAPE(2, 2), (v4f){0, 1}, TLX_ZEROS(2)); // expected-error {{argument 3 of 'tensor_typeinfo' must be an integer vector (for example TLX_SHAPE(...)), not 'v4f' (vector of 4 'float' values)}}
  int g = (tensor_load)(x, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-error {{argument 1 of 'tensor_load' must be a pointer, not 'v4f' (vector of 4 'float' values)}}
  v4f h = tensor_broadcast(t, s); // expected-error {{argument 2 of 'tensor_broadcast' must be a scalar, not 'struct S'}}
  int i = tensor_relu_int(t); // expected-error {{'tensor_relu_int' returns tensor data: declare it to return the tensor's vector type (for example with TLX_DECLARE_TENSOR_OPS(type) from tlx.h), not 'int'}}
  v4f j = tensor_concat(t, t, p); // expected-error {{argument 3 of 'tensor_concat' must be an integer constant, not 'float *'}}
}
// CHECK: diag-operand-kind.c:18:23: error: argument 1 of 'tensor_relu' must be a TLX token
// CHECK: diag-operand-kind.c:20:27: error: argument 1 of 'tensor_typeinfo' must be tensor data
