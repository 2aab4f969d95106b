// Shape, layout, padding, stride and op rules decidable from constant
// arguments are checked on the AST, so -fsyntax-only (what editors run)
// fails on them, in C and C++, with the C function's name, the operands in
// M x K / K x N terms, and the offending arguments highlighted. Dimension
// vectors are followed through local variables initialized with constants,
// tokens and tensor data through local variables initialized by TLX calls.
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: %clang_tlx -x c++ -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -fsyntax-only -fno-color-diagnostics %s 2>&1 | FileCheck %s
// RUN: not %clang_tlx -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=ONCE

#include <stdint.h>
#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(4 * sizeof(float))));
typedef float v9f __attribute__((__vector_size__(9 * sizeof(float))));
typedef float v12f __attribute__((__vector_size__(12 * sizeof(float))));
typedef int v9i __attribute__((__vector_size__(9 * sizeof(int))));
typedef int _shape_t __attribute__((__vector_size__(2 * sizeof(int))));
TLX_DECLARE_TENSOR_OPS(v9f)
TLX_DECLARE_TENSOR_OPS_AS(v12f, f12)
TLX_DECLARE_TENSOR_OPS_AS(v4f, f4)

void matmul_k(const float *a, const float *b, float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(5, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  v9f r = tensor_matmul(ta, tb); // expected-error {{'tensor_matmul': inner dimensions differ: op1 is 3x4 (M=3, K=4), op2 is 5x3 (K=5, N=3)}}
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)), TLX_ZEROS(2));
}
// CHECK: diag-shapes-ast.c:[[@LINE-3]]:11: error: 'tensor_matmul': inner dimensions differ: op1 is 3x4 (M=3, K=4), op2 is 5x3 (K=5, N=3)
// CHECK-NEXT: v9f r = tensor_matmul(ta, tb);
// CHECK-NEXT: {{^ +\| +\^ +~~  ~~$}}
// ONCE: diag-shapes-ast.c:[[@LINE-6]]:11: error: 'tensor_matmul': inner dimensions differ
// ONCE-NOT: diag-shapes-ast.c:[[@LINE-7]]:
// ONCE-NOT: llvm.tensor

// The RFC's style: shapes in local variables, a column-major operand.
void rfc_locals(v12f x, v12f y) {
  _shape_t shape = {3, 4};
  _shape_t colmajor = {1, 0};
  _shape_t none = {0, 0};
  tlx_token_t tx = tensor_typeinfo(x, shape, (_shape_t){0, 1}, none);
  tlx_token_t ty = tensor_typeinfo(y, shape, colmajor, none); // 4x3
  tlx_token_t tz = tensor_typeinfo(y, (_shape_t){4, 3}, colmajor, none); // 3x4
  v9f r = tensor_matmul(tx, ty);
  v9f s = tensor_matmul(tx, tz); // expected-error {{'tensor_matmul': inner dimensions differ: op1 is 3x4 (M=3, K=4), op2 is 3x4 (K=3, N=4; written 4x3 in storage order, layout <1, 0>)}}
  tlx_token_t tr = tensor_typeinfo(r, (_shape_t){3, 3}, colmajor, none);
  (void)s, (void)tr;
}

