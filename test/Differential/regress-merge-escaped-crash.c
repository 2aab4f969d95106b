// Bug (fixed; now a regression test): the token of an op result whose vector
// also escapes to C - passed by value to a noinline function (VARIANT 0),
// stored to a global (1) - flowing into a merge (MERGE 0: ?:, 1: if/else, 2: a
// loop) crashes the compiler in tlx-bufferize (Bufferizer::assignBuffer):
// VARIANT 1 at -O0 and -O2, VARIANT 0 at -O0. Either alone - the escape, or the
// merge - compiles and runs correctly. (Element reads r[i] do not trigger it;
// nor does a vector passed in registers, e.g. 6 floats, in VARIANT 0.)
//
// Found by progs.py (feature merge-escaped), e.g.
//   python3 test/Differential/progs.py --seed 100 --case 453 \
//     --disable merge-wide-bf16 -o /tmp/r.c
// (reduced with test/Differential/reduce.py --crash)
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O0 \
//     -DVARIANT=0 -DMERGE=2 test/Differential/regress-merge-escaped-crash.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
// Expected: "OK". Before the fix: clang crashes ("Running pass
// tlx::BufferizePass", Bufferizer::assignBuffer in the stack dump).
//
// RUN: %clang_tlx -fno-crash-diagnostics -O0 -DVARIANT=0 -DMERGE=0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -fno-crash-diagnostics -O0 -DVARIANT=0 -DMERGE=2 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// RUN: %clang_tlx -fno-crash-diagnostics -O2 -DVARIANT=1 -DMERGE=1 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: OK
#include <stdio.h>
#include <string.h>
#include <tlx.h>

#ifndef VARIANT
#define VARIANT 0
#endif
#ifndef MERGE
#define MERGE 0
#endif

typedef float v64 __attribute__((ext_vector_type(64)));
TLX_DECLARE_TENSOR_OPS(v64)

static volatile int flag = 1;
static v64 global;
static float a[64], o[64], got[64];

__attribute__((noinline)) static void sink(v64 v, float *dst) {
  memcpy(dst, &v, sizeof(float) * 64);
}

int main(void) {
  for (int i = 0; i < 64; i++)
    a[i] = (float)(i % 7 - 3);
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(4, 16), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v64 r = tensor_relu(ta);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(4, 16), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
#if VARIANT == 0
  sink(r, got);
#else
  global = r;
  memcpy(got, &global, sizeof got);
#endif
#if MERGE == 0
  tlx_token_t t = flag ? tr : ta;
#elif MERGE == 1
  tlx_token_t t;
  if (flag)
    t = tr;
  else
    t = ta;
#else
  tlx_token_t t = tr; /* relu is idempotent: the loop keeps the values */
  for (int it = 0; it < flag; it++) {
    v64 s = tensor_relu(t);
    t = tensor_typeinfo(s, TLX_SHAPE(4, 16), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  }
#endif
  tensor_store(o, t, TLX_ZEROS(2));
  for (int i = 0; i < 64; i++) {
    float e = a[i] > 0 ? a[i] : 0;
    if (got[i] != e || o[i] != (flag ? e : a[i])) {
      printf("MISMATCH at %d: got %g and %g expected %g\n", i, got[i], o[i],
             e);
      return 1;
    }
  }
  printf("OK\n");
  return 0;
}
