// Bug (fixed; now a regression test): t = tensor_load(x, 5 elements), then
// tensor_store(x + 3, t) into an overlapping region of the same array (a
// memmove) reads elements the store already overwrote: the copy runs upwards
// through memory it has just written. t names the values loaded; the store must
// behave as if they were copied first. (A store below the load happens to be
// right; a store of relu(t) goes through a buffer and is right.)
//
// Found by progs.py (feature overlap), e.g.
//   python3 test/Differential/progs.py --seed 100 --case 46 \
//     --disable merge-wide-bf16 -o /tmp/r.c
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O2 \
//     -DSHIFT=3 test/Differential/regress-overlap-store.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
//   (SHIFT is where the store goes relative to the load: 1 or 3 above it,
//    -1 or -3 below; RELU=1 stores relu(t) instead of t)
// Expected: "OK". Before the fix, at -O0 and -O2: "MISMATCH at 7: got -3
// expected 0" (SHIFT=3), "MISMATCH at 5: got -1 expected 0" (SHIFT=1).
//
// RUN: %clang_tlx -O0 -DSHIFT=3 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O2 -DSHIFT=1 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// CHECK: OK
#include <stdio.h>
#include <tlx.h>

#ifndef SHIFT
#define SHIFT 3
#endif
#ifndef RELU
#define RELU 0
#endif
#define LO (SHIFT < 0 ? -SHIFT : 0) /* where the load starts */

typedef float v5 __attribute__((ext_vector_type(5)));
TLX_DECLARE_TENSOR_OPS(v5)

int main(void) {
  float x[12], expect[12];
  for (int i = 0; i < 12; i++)
    x[i] = expect[i] = (float)(i - 4);
  for (int i = 0; i < 5; i++) { /* memmove of the loaded values */
    float v = (float)(LO + i - 4);
    expect[LO + SHIFT + i] = RELU && v < 0 ? 0 : v;
  }
  tlx_token_t t = tensor_load(x + LO, TLX_SHAPE(5), TLX_LAYOUT(0),
                              TLX_ZEROS(1), TLX_ZEROS(1));
#if RELU
  v5 r = tensor_relu(t);
  t = tensor_typeinfo(r, TLX_SHAPE(5), TLX_LAYOUT(0), TLX_ZEROS(1));
#endif
  tensor_store(x + LO + SHIFT, t, TLX_ZEROS(1));
  for (int i = 0; i < 12; i++)
    if (x[i] != expect[i]) {
      printf("MISMATCH at %d: got %g expected %g\n", i, x[i], expect[i]);
      return 1;
    }
  printf("OK\n");
  return 0;
}
