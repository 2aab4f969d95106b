// Regression test for a bug the differential generator found (seed 3
// cases 42, 44, 95, 111, 136, 211, 324, 334 at -O0 and -O2: every
// totensor with a non-identity layout), fixed by 9ba015e.
// docs/ops.md: vector_totensor(vec, shape, layout, padding) is the tensor
// whose LOGICAL row-major elements are vec (the inverse of tovector); the
// compiled code took vec in storage order, like typeinfo.
// Here logical [2 x 4] = {{0,1,2,3},{4,5,0,0}} stored column-major
// (shape <4,2>, layout <1,0>) must read 0 4 1 5 2 0 3 0 (the bug gave
// 0 1 2 3 4 5 0 0).
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 %s %tlx_rt -o %t.O2
// RUN: %t.O2 | FileCheck %s
// CHECK: 0 4 1 5 2 0 3 0
#include <stdio.h>
#include <tlx.h>

typedef int v8 __attribute__((__vector_size__(32)));

int main(void) {
  v8 v = {0, 1, 2, 3, 4, 5};
  int out[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  tlx_token_t t =
      vector_totensor(v, TLX_SHAPE(4, 2), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  tensor_store(out, t, TLX_ZEROS(2));
  for (int i = 0; i < 8; i++)
    printf("%d ", out[i]);
  printf("\n");
  return 0;
}
