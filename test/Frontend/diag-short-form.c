// The short form keeps every check: shapes decidable on the AST are
// errors at -fsyntax-only named by the tlx_<op> the program called, a
// result whose shape TLX cannot infer names the long form, and a
// short-form result is a token, not C data.
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -c -o /dev/null %s 2>&1 | FileCheck %s

#include <tlx.h>

void shapes(float (*a)[3], float (*c)[2]) {
  tlx_token_t ta = TLX_LOAD(a, 2, 3);
  // CHECK-DAG: error: 'tlx_matmul': inner dimensions differ: op1 is 2x3 (M=2, K=3), op2 is 2x3 (K=2, N=3)
  TLX_STORE(c, tlx_matmul(ta, ta)); // expected-error {{'tlx_matmul': inner dimensions differ: op1 is 2x3 (M=2, K=3), op2 is 2x3 (K=2, N=3)}}
  // CHECK-DAG: error: the result of 'tlx_broadcast' cannot be inferred ({{.*}}): name it with tensor_typeinfo(data, shape, layout, padding), the long form
  TLX_STORE(c, tlx_broadcast(ta)); // expected-error {{the result of 'tlx_broadcast' cannot be inferred}}
  // CHECK-DAG: error: 'tlx_reduce_max': window 4 exceeds extent 3 of dimension 1
  TLX_STORE(c, tlx_reduce_max(ta, TLX_DIMS(1, 4), TLX_DIMS(1, 4))); // expected-error {{'tlx_reduce_max': window 4 exceeds extent 3 of dimension 1}}
}
