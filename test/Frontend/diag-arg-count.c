// Calls with the wrong number of operands (per TLXOps.def, the element tag
// tlx.h appends not counted) are errors at the call, and the compile fails.
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -fsyntax-only %s 2>&1 | FileCheck %s

#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS(v4f)

void counts(v4f x, float *p) {
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1)); // expected-error {{'tensor_typeinfo' (TLX operation 'typeinfo') takes 4 arguments, got 3}}
  tlx_token_t u = tensor_typeinfo(x, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  v4f m = tensor_matmul(u); // expected-error {{'tensor_matmul' (TLX operation 'matmul') takes 2 arguments, got 1}}
  v4f b = tensor_broadcast(u, 1, 2); // expected-error {{'tensor_broadcast' (TLX operation 'broadcast') takes 1 to 2 arguments, got 3}}
  v4f c = tensor_convolution(u, u, TLX_DIMS(1, 1), TLX_ZEROS(2), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-error {{'tensor_convolution' (TLX operation 'convolution') takes 2 to 5 arguments, got 6}}
  tlx_token_t l = tensor_load(p, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2)); // expected-error {{'tensor_load' (TLX operation 'load') takes 5 arguments, got 4}}
  v4f r = tensor_relu(); // expected-error {{'tensor_relu' (TLX operation 'relu') takes 1 argument, got 0}}
}
// CHECK: diag-arg-count.c:12:19: error: 'tensor_typeinfo' (TLX operation 'typeinfo') takes 4 arguments, got 3
// CHECK: diag-arg-count.c:14:11: error: 'tensor_matmul' (TLX operation 'matmul') takes 2 arguments, got 1
