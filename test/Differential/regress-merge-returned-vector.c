// Bug (fixed; now a regression test): a tensor-sized vector returned by value
// from a C function (here f32 6x4x6, 576 bytes) and merged with a TLX result
// by ?: was rejected at -O1 and above by tlx-check-wide-vectors ("C vector
// code on a tensor-sized <144 x float> value that TLX cannot lower
// ('load')"): the merge's copy on the other path stored the loaded vector
// whole. Now a loaded vector is copied into its buffer where it is loaded.
//
// Found by progs.py --seed 1 --case 34 (features: escape-ret, merge-data).
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O1 \
//     test/Differential/regress-merge-returned-vector.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug && /tmp/bug x
// Expected: "OK" twice.
//
// RUN: %clang_tlx -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O1 %s %tlx_rt -o %t1 && %t1 && %t1 x | FileCheck %s
// RUN: %clang_tlx -O2 %s %tlx_rt -o %t2 && %t2 && %t2 x | FileCheck %s
// CHECK: OK
#include <math.h>
#include <stdio.h>
#include <tlx.h>

typedef float v144 __attribute__((ext_vector_type(144)));
TLX_DECLARE_TENSOR_OPS(v144)

#define SHAPE TLX_SHAPE(6, 4, 6)
#define IDENTITY TLX_LAYOUT(0, 1, 2)

static float a[144], out[144];
static v144 global;

__attribute__((noinline)) static v144 twice(v144 x) { return x * 2; }

int main(int argc, char **argv) {
  (void)argv;
  for (int i = 0; i < 144; i++)
    a[i] = (float)(i % 13) - 6.5f;
  tlx_token_t t = tensor_load(a, SHAPE, IDENTITY, TLX_ZEROS(3), TLX_ZEROS(3));
  v144 r = tensor_fabs(t);
  tlx_token_t rt = tensor_typeinfo(r, SHAPE, IDENTITY, TLX_ZEROS(3));
  v144 d = twice(r);
  tlx_token_t dt = tensor_typeinfo(d, SHAPE, IDENTITY, TLX_ZEROS(3));
  v144 m = argc == 1 ? r : d;
  tlx_token_t mt = tensor_typeinfo(m, SHAPE, IDENTITY, TLX_ZEROS(3));
  global = m;
  tensor_store(out, mt, TLX_ZEROS(3));
  (void)rt;
  (void)dt;
  for (int i = 0; i < 144; i++) {
    float want = fabsf(a[i]) * (argc == 1 ? 1 : 2);
    if (out[i] != want || global[i] != want) {
      printf("MISMATCH at %d: got %g and %g expected %g\n", i, out[i],
             global[i], want);
      return 1;
    }
  }
  printf("OK\n");
  return 0;
}
