// Bug (fixed; now a regression test): a token with a non-identity layout (here
// column-major, <1,0>) merged through if/else comes out transposed (VARIANT 0:
// the else-path loaded tensor is read as if it were row-major), and a loop
// accumulator in column-major layout (VARIANT 1: acc = smma(acc, a, a) twice)
// is transposed between iterations (-O0 and -O2). The same programs with
// identity layouts are correct.
//
// Found by progs.py (feature merge-layout), e.g.
//   python3 test/Differential/progs.py --seed 100 --case 20 \
//     --disable merge-wide-bf16 -o /tmp/r.c
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O2 \
//     -DVARIANT=0 test/Differential/regress-merge-layout.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
//   (-DLAYOUT=0 uses row-major everywhere and passes)
// Expected: "OK". Before the fix, at -O0 and -O2: "MISMATCH at 1: got 2
// expected -4" (VARIANT 0) and "MISMATCH at 1: got 38 expected 32" (VARIANT 1).
//
// RUN: %clang_tlx -O2 -DVARIANT=0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O0 -DVARIANT=1 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// CHECK: OK
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

#ifndef VARIANT
#define VARIANT 0
#endif
#ifndef LAYOUT
#define LAYOUT 1
#endif
#if LAYOUT
#define L TLX_LAYOUT(1, 0)
#else
#define L TLX_LAYOUT(0, 1)
#endif

typedef int32_t v9 __attribute__((ext_vector_type(9)));
TLX_DECLARE_TENSOR_OPS(v9)

static volatile int flag = 0, trips = 2;

int main(void) {
  int32_t a[9] = {1, 2, 3, -4, 5, 6, 7, -8, 9}, o[9], expect[9], m[9];
  int32_t A[9]; /* the logical 3x3 tensor a holds */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A[i * 3 + j] = a[LAYOUT ? j * 3 + i : i * 3 + j];
  tlx_token_t ta =
      tensor_load(a, TLX_SHAPE(3, 3), L, TLX_ZEROS(2), TLX_ZEROS(2));
#if VARIANT == 0
  tlx_token_t t;
  if (flag) {
    v9 r = tensor_relu(ta);
    t = tensor_typeinfo(r, TLX_SHAPE(3, 3), L, TLX_ZEROS(2));
  } else {
    t = ta;
  }
  for (int i = 0; i < 9; i++)
    expect[i] = flag ? (A[i] > 0 ? A[i] : 0) : A[i];
#else
  for (int i = 0; i < 9; i++)
    expect[i] = A[i];
  for (int it = 0; it < trips; it++) {
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        int32_t s = expect[i * 3 + j];
        for (int k = 0; k < 3; k++)
          s += A[i * 3 + k] * A[k * 3 + j];
        m[i * 3 + j] = s;
      }
    for (int i = 0; i < 9; i++)
      expect[i] = m[i];
  }
  tlx_token_t t = ta;
  for (int it = 0; it < trips; it++) {
    v9 r = tensor_smma(t, ta, ta);
    t = tensor_typeinfo(r, TLX_SHAPE(3, 3), L, TLX_ZEROS(2));
  }
#endif
  /* store the logical tensor row-major */
  v9 rr = tensor_transpose(t, TLX_LAYOUT(0, 1));
  tlx_token_t ts =
      tensor_typeinfo(rr, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(o, ts, TLX_ZEROS(2));
  for (int i = 0; i < 9; i++)
    if (o[i] != expect[i]) {
      printf("MISMATCH at %d: got %d expected %d\n", i, (int)o[i],
             (int)expect[i]);
      return 1;
    }
  printf("OK\n");
  return 0;
}
