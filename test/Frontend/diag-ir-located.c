// What the AST cannot decide, tlx-recognize reports from the IR, at the call's
// file:line:col even without -g, and the compile fails: tokens merged with
// different shapes (also by a short-form loop), shapes that differ per path,
// tokens kept in memory the recognizer cannot follow, tokens used as numbers.
// RUN: not %clang_tlx -O0 -S -emit-llvm -fplugin-arg-tlx-stop-after=recognize -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -S -emit-llvm -fplugin-arg-tlx-stop-after=recognize -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -c -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=error:

#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS(v4f)

v4f shapes_differ(v4f x, int c) {
  tlx_token_t t;
  if (c)
    t = tensor_typeinfo(x, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  else
    t = tensor_typeinfo(x, TLX_SHAPE(1, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  return tensor_relu(t);
}
// CHECK-DAG: diag-ir-located.c:20:10: error: tokens merged at this point (operand of 'tensor_relu') have different shapes (<2, 2> and <1, 4>); give the tensor one type on every path

v4f shape_per_path(v4f x, int c) {
  tlx_dims2_t shape = {2, 2};
  if (c)
    shape = (tlx_dims2_t){1, 4};
  tlx_token_t t = tensor_typeinfo(x, shape, TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  return tensor_relu(t);
}
// CHECK-DAG: diag-ir-located.c:28:19: error: 'tensor_typeinfo': shape ?x? is computed at run time, but the data is a C vector value, whose shape is constant

v4f token_in_array(v4f x, int i) {
  tlx_token_t tokens[2];
  tokens[0] = tensor_typeinfo(x, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  tokens[1] = tokens[0];
  return tensor_relu(tokens[i]);
}
// CHECK-DAG: diag-ir-located.c:37:10: error: the token operand (1st argument) of 'tensor_relu' does not come from a TLX operation (tensor_typeinfo, tensor_load or vector_totensor)

int token_as_number(v4f x) {
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  int n = t; /* an operator on t itself is an AST error: diag-token-operators.c */
  return n + 1;
}
// CHECK-DAG: diag-ir-located.c:44:12: error: a TLX token (from 'tensor_typeinfo') can only be used by tensor_* operations

v4f address_taken(v4f x) {
  v4f (*relu)() = tensor_relu;
  return relu(x);
}
// CHECK-DAG: diag-ir-located.c:[[@LINE-3]]:9: error: the TLX operation 'tensor_relu' can only be called directly; its address cannot be taken

void loop_changes_shape(float *x, float *y, int n) {
  tlx_token_t h = TLX_LOAD(x, 2, 3);
  for (int i = 0; i < n; ++i)
    h = tlx_transpose(h);
  TLX_STORE(y, h);
}
// CHECK-DAG: diag-ir-located.c:[[@LINE-2]]:3: error: tokens merged at this point (operand of 'TLX_STORE') have different shapes (<2, 3> and <3, 2>); give the tensor one type on every path
