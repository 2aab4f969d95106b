// C += A x B with C a pointer parameter: the accumulator is loaded from and
// stored to the same memory, so the mma reads and writes it in place - no
// temporary and no copy - even though, where TLX runs (clang's -O0 IR, and
// the start of the -O2 pipeline), each use of `c` reloads the pointer from
// its variable. Then the result is checked against the reference, also
// when an operand aliases the destination (that one needs a buffer).
// RUN: %clang_tlx -w -O0 -Rpass='tlx-(bufferize|tile)' %s %tlx_rt -o %t0 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 -Rpass='tlx-(bufferize|tile)' %s %tlx_rt -o %t2 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %t2 | FileCheck %s
// REMARK: mma-accumulate-param.c:[[#@LINE+15]]:{{[0-9]+}}: remark: usmma: result written in place into the destination of its tensor.store
// REMARK: mma-accumulate-param.c:[[#@LINE+21]]:{{[0-9]+}}: remark: smma: its destination is also an operand; computed into a buffer first
// REMARK: mma-accumulate-param.c:[[#@LINE+13]]:{{[0-9]+}}: remark: usmma: {{.*}}, accumulating in place
// CHECK: usmma param in place: ok
// CHECK: smma operand aliases destination: ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

typedef int32_t v12x10 __attribute__((__vector_size__(12 * 10 * 4)));
TLX_DECLARE_TENSOR_OPS(v12x10)

#define LOAD(p, r, c) tensor_load(p, TLX_SHAPE(r, c), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2))

__attribute__((noinline)) void accumulate(int32_t *c, const uint8_t *a, const int8_t *b) {
  v12x10 r = tensor_usmma(LOAD(c, 12, 10), LOAD(a, 12, 7), LOAD(b, 7, 10));
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(12, 10), TLX_LAYOUT(0, 1), TLX_ZEROS(2)), TLX_ZEROS(2));
}

// a is the destination itself, read as a 12 x 10 i32 matrix times 10 x 10:
// computing in place would overwrite rows of a still to be read.
__attribute__((noinline)) void square(int32_t *c, const int32_t *b) {
  v12x10 r = tensor_smma(LOAD(c, 12, 10), LOAD(c, 12, 10), LOAD(b, 10, 10));
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(12, 10), TLX_LAYOUT(0, 1), TLX_ZEROS(2)), TLX_ZEROS(2));
}

int main(void) {
  static uint8_t A[12 * 7];
  static int8_t B[7 * 10];
  static int32_t C[120], Want[120], B32[100], Before[120];
  const int64_t SA[] = {12, 7}, SB[] = {7, 10}, SC[] = {12, 10}, SB32[] = {10, 10};
  tlx_tensor ta = desc(A, TLX_I8, 2, SA, NULL, NULL); // usmma reads it unsigned
  tlx_tensor tb = desc(B, TLX_I8, 2, SB, NULL, NULL);
  tlx_tensor tc = desc(C, TLX_I32, 2, SC, NULL, NULL);
  tlx_tensor tw = desc(Want, TLX_I32, 2, SC, NULL, NULL);
  fillRandom(&ta, 127);
  fillRandom(&tb, 127);
  fillRandom(&tc, 1000);
  memcpy(Want, C, sizeof C);
  refOk("usmma", tlx_ref_mma(TLX_USMMA, &tw, &ta, &tb, &tw));
  accumulate(C, A, B);
  compare("usmma param in place", &tc, &tw, 0);

  tlx_tensor tb32 = desc(B32, TLX_I32, 2, SB32, NULL, NULL);
  tlx_tensor tbefore = desc(Before, TLX_I32, 2, SC, NULL, NULL);
  fillRandom(&tb32, 50);
  memcpy(Before, C, sizeof C);
  memcpy(Want, C, sizeof C);
  refOk("smma", tlx_ref_mma(TLX_SMMA, &tw, &tbefore, &tb32, &tw));
  square(C, B32);
  compare("smma operand aliases destination", &tc, &tw, 0);
  return finish();
}
