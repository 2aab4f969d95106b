// Regression test, found by the differential generator (seed 21 cases 90,
// 131, 176, 273, 351, 565, 586 and others: 5 to 7 x i8 vectors; 3 x f16,
// bf16 and i16 vectors). clang's x86-64 ABI passes and returns a vector of
// 8 bytes or less as a scalar of its size or larger, through a temporary:
// <6 x i8> and <3 x half> as double, whose first bytes hold the vector.
// The front end only followed temporaries whose stored and loaded sizes
// matched, so at -O0 and -O2 a 6 x int8_t result was rejected:
//   error: the tensor operand (1st argument) of 'tensor_typeinfo' must be
//   a vector or a pointer
// and a 3-element f16/bf16/i16 result, which clang also reads back as 4
// elements, had 4:
//   error: llvm.tensor.log2: result has 4 elements, but the inferred
//   result shape 3 holds 3
// RUN: %clang_tlx -std=c11 -O0 -Wno-psabi %s %tlx_rt -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 -Wno-psabi %s %tlx_rt -o %t.O2
// RUN: %t.O2 | FileCheck %s
// CHECK: small-vector: OK
// CHECK: small-vector-f16: OK
// CHECK: small-vector-argument: OK
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

typedef int8_t v6i8 __attribute__((ext_vector_type(6)));
typedef int8_t v5i8 __attribute__((ext_vector_type(5)));
typedef _Float16 v3h __attribute__((ext_vector_type(3)));
TLX_DECLARE_TENSOR_OPS(v6i8)
TLX_DECLARE_TENSOR_OPS_AS(v5i8, b5)
TLX_DECLARE_TENSOR_OPS_AS(v3h, h3)

static void relu6(const int8_t *x, int8_t *y) {
  tlx_token_t t = tensor_load(x, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  v6i8 r = tensor_relu(t);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(y, tr, TLX_ZEROS(2));
}

static void log2_3h(const _Float16 *x, _Float16 *y) {
  tlx_token_t t = tensor_load(x, TLX_SHAPE(3), TLX_LAYOUT(0), TLX_ZEROS(1),
                              TLX_ZEROS(1));
  v3h r = tensor_log2_h3(t);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(3), TLX_LAYOUT(0), TLX_ZEROS(1));
  tensor_store(y, tr, TLX_ZEROS(1));
}

/* A 5 x int8_t argument arrives as a double. */
__attribute__((noinline)) static v5i8 relu5(v5i8 v) {
  tlx_token_t t = tensor_typeinfo(v, TLX_SHAPE(5), TLX_LAYOUT(0), TLX_ZEROS(1));
  return tensor_relu_b5(t);
}

int main(void) {
  int8_t x[6] = {-128, 5, -1, 127, 0, 3}, y[6] = {9, 9, 9, 9, 9, 9};
  relu6(x, y);
  int ok = y[0] == 0 && y[1] == 5 && y[2] == 0 && y[3] == 127 && y[4] == 0 &&
           y[5] == 3;
  printf("small-vector: %s (%d %d %d %d %d %d)\n", ok ? "OK" : "FAILED", y[0],
         y[1], y[2], y[3], y[4], y[5]);

  _Float16 h[3] = {1, 8, 0.5f}, l[4] = {7, 7, 7, 7};
  log2_3h(h, l);
  int ok16 = l[0] == 0 && l[1] == 3 && l[2] == -1 && l[3] == 7;
  printf("small-vector-f16: %s (%g %g %g %g)\n", ok16 ? "OK" : "FAILED",
         (double)l[0], (double)l[1], (double)l[2], (double)l[3]);

  v5i8 r = relu5((v5i8){-3, 4, -5, 6, 0});
  int ok5 = r[0] == 0 && r[1] == 4 && r[2] == 0 && r[3] == 6 && r[4] == 0;
  printf("small-vector-argument: %s (%d %d %d %d %d)\n",
         ok5 ? "OK" : "FAILED", r[0], r[1], r[2], r[3], r[4]);
  return !(ok && ok16 && ok5);
}
