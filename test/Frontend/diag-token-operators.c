// A C operator on a TLX token (tlx_token_t, an int naming a tensor) is an
// error at the operator, with a note on what computes with the tensors: the
// short form's results are tokens, and `xw + TLX_LOAD(b, 1, n)` would add two
// handles (issue 52; it failed later, on the next op, as "does not come
// from a TLX operation"). Assignment, merges (?:) and TLX ops take tokens.
// RUN: not %clang_tlx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -c -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang_tlx -fsyntax-only -DVALID %s

#include <tlx.h>

#ifndef VALID
void bias(float *y, const float *x, const float *b, int n) {
  tlx_token_t xw = TLX_LOAD(x, 4, n);
  TLX_STORE(y, tlx_relu(xw + TLX_LOAD(b, 1, n)));
}
// CHECK: diag-token-operators.c:[[@LINE-2]]:28: error: operator '+' on a TLX token: a tlx_token_t names a tensor, it is not its data
// CHECK: diag-token-operators.c:[[@LINE-3]]:25: note: TLX ops take tokens (tlx_relu(t), tlx_transpose(t)); C operators apply to a result kept as a C vector and named by tensor_typeinfo (the long form: docs/ops.md, "C vector operators")

typedef tlx_token_t handle; /* a typedef of the token type is one too */
int others(const float *x) {
  handle a = TLX_LOAD(x, 2, 2), c = TLX_LOAD(x + 4, 2, 2);
  int k = -a;
  k += a == c;
  a++;
  return k * tlx_relu(c);
}
// CHECK: diag-token-operators.c:[[@LINE-5]]:11: error: operator '-' on a TLX token
// CHECK: diag-token-operators.c:[[@LINE-5]]:10: error: operator '==' on a TLX token
// CHECK: diag-token-operators.c:[[@LINE-5]]:4: error: operator '++' on a TLX token
// CHECK: diag-token-operators.c:[[@LINE-5]]:12: error: operator '*' on a TLX token
#endif

void valid(float *y, const float *x, int flag) {
  tlx_token_t a = TLX_LOAD(x, 2, 2), c = TLX_LOAD(x + 4, 2, 2);
  tlx_token_t m = flag ? a : c;
  a = c;
  (void)a;
  TLX_STORE(y, tlx_relu(m));
}
