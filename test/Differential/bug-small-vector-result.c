// Known front-end bug, minimal reproducer found by the differential
// generator (seed 21 cases 90, 131, 176, 273, 351, 565, 586 and others:
// 5 to 7 x i8 vectors; seed 1 case 5: relu i8 [2, 2], fixed meanwhile).
// Vector values of 8 bytes or less are passed and returned by clang's
// x86-64 ABI coerced to scalars (<4 x i8> as i32; <6 x i8>, <2 x float>,
// <4 x i16> as double; <1 x float> as i32). The front end now undoes
// some of these, but a 6 x int8_t result (stored as 8 bytes) is still
// rejected at -O0 and -O2:
//   error: the tensor operand (1st argument) of 'tensor_typeinfo' must be
//   a vector or a pointer
// and 3-element f16/bf16/i16 vectors (6 bytes) are read as 4 elements:
//   error: llvm.tensor.log2: result has 4 elements, but the inferred
//   result shape 3 holds 3
// Expected: the program compiles and prints "small-vector: OK".
// The CI differential slices avoid these sizes (run.py --no-small-vectors)
// until this is fixed; then drop XFAIL and that flag.
// XFAIL: *
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 %s %tlx_rt -o %t.O2
// RUN: %t.O2 | FileCheck %s
// CHECK: small-vector: OK
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

typedef int8_t v6i8 __attribute__((ext_vector_type(6)));
TLX_DECLARE_TENSOR_OPS(v6i8)

static void relu6(const int8_t *x, int8_t *y) {
  tlx_token_t t = tensor_load(x, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  v6i8 r = tensor_relu(t);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(y, tr, TLX_ZEROS(2));
}

int main(void) {
  int8_t x[6] = {-128, 5, -1, 127, 0, 3}, y[6] = {9, 9, 9, 9, 9, 9};
  relu6(x, y);
  int ok = y[0] == 0 && y[1] == 5 && y[2] == 0 && y[3] == 127 && y[4] == 0 &&
           y[5] == 3;
  printf("small-vector: %s (%d %d %d %d %d %d)\n", ok ? "OK" : "FAILED", y[0],
         y[1], y[2], y[3], y[4], y[5]);
  return !ok;
}
