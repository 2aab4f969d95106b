// A C operator on a TLX token (tlx_token_t, an int naming a tensor) is an
// error at the operator, with a note on what computes with the tensors: the
// short form's results are tokens, and `xw + TLX_LOAD(b, 1, n)` would add two
// handles (issue 52; it failed later, on the next op, as "does not come
// from a TLX operation"). + - * / (and +=...) get the short-form function
// in the note, with a fix-it. Assignment, merges (?:) and TLX ops take
// tokens.
// RUN: not %clang_tlx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -c -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang_tlx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// RUN: %clang_tlx -fsyntax-only -DVALID %s

#include <tlx.h>

#ifndef VALID
void bias(float *y, const float *x, const float *b, int n) {
  tlx_token_t xw = TLX_LOAD(x, 4, n);
  TLX_STORE(y, tlx_relu(xw + TLX_LOAD(b, 1, n)));
}
// CHECK: diag-token-operators.c:[[@LINE-2]]:28: error: operator '+' on a TLX token: a tlx_token_t names a tensor, it is not its data
// CHECK: diag-token-operators.c:[[@LINE-3]]:25: note: compute with the tensors in the short form: tlx_add(a, b) (numpy broadcasting; either may be a C scalar)
// FIXIT-DAG: fix-it:"{{.*}}diag-token-operators.c":{[[@LINE-4]]:25-[[@LINE-4]]:47}:"tlx_add(xw, TLX_LOAD(b, 1, n))"

typedef tlx_token_t handle; /* a typedef of the token type is one too */
int others(const float *x) {
  handle a = TLX_LOAD(x, 2, 2), c = TLX_LOAD(x + 4, 2, 2);
  int k = -a;
  k += a == c;
  a++;
  a /= 2;
  return k * tlx_relu(c);
}
// CHECK: diag-token-operators.c:[[@LINE-6]]:11: error: operator '-' on a TLX token
// CHECK: diag-token-operators.c:[[@LINE-7]]:12: note: TLX ops take tokens (tlx_relu(t), tlx_add(a, b), tlx_max(a, b)); C operators apply to a result kept as a C vector and named by tensor_typeinfo (the long form: docs/ops.md, "C vector operators")
// CHECK: diag-token-operators.c:[[@LINE-7]]:10: error: operator '==' on a TLX token
// CHECK: diag-token-operators.c:[[@LINE-7]]:4: error: operator '++' on a TLX token
// CHECK: diag-token-operators.c:[[@LINE-7]]:5: error: operator '/=' on a TLX token
// CHECK: diag-token-operators.c:[[@LINE-8]]:3: note: compute with the tensors in the short form: tlx_div(a, b)
// FIXIT-DAG: fix-it:"{{.*}}diag-token-operators.c":{[[@LINE-9]]:3-[[@LINE-9]]:9}:"a = tlx_div(a, 2)"
// CHECK: diag-token-operators.c:[[@LINE-9]]:12: error: operator '*' on a TLX token
#endif

void valid(float *y, const float *x, int flag) {
  tlx_token_t a = TLX_LOAD(x, 2, 2), c = TLX_LOAD(x + 4, 2, 2);
  tlx_token_t m = flag ? a : c;
  a = c;
  (void)a;
  TLX_STORE(y, tlx_relu(m));
}