// A token the AST cannot follow (changed on a path; merged by ?:) and a
// shape that changes are left to tlx-recognize and tlx-verify.
void undecidable(v12f x, v12f y, int c) {
  _shape_t shape = {3, 4};
  if (c)
    shape = (_shape_t){4, 3};
  tlx_token_t tx = tensor_typeinfo(x, shape, TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  tlx_token_t ty = tensor_typeinfo(y, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  tlx_token_t tz = c ? ty : ty;
  v9f r = tensor_matmul(tx, ty);
  v9f s = tensor_matmul(ty, tz);
  (void)r, (void)s;
}

void tensors(v12f x, const float *p) {
  tlx_token_t a = tensor_typeinfo(x, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)); // expected-error {{'tensor_typeinfo': data has 12 elements, but shape 3x3 holds 9}}
  tlx_token_t b = tensor_load(p, TLX_SHAPE(3, 4), TLX_LAYOUT(1, 1), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-error {{'tensor_load': layout <1, 1> is not a permutation of 0..1}}
  tlx_token_t c = tensor_load(p, TLX_SHAPE(3, 0), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-error {{'tensor_load': shape extent 0 of dimension 1 must be >= 1}}
  tlx_token_t d = tensor_load(p, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_PADDING(0, -1), TLX_ZEROS(2)); // expected-error {{'tensor_load': padding -1 of dimension 1 must be >= 0}}
  tlx_token_t e = tensor_load(p, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_STRIDES(0, 3)); // expected-error {{'tensor_load': strides[1] = 3 is less than the span of storage dimension 1 (4 elements): elements would share addresses}}
  (void)a, (void)b, (void)c, (void)d, (void)e;
}
// CHECK: diag-shapes-ast.c:[[@LINE-6]]:51: error: 'tensor_load': layout <1, 1> is not a permutation of 0..1
// CHECK-NEXT: {{.*}}|
// CHECK-NEXT: {{^ +\| +\^~+$}}

void stores(int32_t *ip, const float *p) {
  tlx_token_t t = tensor_load(p, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tensor_store(ip, t, TLX_ZEROS(2)); // expected-error {{'tensor_store': pointer element type int32_t differs from the stored tensor's float}}
}

void result_typeinfo(v12f x) {
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  v12f r = tensor_transpose_f12(t, TLX_LAYOUT(1, 0)); // expected-error {{'tensor_transpose_f12': result typeinfo layout <0, 1> differs from the permutation <1, 0>}}
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)); // expected-note {{the result's type is given here}}
  v9f m = tensor_matmul(t, tensor_typeinfo(x, TLX_SHAPE(4, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2))); // expected-error {{'tensor_matmul': result typeinfo shape 9x1 differs from the inferred result shape 3x3}}
  tlx_token_t tm = tensor_typeinfo(m, TLX_SHAPE(9, 1), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)); // expected-note {{the result's type is given here}}
  (void)tr, (void)tm;
}

void result_vector(v12f x) {
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  v4f r = tensor_relu_f4(t); // expected-error {{'tensor_relu_f4': result has 4 elements, but the inferred result shape 3x4 holds 12}}
  (void)r;
}
// expected-note@22 {{'tensor_relu_f4' is declared here to return 'v4f'}}

void other_ops(v12f x, v9f k) {
  tlx_token_t in = tensor_typeinfo(x, TLX_SHAPE(1, 1, 3, 4), TLX_IDENTITY_LAYOUT(4), TLX_ZEROS(4));
  tlx_token_t kern = tensor_typeinfo(k, TLX_SHAPE(1, 1, 3, 3), TLX_IDENTITY_LAYOUT(4), TLX_ZEROS(4));
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  v4f c = tensor_convolution_f4(in, kern, TLX_DIMS(1, 1), TLX_DIMS(1, 1), TLX_DIMS(0, 3)); // expected-error {{'tensor_convolution_f4': kernel window 7 exceeds input extent 4 in spatial dimension 1 (after dilation)}}
  v4f r = tensor_reduce_max_f4(t, TLX_DIMS(5, 2), TLX_DIMS(1, 1)); // expected-error {{'tensor_reduce_max_f4': window 5 exceeds extent 3 of dimension 0}}
  v12f p = tensor_transpose_f12(t, TLX_LAYOUT(0, 0)); // expected-error {{'tensor_transpose_f12': permutation <0, 0> is not a permutation of 0..1}}
  v12f q = tensor_concat_f12(t, t, 2); // expected-error {{'tensor_concat_f12': axis 2 is out of range for rank 2}}
  v12f s = tensor_sqrt_f12(in); // no error: matching shapes
  (void)c, (void)r, (void)p, (void)q, (void)s;
}

// Calls inside macro arguments (tensor_store is a tlx.h macro) are reported
// at their own columns.
void nested(const float *a, float *c) {
  tensor_store(c, tensor_typeinfo(tensor_relu(tensor_load(a, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 0), TLX_ZEROS(2), TLX_ZEROS(2))), TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)), TLX_ZEROS(2)); // expected-error {{'tensor_load': layout <0, 0> is not a permutation of 0..1}}
}
// CHECK: diag-shapes-ast.c:[[@LINE-2]]:79: error: 'tensor_load': layout <0, 0>
// CHECK-NEXT: {{.*}}|
// CHECK-NEXT: {{^ +\| +\^~+$}}
