// Known front-end bug, minimal reproducer found by the differential
// generator (seed 3 case 361: reshape.block f64 [3] blocks [1]).
// When an op's result vector has 3 elements, the typeinfo that follows it
// is not connected to the op: clang loads and stores 3-element vectors as
// 4-element ones plus a shufflevector (its "vec3" handling), at -O0 and
// -O2. Ops whose result shape is only known from that typeinfo
// (broadcast, reshape.block, reshape.permute) are then rejected:
//   error: llvm.tensor.broadcast: the result shape cannot be inferred from
//   the operands: the result needs a typeinfo
// The same code with 2, 4, 5, 6 or 7 elements compiles and runs; any
// element type fails with 3.
// Expected: compiles and prints "vec3: OK".
// XFAIL: *
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 %s %tlx_rt -o %t.O2
// RUN: %t.O2 | FileCheck %s
// CHECK: vec3: OK
#include <stdio.h>
#include <tlx.h>

typedef float v3 __attribute__((__vector_size__(3 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v3)

int main(void) {
  float a[1] = {2.5f}, o[3] = {0, 0, 0};
  tlx_token_t t = tensor_load(a, TLX_SHAPE(1), TLX_LAYOUT(0), TLX_ZEROS(1),
                              TLX_ZEROS(1));
  v3 r = tensor_broadcast(t);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(3), TLX_LAYOUT(0), TLX_ZEROS(1));
  tensor_store(o, tr, TLX_ZEROS(1));
  int ok = o[0] == 2.5f && o[1] == 2.5f && o[2] == 2.5f;
  printf("vec3: %s\n", ok ? "OK" : "FAILED");
  return !ok;
}
