// The short form's elementwise arithmetic, misused: shapes that do not
// broadcast, tensors of two element types, a floating-point scalar with
// integer elements, two scalars, and an argument that is neither a tensor
// nor a scalar are errors at -fsyntax-only, named tlx_<op> as the program
// calls it - also where other extents are run-time ones: what the constant
// extents decide (?x3 against 4x2; a matmul's K of 8 against 7; float
// against int8_t data) is an error before any IR exists.
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -c -o /dev/null %s 2>&1 | FileCheck %s
// RUN: not %clang_tlx -DRUNTIME -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: not %clang_tlx -DRUNTIME -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=RUNTIME

#include <tlx.h>

#ifndef RUNTIME
void mistakes(float (*x)[3], double *d, int *q, float *p) {
  tlx_token_t tx = TLX_LOAD(x, 2, 3);
  // CHECK-DAG: error: 'tlx_add': cannot broadcast the shapes 2x3 and 4x3: trailing dimensions are aligned, and each pair of extents must be equal or one of them 1
  TLX_STORE(x, tlx_add(tx, TLX_LOAD(x, 4, 3))); // expected-error {{'tlx_add': cannot broadcast the shapes 2x3 and 4x3}}
  // CHECK-DAG: error: 'tlx_sub': cannot broadcast the shapes 2 and 2x3
  TLX_STORE(x, tlx_sub(TLX_LOAD(x, 2), tx)); // expected-error {{'tlx_sub': cannot broadcast the shapes 2 and 2x3}}
  // CHECK-DAG: error: 'tlx_max': the tensors' element types differ: float and double
  TLX_STORE(x, tlx_max(tx, TLX_LOAD(d, 3))); // expected-error {{'tlx_max': the tensors' element types differ: float and double}}
  // CHECK-DAG: error: 'tlx_mul': a floating-point scalar with a tensor of int32_t elements: the result keeps the tensor's element type, so write an integer scalar
  TLX_STORE(q, tlx_mul(TLX_LOAD(q, 2, 3), 0.5)); // expected-error {{'tlx_mul': a floating-point scalar with a tensor of int32_t elements}}
  // CHECK-DAG: error: 'tlx_div': one operand at least must be a tensor
  TLX_STORE(q, tlx_div(6, 3)); // expected-error {{'tlx_div': one operand at least must be a tensor}}
  // CHECK-DAG: error: argument 2 of 'tlx_min' must be a tensor (a token) or a scalar, not 'float *'
  TLX_STORE(x, tlx_min(tx, p)); // expected-error {{argument 2 of 'tlx_min' must be a tensor (a token) or a scalar, not 'float *'}}
}
#else
void runtime(float *p, float (*y)[2], signed char *q, int m, int n) {
  // RUNTIME: diag-short-elementwise.c:[[@LINE+1]]:16: error: 'tlx_add': cannot broadcast the shapes ?x3 and 4x2
  TLX_STORE(p, tlx_add(TLX_LOAD(p, n, 3), TLX_LOAD(y, 4, 2)));
  // RUNTIME: diag-short-elementwise.c:[[@LINE+1]]:16: error: 'tlx_matmul': inner dimensions differ: op1 is ?x8 (M=?, K=8), op2 is 7x? (K=7, N=?)
  TLX_STORE(p, tlx_matmul(TLX_LOAD(p, m, 8), TLX_LOAD(p, 7, n)));
  // RUNTIME: diag-short-elementwise.c:[[@LINE+1]]:16: error: 'tlx_matmul': operands mix integer and floating-point elements: op1 is float, op2 is signed char
  TLX_STORE(p, tlx_matmul(TLX_LOAD(p, m, 8), TLX_LOAD(q, 8, 4)));
}
#endif
