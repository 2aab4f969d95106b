// A token operand that visibly does not come from a TLX op is an error: an
// integer constant, the result of a non-TLX function, the data result of a
// TLX op, or a function parameter (tokens cannot cross functions).
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -fsyntax-only %s 2>&1 | FileCheck %s

#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS(v4f)
int get_token(void);

void sources(v4f x, tlx_token_t param) {
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  v4f ok = tensor_matmul(t, t);
  v4f a = tensor_matmul(t, 42); // expected-error {{argument 2 of 'tensor_matmul' is a constant, not a TLX token}}
  v4f b = tensor_matmul(get_token(), t); // expected-error {{argument 1 of 'tensor_matmul' comes from get_token, not from a TLX operation}}
  v4f c = tensor_relu(param); // expected-error {{argument 1 of 'tensor_relu' is a function parameter; TLX tokens cannot be passed between functions}}
  v4f d = tensor_exp(tensor_tovector(t)); // expected-error {{argument 1 of 'tensor_exp' must be a TLX token}}
}
// CHECK: diag-token-source.c:16:28: error: argument 2 of 'tensor_matmul' is a constant, not a TLX token
// CHECK: diag-token-source.c:18:23: error: argument 1 of 'tensor_relu' is a function parameter
