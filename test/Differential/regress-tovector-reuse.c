// Bug (fixed; now a regression test): a tensor_tovector result that becomes a
// tensor again - through vector_totensor (the RFC's "prime" of an "unprime"),
// or through a 1-D typeinfo - crashes the compiler (tlx-legalize,
// Legalizer::lowerReduce, or heap corruption), or stops with "TLX op 'matmul'
// reached tlx-tile in an unexpected form" when the token feeds a matmul. A
// tovector result copied out to C works (gen.py's tovector cases).
//
// Found by progs.py (feature tovector-reuse), e.g.
//   python3 test/Differential/progs.py --seed 100 --case 18 \
//     --disable merge-wide-bf16 -o /tmp/r.c
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O0 \
//     -DVARIANT=0 test/Differential/regress-tovector-reuse.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
//   (VARIANT 0: totensor -> store; 1: totensor -> relu -> store;
//    2: totensor -> matmul -> store; 3: 1-D typeinfo -> reshape.permute)
// Expected: "OK" for every variant. Before the fix: compiler crash (0, 1, 3) or
// the tlx-tile error (2), at -O0 and -O2.
//
// RUN: %clang_tlx -fno-crash-diagnostics -O0 -DVARIANT=0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -fno-crash-diagnostics -O2 -DVARIANT=1 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// RUN: %clang_tlx -fno-crash-diagnostics -O2 -DVARIANT=2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -fno-crash-diagnostics -O0 -DVARIANT=3 %s %tlx_rt -o %t3 && %t3 | FileCheck %s
// CHECK: OK
#include <stdio.h>
#include <tlx.h>

#ifndef VARIANT
#define VARIANT 0
#endif

typedef float v4 __attribute__((ext_vector_type(4)));
TLX_DECLARE_TENSOR_OPS(v4)

int main(void) {
  float a[4] = {1, -2, 3, -4}, o[4] = {0};
  float e[4];
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v4 d = tensor_tovector(ta); /* logical row-major elements of a */
#if VARIANT == 3
  tlx_token_t t1 =
      tensor_typeinfo(d, TLX_SHAPE(4), TLX_LAYOUT(0), TLX_ZEROS(1));
  v4 r = tensor_reshape_permute(t1);
  tlx_token_t t =
      tensor_typeinfo(r, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
#else
  tlx_token_t t =
      vector_totensor(d, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
#endif
#if VARIANT == 1
  v4 r = tensor_relu(t);
  t = tensor_typeinfo(r, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  for (int i = 0; i < 4; i++)
    e[i] = a[i] > 0 ? a[i] : 0;
#elif VARIANT == 2
  v4 r = tensor_matmul(t, ta);
  t = tensor_typeinfo(r, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      e[i * 2 + j] = a[i * 2] * a[j] + a[i * 2 + 1] * a[2 + j];
#else
  for (int i = 0; i < 4; i++)
    e[i] = a[i];
#endif
  tensor_store(o, t, TLX_ZEROS(2));
  for (int i = 0; i < 4; i++)
    if (o[i] != e[i]) {
      printf("MISMATCH at %d: got %g expected %g\n", i, o[i], e[i]);
      return 1;
    }
  printf("OK\n");
  return 0;
}
