// Regression test, found by the differential generator (seed 3 case 361:
// reshape.block f64 [3] blocks [1]). clang reads and writes 3-element
// vectors in memory as 4-element ones plus shuffles (its "vec3"
// handling), so the variable holding an op's 3-element result was not
// promoted and the typeinfo after the op named a shuffle of a reload, not
// the op. At -O0 and -O2, for every element type, ops whose result shape
// only that typeinfo gives (broadcast, reshape.block, reshape.permute)
// were rejected:
//   error: llvm.tensor.broadcast: the result shape cannot be inferred from
//   the operands: the result needs a typeinfo
// RUN: %clang_tlx -std=c11 -O0 -Wno-psabi %s %tlx_rt -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 -Wno-psabi %s %tlx_rt -o %t.O2
// RUN: %t.O2 | FileCheck %s
// CHECK: vec3: OK
// CHECK: vec3-i8: OK
// CHECK: vec3-f64: OK
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

typedef float v3 __attribute__((__vector_size__(3 * sizeof(float))));
typedef int8_t v3i8 __attribute__((ext_vector_type(3)));
typedef double v3d __attribute__((ext_vector_type(3)));
TLX_DECLARE_TENSOR_OPS(v3)
TLX_DECLARE_TENSOR_OPS_AS(v3i8, b3)
TLX_DECLARE_TENSOR_OPS_AS(v3d, d3)

/* 3 x int8_t also comes back from the op as an i32. */
static void broadcast_i8(const int8_t *a, int8_t *o) {
  tlx_token_t t = tensor_load(a, TLX_SHAPE(1, 1), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  v3i8 r = tensor_broadcast_b3(t);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(1, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(o, tr, TLX_ZEROS(2));
}

/* Blocks of 1 along a tensor of 3: the same 3 elements. */
static void reshape_block_f64(const double *a, double *o) {
  tlx_token_t t = tensor_load(a, TLX_SHAPE(3), TLX_LAYOUT(0), TLX_ZEROS(1),
                              TLX_ZEROS(1));
  v3d r = tensor_reshape_block_d3(t, TLX_SHAPE(1));
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(3), TLX_LAYOUT(0), TLX_ZEROS(1));
  tensor_store(o, tr, TLX_ZEROS(1));
}

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

  int8_t b[1] = {-7}, ob[4] = {1, 1, 1, 1};
  broadcast_i8(b, ob);
  int ok8 = ob[0] == -7 && ob[1] == -7 && ob[2] == -7 && ob[3] == 1;
  printf("vec3-i8: %s\n", ok8 ? "OK" : "FAILED");

  double d[3] = {1.5, -2, 3}, od[3] = {0, 0, 0};
  reshape_block_f64(d, od);
  int okd = od[0] == 1.5 && od[1] == -2 && od[2] == 3;
  printf("vec3-f64: %s\n", okd ? "OK" : "FAILED");
  return !(ok && ok8 && okd);
}
