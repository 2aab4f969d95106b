// Regression test for two bugs the differential generator found (seed 2
// cases 37/147/194, seed 3 case 33: contract/convolution bf16), fixed by
// a8d6a66 "f16/bf16 GEMM results accumulate in f32 and are rounded once":
//  - bf16 matmul/contract/convolution accumulated in bf16 (a bfloat phi fed
//    by llvm.fmuladd.bf16) instead of float as the design and the oracle
//    do: 1 + 2^-8 + 2^-8 = 1.0078125 is exact in bf16, but 1 + 2^-8 rounds
//    to 1 (ties to even) at each bf16 step, giving 1.0 (0x3f80);
//  - the bf16 steps were emitted as fptrunc float->bfloat, i.e. calls to
//    __truncsfbf2, which Debian 12's libgcc does not define (libtlxrt now does):
//    programs failed to link with the documented command line.
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 %s %tlx_rt -o %t.O2
// RUN: %t.O2 | FileCheck %s
// CHECK: c[0] = 0x3f81
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <tlx.h>

typedef __bf16 v8 __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS(v8)
static uint16_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return (uint16_t)(u >> 16); }
int main(void) {
  /* [1 x 3] x [3 x 8]: column 0 sums 1 + 2^-8 + 2^-8 = 1.0078125 (exact in
     bf16); accumulating in bf16 rounds 1 + 2^-8 to 1 (ties to even) twice. */
  uint16_t a[3], b[24], c[8];
  for (int i = 0; i < 3; i++) a[i] = bits(1.0f);
  for (int i = 0; i < 24; i++) b[i] = bits(i < 8 ? 1.0f : 0.00390625f);
  tlx_token_t ta = tensor_load((__bf16 *)a, TLX_SHAPE(1, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load((__bf16 *)b, TLX_SHAPE(3, 8), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  v8 r = tensor_matmul(ta, tb);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(1, 8), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store((__bf16 *)c, tr, TLX_ZEROS(2));
  printf("c[0] = 0x%04x (expected 0x3f81 = 1.0078125)\n", c[0]);
  return c[0] != 0x3f81;
}
