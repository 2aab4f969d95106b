// Bug (fixed; now a regression test): t = flag ? ta : tb of two tensor_loads
// alike is rebuilt as one load of a phi of the pointers at the merge, so memory
// written between the loads and the merge - by a tensor_store over a (VARIANT
// 0) or by plain C stores (1) - shows through t. A single load used after such
// a write is snapshotted correctly; writes after the merge are too.
//
// Found by progs.py (feature merge-load, with store-over-input).
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O2 \
//     -DVARIANT=0 test/Differential/regress-merge-load-reread.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
// Expected: "OK". Before the fix, at -O0 and -O2: "MISMATCH at 0: got 0
// expected -1" (the values written over a before the merge).
//
// RUN: %clang_tlx -O0 -DVARIANT=0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O2 -DVARIANT=0 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// RUN: %clang_tlx -O2 -DVARIANT=1 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: OK
#include <stdio.h>
#include <tlx.h>

#ifndef VARIANT
#define VARIANT 0
#endif

typedef float v6 __attribute__((ext_vector_type(6)));
TLX_DECLARE_TENSOR_OPS(v6)

static volatile int flag = 1;

int main(void) {
  float a[6] = {-1, 2, -3, 4, -5, 6}, b[6] = {7, 8, 9, 10, 11, 12};
  float o[6], old[6];
  for (int i = 0; i < 6; i++)
    old[i] = a[i];
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
#if VARIANT == 0
  v6 r = tensor_relu(ta);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(a, tr, TLX_ZEROS(2)); /* a = relu(a), before the merge */
#else
  for (int i = 0; i < 6; i++)
    a[i] = 0;
#endif
  tlx_token_t t = flag ? ta : tb;
  tensor_store(o, t, TLX_ZEROS(2)); /* t still names the loaded values */
  for (int i = 0; i < 6; i++) {
    float e = flag ? old[i] : b[i];
    if (o[i] != e) {
      printf("MISMATCH at %d: got %g expected %g\n", i, o[i], e);
      return 1;
    }
  }
  printf("OK\n");
  return 0;
}
