// Messages name element types in C's words. On the AST, as the user wrote
// them (int, unsigned int, float); on the IR (what the AST cannot decide),
// where signedness is lost, integers by width as <stdint.h> names them
// (int32_t) and floating types as C spells them (float, _Float16, __bf16).
// Shapes written in storage order say so where a layout makes them differ
// from the logical shape the op uses, and a shape given to tovector's
// result points at vector_totensor.
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -c -o /dev/null -DIR_LEVEL %s 2>&1 | FileCheck %s --check-prefix=IR

#include <tlx.h>

typedef float v15f __attribute__((__vector_size__(15 * sizeof(float))));
typedef float v6f __attribute__((__vector_size__(6 * sizeof(float))));
typedef float v9f __attribute__((__vector_size__(9 * sizeof(float))));
typedef int v9i __attribute__((__vector_size__(9 * sizeof(int))));
TLX_DECLARE_TENSOR_OPS(v15f)
TLX_DECLARE_TENSOR_OPS_AS(v6f, f6)
TLX_DECLARE_TENSOR_OPS_AS(v9f, f9)

#ifndef IR_LEVEL
void store_int(int *ip, unsigned *up, v15f x) {
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(3, 5), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  tensor_store(ip, t, TLX_ZEROS(2)); // expected-error {{'tensor_store': pointer element type int differs from the stored tensor's float}}
  tensor_store(up, t, TLX_ZEROS(2)); // expected-error {{'tensor_store': pointer element type unsigned int differs from the stored tensor's float}}
}

v9f result_type(v9i a) {
  tlx_token_t t = tensor_typeinfo(a, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  return tensor_relu_f9(t); // expected-error {{'tensor_relu_f9': result element type float differs from the inferred int}}
  // expected-note@19 {{'tensor_relu_f9' is declared here to return 'v9f' (vector of 9 'float' values)}}
}

void tovector_shape(v15f x, float *o) {
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(3, 5), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  v15f f = tensor_tovector(t); // expected-error {{'tensor_tovector': result typeinfo shape 5x3 differs from the inferred result shape 15}} expected-note {{'tensor_tovector' flattens its operand to a 1-D vector; to give the flat data the shape 5x3, name it with vector_totensor(data, TLX_SHAPE(5, 3), layout, padding)}}
  tensor_store(o, tensor_typeinfo(f, TLX_SHAPE(5, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)), TLX_ZEROS(2)); // expected-note {{the result's type is given here}}
}

v6f column_major(const float *a, const float *b) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(4, 2), TLX_LAYOUT(1, 0), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  return tensor_matmul_f6(ta, tb); // expected-error {{'tensor_matmul_f6': inner dimensions differ: op1 is 2x4 (M=2, K=4; written 4x2 in storage order, layout <1, 0>), op2 is 3x3 (K=3, N=3)}}
}

void result_colmajor(v6f x) {
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(2, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  v6f r = tensor_relu_f6(t); // expected-error {{'tensor_relu_f6': result typeinfo shape 2x3 as written (storage order; logical 3x2) differs from the inferred result shape 2x3 (3x2 in this layout's storage order)}}
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(2, 3), TLX_LAYOUT(1, 0), TLX_ZEROS(2)); // expected-note {{the result's type is given here}}
  (void)tr;
}
#else
// A token chosen by ?: is checked on the IR, which knows int only as i32.
v9f ir_level(v9i a, v9i b, int k) {
  tlx_token_t t = k ? tensor_typeinfo(a, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2))
                    : tensor_typeinfo(b, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  return tensor_relu_f9(t);
}
// IR: diag-c-types.c:[[@LINE-2]]:10: error: 'tensor_relu_f9': result element type float differs from the inferred int32_t
#endif
