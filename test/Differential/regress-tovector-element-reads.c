// Bug (fixed; now a regression test): element reads v[i] of a tensor_tovector
// result wider than 256 bytes (here 128 floats of a loaded 32x2x2 tensor,
// identity or permuted layout) were rejected by tlx-check-wide-vectors ("C
// vector code on a tensor-sized <128 x float> value that TLX cannot lower
// ('extractelement')"): tlx-bufferize left the tovector to be assembled as one
// vector. Now the tensor is written once, in logical order, into a buffer
// that C reads element by element.
//
// Found by progs.py --seed 1 --case 100 (features: escape-elem, layout).
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O0 \
//     test/Differential/regress-tovector-element-reads.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
// Expected: "OK".
//
// RUN: %clang_tlx -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: OK
#include <stdio.h>
#include <tlx.h>

typedef float v128 __attribute__((ext_vector_type(128)));
TLX_DECLARE_TENSOR_OPS(v128)

static float a[128];

/* Element (i, j, k) of the logical 32x2x2 tensor that a holds in storage
   layout <0,2,1>: storage dim 1 is logical dim 2. */
static float logical(int permuted, int i, int j, int k) {
  return permuted ? a[i * 4 + k * 2 + j] : a[i * 4 + j * 2 + k];
}

static int check(int permuted, v128 v, volatile int *index) {
  int bad = 0;
  for (int n = 0; n < 3; n++) {
    int e = index[n];
    float want = logical(permuted, e / 4, e / 2 % 2, e % 2);
    if (v[e] != want) {
      printf("MISMATCH layout %d element %d: got %g expected %g\n", permuted,
             e, v[e], want);
      bad = 1;
    }
  }
  return bad;
}

int main(void) {
  for (int i = 0; i < 128; i++)
    a[i] = (float)(i * 3 - 100);
  static volatile int index[3] = {1, 64, 115};
  tlx_token_t t = tensor_load(a, TLX_SHAPE(32, 2, 2), TLX_LAYOUT(0, 1, 2),
                              TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t p = tensor_load(a, TLX_SHAPE(32, 2, 2), TLX_LAYOUT(0, 2, 1),
                              TLX_ZEROS(3), TLX_ZEROS(3));
  v128 vt = tensor_tovector(t);
  v128 vp = tensor_tovector(p);
  /* Constant indices too: the reads clang emits for v[1] etc. */
  int bad = check(0, vt, index) | check(1, vp, index);
  if (vp[1] != logical(1, 0, 0, 1) || vp[115] != logical(1, 28, 1, 1))
    bad = printf("MISMATCH constant index\n");
  if (!bad)
    printf("OK\n");
  return bad;
}
